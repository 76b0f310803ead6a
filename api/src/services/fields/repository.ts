/**
 * An audience's typed fields (an addition to the spec; migrations 0021 and 0024): the fields through the
 * AudienceField model, and raw SQL where the contacts' values are touched at a million rows (a type change's
 * conversion and a removed field's clearing, both in keyset batches over (audience_id, id)).
 *
 * audiences.headers stays the fields' keys in position order: every write here that changes the fields ends with
 * `rewriteHeaders` in the same transaction.
 */
import type { AudienceField } from '@mailroom/api-client';
import type { FieldType, FieldValue } from '@mailroom/api-client/fields';
import type { Database, Sql, Tx } from '../../db/database.js';
import { DomainError } from '../../errors.js';
import type { AudienceField as AudienceFieldRow } from '../../db/models/index.js';

export type { AudienceField };

/** A field's key and type: what merge tags resolve against. */
export interface MergeFieldRow {
  key: string;
  type: FieldType;
}

export interface LockedAudience {
  id: number;
  name: string;
  isImporting: boolean;
}

/** A template that may use a tag: the service reads its tags to be sure. */
export interface TemplateText {
  id: number;
  name: string;
  html: string | null;
  plainText: string | null;
}

export interface StoredValue {
  id: number;
  value: unknown;
}

const toField = (row: AudienceFieldRow): AudienceField => ({
  key: row.key,
  label: row.label,
  type: row.type,
  options: row.options ?? null,
  required: row.required,
  editableByPerson: row.editableByPerson,
  position: row.position,
});

/**
 * SQL: the merge fields (`[{key, type}]`, jsonb) of the audience row aliased `audience`, in headers order. A header
 * without a field row (an import that wrote headers only) is a TEXT field, as every column was before fields.
 */
export const mergeFieldsOf = (audience: string): string =>
  `coalesce((SELECT jsonb_agg(jsonb_build_object('key', h.key, 'type', coalesce(f.type, 'TEXT')) ORDER BY h.n)
               FROM jsonb_array_elements_text(${audience}.headers) WITH ORDINALITY AS h (key, n)
               LEFT JOIN audience_fields f ON f.audience_id = ${audience}.id AND f.key = h.key), '[]'::jsonb)`;

/** An audience's fields in position order (the fields screen, the contact drawer). */
export async function listAudienceFields(db: Database, audienceId: number, tx?: Tx): Promise<AudienceField[]> {
  const rows = await db.models.AudienceField.findAll({
    where: { audienceId },
    order: [['position', 'ASC']],
    ...(tx ? { transaction: tx.transaction } : {}),
  });
  return rows.map(toField);
}

/** The merge fields of a live audience (none when it is gone). */
export async function audienceMergeFields(sql: Sql, audienceId: number): Promise<MergeFieldRow[]> {
  const { rows } = await sql.query<{ fields: MergeFieldRow[] }>(
    `SELECT ${mergeFieldsOf('a')} AS fields FROM audiences a WHERE a.id = $1 AND a.deleted_at IS NULL`,
    [audienceId],
  );
  return rows[0]?.fields ?? [];
}

export function fieldRepository(db: Database) {
  const { AudienceField: Fields } = db.models;

  return {
    async exists(tx: Tx, audienceId: number): Promise<boolean> {
      const { rows } = await tx.query('SELECT 1 FROM audiences WHERE id = $1 AND deleted_at IS NULL', [audienceId]);
      return rows.length > 0;
    },

    /** Locks the live audience's row for the transaction: imports and other field changes wait. */
    async lockAudience(tx: Tx, audienceId: number): Promise<LockedAudience | undefined> {
      const { rows } = await tx.query<{ id: string; name: string; is_importing: boolean }>(
        'SELECT id, name, is_importing FROM audiences WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
        [audienceId],
      );
      const row = rows[0];
      return row ? { id: Number(row.id), name: row.name, isImporting: row.is_importing } : undefined;
    },

    /**
     * Gives every header without a field row one (TEXT, after the others), as migration 0021 did for the headers
     * then: rewriting headers from the fields must not drop a column an import wrote without its field.
     */
    async adoptHeaders(tx: Tx, audienceId: number): Promise<void> {
      await tx.query(
        `INSERT INTO audience_fields (audience_id, key, label, type, position)
         SELECT a.id, h.key, h.key, 'TEXT', coalesce((SELECT max(position) FROM audience_fields WHERE audience_id = a.id), 0) + h.n
           FROM audiences a, jsonb_array_elements_text(a.headers) WITH ORDINALITY AS h (key, n)
          WHERE a.id = $1
            AND NOT EXISTS (SELECT 1 FROM audience_fields f WHERE f.audience_id = a.id AND lower(f.key) = lower(h.key))
         ON CONFLICT DO NOTHING`,
        [audienceId],
      );
    },

    async find(tx: Tx, audienceId: number, key: string): Promise<AudienceField | undefined> {
      const row = await Fields.findOne({ where: { audienceId, key }, transaction: tx.transaction });
      return row ? toField(row) : undefined;
    },

    async insert(tx: Tx, audienceId: number, field: Omit<AudienceField, 'position'>): Promise<AudienceField> {
      const { rows } = await tx.query<{ next: number }>(
        'SELECT coalesce(max(position), 0) + 1 AS next FROM audience_fields WHERE audience_id = $1',
        [audienceId],
      );
      const row = await Fields.create({ audienceId, ...field, position: rows[0]!.next }, { transaction: tx.transaction });
      return toField(row);
    },

    async update(tx: Tx, audienceId: number, key: string, changes: Partial<Omit<AudienceField, 'key' | 'position'>>): Promise<void> {
      await Fields.update(changes, { where: { audienceId, key }, transaction: tx.transaction });
    },

    async remove(tx: Tx, audienceId: number, key: string): Promise<void> {
      await Fields.destroy({ where: { audienceId, key }, transaction: tx.transaction });
    },

    /** audiences.headers := the fields' keys in position order. */
    async rewriteHeaders(tx: Tx, audienceId: number): Promise<void> {
      await tx.query(
        `UPDATE audiences
            SET headers = coalesce((SELECT jsonb_agg(key ORDER BY position) FROM audience_fields WHERE audience_id = $1), '[]'::jsonb),
                updated_at = now()
          WHERE id = $1`,
        [audienceId],
      );
    },

    /** Whether the values of a removed field of this key (any case) are still being cleared. */
    async removalPending(tx: Tx, audienceId: number, key: string): Promise<boolean> {
      const { rows } = await tx.query('SELECT 1 FROM audience_field_removals WHERE audience_id = $1 AND lower(key) = lower($2)', [
        audienceId,
        key,
      ]);
      return rows.length > 0;
    },

    async addRemoval(tx: Tx, audienceId: number, key: string): Promise<void> {
      await tx.query('INSERT INTO audience_field_removals (audience_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [audienceId, key]);
    },

    /** Templates whose html or plain text holds the key in any case: candidates, whose tags the service reads. */
    async templatesMentioning(key: string): Promise<TemplateText[]> {
      const { rows } = await db.query<{ id: string; name: string; html: string | null; plain_text: string | null }>(
        `SELECT id, name, html, plain_text FROM templates
          WHERE strpos(lower(coalesce(html, '')), lower($1)) > 0 OR strpos(lower(coalesce(plain_text, '')), lower($1)) > 0
          ORDER BY id`,
        [key],
      );
      return rows.map((row) => ({ id: Number(row.id), name: row.name, html: row.html, plainText: row.plain_text }));
    },

    /** The contacts after `afterId` (at most `limit`) that hold a value for `key`, in id order. */
    async valuesAfter(tx: Tx, audienceId: number, key: string, afterId: number, limit: number): Promise<StoredValue[]> {
      const { rows } = await tx.query<{ id: string; value: unknown }>(
        `SELECT id, data -> $2 AS value FROM contacts
          WHERE audience_id = $1 AND id > $3 AND data ? $2
          ORDER BY id LIMIT $4`,
        [audienceId, key, afterId, limit],
      );
      return rows.map((row) => ({ id: Number(row.id), value: row.value }));
    },

    /** Writes converted values of `key` (null: no value, the key goes). */
    async writeValues(tx: Tx, key: string, values: { id: number; value: FieldValue | null }[]): Promise<void> {
      if (values.length === 0) return;
      await tx.query(
        `UPDATE contacts c
            SET data = CASE WHEN v.value = 'null'::jsonb THEN c.data - $1 ELSE jsonb_set(c.data, ARRAY[$1], v.value) END
           FROM unnest($2::bigint[], $3::jsonb[]) AS v (id, value)
          WHERE c.id = v.id`,
        [key, values.map((v) => v.id), values.map((v) => JSON.stringify(v.value))],
      );
    },

    /**
     * Clears `key` from the next `limit` contacts of the audience after the removal's progress, and moves the
     * progress on: one short statement. Answers how many contacts it looked at (fewer than `limit`: done), or
     * undefined when there is no such removal (done already, or the audience is gone).
     */
    async clearBatch(audienceId: number, key: string, limit: number): Promise<number | undefined> {
      const { rows } = await db.query<{ scanned: number }>(
        `WITH removal AS (SELECT after_id FROM audience_field_removals WHERE audience_id = $1 AND key = $2 FOR UPDATE),
              batch AS (SELECT c.id FROM contacts c, removal
                         WHERE c.audience_id = $1 AND c.id > removal.after_id ORDER BY c.id LIMIT $3),
              cleared AS (UPDATE contacts c SET data = c.data - $2 FROM batch WHERE c.id = batch.id AND c.data ? $2 RETURNING 1),
              moved AS (UPDATE audience_field_removals r SET after_id = (SELECT max(id) FROM batch)
                         WHERE r.audience_id = $1 AND r.key = $2 AND EXISTS (SELECT 1 FROM batch) RETURNING 1)
         SELECT (SELECT count(*) FROM batch)::int AS scanned, (SELECT count(*) FROM cleared) AS cleared, (SELECT count(*) FROM moved) AS moved
           FROM removal`,
        [audienceId, key, limit],
      );
      return rows[0]?.scanned;
    },

    async finishRemoval(audienceId: number, key: string): Promise<void> {
      await db.query('DELETE FROM audience_field_removals WHERE audience_id = $1 AND key = $2', [audienceId, key]);
    },

    /** Removals begun over `olderThanMs` ago: their message may have been lost. */
    async staleRemovals(olderThanMs: number): Promise<{ audienceId: number; key: string }[]> {
      const { rows } = await db.query<{ audience_id: string; key: string }>(
        `SELECT audience_id, key FROM audience_field_removals WHERE removed_at < now() - make_interval(secs => $1::float8 / 1000)
          ORDER BY removed_at LIMIT 1000`,
        [olderThanMs],
      );
      return rows.map((row) => ({ audienceId: Number(row.audience_id), key: row.key }));
    },
  };
}

export type FieldRepository = ReturnType<typeof fieldRepository>;

/** A field as an import creates it: key, label, type, options (CHOICE only), whether it is required, and position. */
export interface AudienceFieldInsert {
  key: string;
  label: string;
  type: FieldType;
  options: string[] | null;
  required: boolean;
  position: number;
}

/**
 * Creates an import's new fields in one statement, inside the caller's transaction (which holds the audience's lock
 * and rewrites audiences.headers). A key whose removal is still clearing old values is refused, as the fields screen
 * refuses it: the clearing would otherwise empty the values this import is about to write.
 */
export async function insertAudienceFields(tx: Tx, audienceId: number, fields: readonly AudienceFieldInsert[]): Promise<void> {
  if (fields.length === 0) return;
  const { rows } = await tx.query<{ key: string }>(
    'SELECT key FROM audience_field_removals WHERE audience_id = $1 AND lower(key) = ANY ($2::text[]) LIMIT 1',
    [audienceId, fields.map((field) => field.key.toLowerCase())],
  );
  if (rows[0]) {
    throw new DomainError(
      'conflict',
      `The field '${rows[0].key}' was removed a moment ago and its values are still being cleared; try again in a minute or choose another key.`,
    );
  }
  await tx.query(
    `INSERT INTO audience_fields (audience_id, key, label, type, options, required, position)
     SELECT $1, f.key, f.label, f.type, NULLIF(f.options, 'null'::jsonb), f.required, f.position
       FROM jsonb_to_recordset($2::jsonb) AS f (key text, label text, type text, options jsonb, required boolean, position integer)`,
    [audienceId, JSON.stringify(fields)],
  );
}
