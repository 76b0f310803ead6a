/**
 * The activity table (migration 0014), in raw SQL: the insert runs on the caller's transaction (the
 * change it records), and pages are keyset ranges on (created_at DESC, id DESC), which Sequelize's
 * finders cannot express as one index range.
 *
 * A cursor is an entry's id; the page reads the entry's (created_at, id) by its primary key and
 * continues from there, so the newest, a middle and the oldest page each cost one index range.
 */
import type { ActivityEntry, ActivityKind, ActivityObjectType } from '@mailroom/api-client';
import type { Database, Sql } from '../../db/database.js';

export type { ActivityEntry, ActivityKind, ActivityObjectType };

export interface ActivityRow {
  memberEmail: string;
  kind: ActivityKind;
  objectType: ActivityObjectType;
  objectId: number | null;
  objectName: string | null;
  details: Record<string, unknown>;
}

export interface ActivityFilters {
  /** A part of the member's address, lower-cased (the whole address is a part too). */
  member?: string | undefined;
  kind?: ActivityKind | undefined;
  objectType?: ActivityObjectType | undefined;
  objectId?: number | undefined;
}

/** Where a page starts: the newest entries, those older or newer than an entry, or the oldest. */
export type ActivityCursor = { from: 'newest' } | { from: 'oldest' } | { before: number } | { after: number };

const COLUMNS = `id, created_at AS "createdAt", member_email AS "memberEmail", kind, object_type AS "objectType",
                 object_id AS "objectId", object_name AS "objectName", details`;

/**
 * What a page's entries name now, read after the page's range (a primary-key probe per entry): whether
 * the object is still there (an audience not deleted, a template, a campaign, a key not revoked, a webhook endpoint),
 * and a campaign's status.
 */
const OBJECT_NOW = `CASE entry."objectType"
                      WHEN 'audience' THEN EXISTS (SELECT 1 FROM audiences a WHERE a.id = entry."objectId" AND a.deleted_at IS NULL)
                      WHEN 'template' THEN EXISTS (SELECT 1 FROM templates t WHERE t.id = entry."objectId")
                      WHEN 'campaign' THEN campaign.status IS NOT NULL
                      WHEN 'api-key' THEN EXISTS (SELECT 1 FROM api_keys k WHERE k.id = entry."objectId" AND k.revoked_at IS NULL)
                      WHEN 'webhook' THEN EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = entry."objectId")
                      ELSE false
                    END AS "objectExists",
                    campaign.status AS "campaignStatus"`;

interface DbEntry extends Omit<ActivityEntry, 'createdAt' | 'id' | 'objectId'> {
  id: string | number;
  createdAt: Date;
  objectId: string | number | null;
}

const toEntry = (row: DbEntry): ActivityEntry => ({
  ...row,
  id: Number(row.id),
  objectId: row.objectId === null ? null : Number(row.objectId),
  createdAt: row.createdAt.toISOString(),
});

/** The pattern of a part, matched as it is written: LIKE's own characters in it (%, _ and a backslash) are escaped. */
const likePart = (part: string) => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Addresses a part may stand for before the page reads the log by the pattern itself (a part most addresses have). */
const MEMBERS_LISTED_MAX = 200;

/** The filters, with the addresses a member part stands for (at most MEMBERS_LISTED_MAX; none read: the pattern). */
type RangeFilters = ActivityFilters & { members?: string[] };

/** The filters as SQL conditions on numbered parameters, after `params`. */
function filterSql(filters: RangeFilters, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (column: string, value: unknown) => {
    params.push(value);
    where.push(`${column} = $${params.length}`);
  };
  if (filters.members !== undefined) {
    // One address is a range of activity_by_member, in the page's order; several are a list.
    params.push(filters.members.length === 1 ? filters.members[0] : filters.members);
    where.push(filters.members.length === 1 ? `member_email = $${params.length}` : `member_email = ANY($${params.length}::text[])`);
  } else if (filters.member !== undefined) {
    params.push(likePart(filters.member));
    where.push(`member_email LIKE $${params.length}`);
  }
  if (filters.kind !== undefined) add('kind', filters.kind);
  if (filters.objectType !== undefined) add('object_type', filters.objectType);
  if (filters.objectId !== undefined) add('object_id', filters.objectId);
  return where;
}

/**
 * The entry's object for a change inside an audience (a segment's, a form's): the audience, named as it is now.
 * Read on the change's transaction, so a rename committed before it is what the entry says.
 */
export async function audienceObject(sql: Sql, audienceId: number): Promise<{ type: 'audience'; id: number; name: string | null }> {
  const { rows } = await sql.query<{ name: string }>('SELECT name FROM audiences WHERE id = $1', [audienceId]);
  return { type: 'audience', id: audienceId, name: rows[0]?.name ?? null };
}

/** Appends one entry on `sql` (the transaction of the change it records). */
export async function insertActivity(sql: Sql, row: ActivityRow): Promise<void> {
  await sql.query(
    `INSERT INTO activity (member_email, kind, object_type, object_id, object_name, details) VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.memberEmail, row.kind, row.objectType, row.objectId, row.objectName, JSON.stringify(row.details)],
  );
}

/**
 * Whether `member` recorded `kind` on the object since `seconds` ago, read on `sql` (the transaction
 * that holds the object's row lock, so two saves of one object cannot both miss each other's entry).
 */
export async function recordedLately(
  sql: Sql,
  row: Pick<ActivityRow, 'memberEmail' | 'kind' | 'objectType' | 'objectId'>,
  seconds: number,
): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM activity
      WHERE object_type = $1 AND object_id = $2 AND kind = $3 AND member_email = $4
        AND created_at > now() - $5 * interval '1 second'
      LIMIT 1`,
    [row.objectType, row.objectId, row.kind, row.memberEmail, seconds],
  );
  return rows.length > 0;
}

export function activityRepository(db: Database) {
  /**
   * `take` entries on one side of `cursor` (an entry id; none: from the end), in the direction's order,
   * through the index whose equality columns are the filters'.
   */
  const range = async (filters: RangeFilters, direction: 'older' | 'newer', cursor: number | undefined, take: number) => {
    const params: unknown[] = [];
    const where = filterSql(filters, params);
    if (cursor !== undefined) {
      params.push(cursor);
      where.push(
        `(created_at, id) ${direction === 'older' ? '<' : '>'} (SELECT created_at, id FROM activity WHERE id = $${params.length})`,
      );
    }
    params.push(take);
    const order = direction === 'older' ? 'DESC' : 'ASC';
    const { rows } = await db.query<DbEntry>(
      `SELECT entry.*, ${OBJECT_NOW}
         FROM (SELECT ${COLUMNS} FROM activity ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                ORDER BY created_at ${order}, id ${order} LIMIT $${params.length}) AS entry
         LEFT JOIN campaigns campaign ON entry."objectType" = 'campaign' AND campaign.id = entry."objectId"
        ORDER BY entry."createdAt" ${order}, entry.id ${order}`,
      params,
    );
    return rows.map(toEntry);
  };

  return {
    /** A page, newest first, with the cursors of its neighbours (null at either end). */
    async page(
      filters: RangeFilters,
      cursor: ActivityCursor,
      limit: number,
    ): Promise<{ items: ActivityEntry[]; older: number | null; newer: number | null }> {
      if (filters.member !== undefined) {
        const { rows } = await db.query<{ email: string }>(
          'SELECT email FROM activity_members WHERE email LIKE $1 ORDER BY email LIMIT $2',
          [likePart(filters.member), MEMBERS_LISTED_MAX + 1],
        );
        if (rows.length === 0) return { items: [], older: null, newer: null };
        if (rows.length <= MEMBERS_LISTED_MAX) filters = { ...filters, members: rows.map((row) => row.email) };
      }
      // One more than the page tells whether the page has a neighbour on the side it was read towards.
      if ('from' in cursor && cursor.from === 'newest') {
        const rows = await range(filters, 'older', undefined, limit + 1);
        const items = rows.slice(0, limit);
        return { items, older: rows.length > limit ? items.at(-1)!.id : null, newer: null };
      }
      if ('before' in cursor) {
        const rows = await range(filters, 'older', cursor.before, limit + 1);
        const items = rows.slice(0, limit);
        const newer = items[0] && (await range(filters, 'newer', items[0].id, 1)).length > 0 ? items[0].id : null;
        return { items, older: rows.length > limit ? items.at(-1)!.id : null, newer };
      }
      const rows = await range(filters, 'newer', 'after' in cursor ? cursor.after : undefined, limit + 1);
      const items = rows.slice(0, limit).reverse();
      const last = items.at(-1);
      const older = 'after' in cursor && last && (await range(filters, 'older', last.id, 1)).length > 0 ? last.id : null;
      return { items, older, newer: rows.length > limit ? items[0]!.id : null };
    },

    /** Deletes up to `batch` entries older than `days` days, oldest first; answers how many. */
    async deleteOlderThan(days: number, batch: number): Promise<number> {
      const { rowCount } = await db.query(
        `DELETE FROM activity WHERE id IN (
           SELECT id FROM activity WHERE created_at < now() - $1 * interval '1 day' ORDER BY created_at, id LIMIT $2)`,
        [days, batch],
      );
      return rowCount;
    },
  };
}
