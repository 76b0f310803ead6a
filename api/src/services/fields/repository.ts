/** An audience's fields (table audience_fields, migration 0021). */
import type { Tx } from '../../db/database.js';
import type { FieldType } from '@mailroom/api-client/fields';

/** A field as it is created: its key, label, type, options (CHOICE only), whether it is required, and its position. */
export interface AudienceFieldInsert {
  key: string;
  label: string;
  type: FieldType;
  options: string[] | null;
  required: boolean;
  position: number;
}

/** Creates `fields` for the audience, in one statement, inside the caller's transaction (which rewrites audiences.headers). */
export async function insertAudienceFields(tx: Tx, audienceId: number, fields: readonly AudienceFieldInsert[]): Promise<void> {
  if (fields.length === 0) return;
  await tx.query(
    `INSERT INTO audience_fields (audience_id, key, label, type, options, required, position)
     SELECT $1, f.key, f.label, f.type, NULLIF(f.options, 'null'::jsonb), f.required, f.position
       FROM jsonb_to_recordset($2::jsonb) AS f (key text, label text, type text, options jsonb, required boolean, position integer)`,
    [audienceId, JSON.stringify(fields)],
  );
}
