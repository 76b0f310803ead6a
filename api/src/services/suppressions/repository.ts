/**
 * The organisation's suppressions: the managed list (an addition to the spec: its pages, search,
 * member additions, removals with their record, export; migration 0013), and below, suppressed contacts.
 *
 * Suppressed contacts: an audience's valid contacts whose address is in `suppressions` (hard bounce,
 * complaint, unsubscribe). Sending skips them (sending/dispatch-repository.ts); these statements count them,
 * for the send confirmation (how many of the valid contacts will be skipped) and for the report's
 * "send to NOT_SENT" (how many it skipped).
 *
 * Cost at a million contacts: the count walks whichever side is smaller. With fewer suppressions
 * than valid contacts (the usual case) it probes the audience's contacts by (audience_id,
 * address_key(email)) once per suppressed address (migrations 0008 and 0017): O(suppressions), whatever the
 * audience's size. With a smaller audience it probes suppressions' key once per contact. The
 * planner prefers a hash join over the whole audience for the first case (270 ms at a million
 * contacts against 56 ms), so that shape is forced with a LATERAL ... OFFSET 0; JIT is off for the
 * statement, whose estimated cost would otherwise compile it for longer than it runs.
 */
import type { Suppression, SuppressionReason } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import type { Readable } from 'node:stream';
import { to as copyTo } from 'pg-copy-streams';
import type { Database, Sql, Tx } from '../../db/database.js';
import { consentInsertFrom } from '../consent/repository.js';
import { likeContains } from '../contacts/repository.js';
import { ANY_ERASED, isErased, isSuppressed } from './erased.js';
import { csvCell } from '../contacts/export.js';
import { keysetPageOf, searchIndexOf, stateFilter, STATES, termKey, type KeysetCursor, type SearchCache } from '../search-index.js';

export type { SuppressionReason };

/** Every reason, in the order of the search index's state byte (and of the filter's menu). */
export const SUPPRESSION_REASONS: readonly SuppressionReason[] = [
  'UNSUBSCRIBE',
  'HARD_BOUNCE',
  'COMPLAINT',
  'SOFT_BOUNCE',
  'MEMBER',
  'ERASED',
];

export interface SuppressionListQuery extends KeysetCursor {
  limit: number;
  email?: string | undefined;
  reason?: SuppressionReason | undefined;
}

export interface SuppressionListPage {
  items: Suppression[];
  totalItems: number;
  hasNewer: boolean;
  hasOlder: boolean;
  offset: number | null;
}

interface SuppressionRow {
  id: string;
  email_lower: string;
  reason: SuppressionReason;
  created_at: Date;
  campaign_id: string | null;
  campaign_name: string | null;
  added_by_email: string | null;
}

const toItem = (row: SuppressionRow): Suppression => ({
  id: Number(row.id),
  email: row.email_lower,
  reason: row.reason,
  createdAt: row.created_at.toISOString(),
  campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
  campaignName: row.campaign_name,
  addedBy: row.added_by_email,
});

const ROW_COLUMNS = `s.id, s.email_lower, s.reason, s.created_at, s.campaign_id, c.name AS campaign_name, s.added_by_email
  FROM suppressions s LEFT JOIN campaigns c ON c.id = s.campaign_id`;

/** The rows of these ids, newest first (a page's rows, by key). */
async function rowsByIds(sql: Sql, ids: number[]): Promise<Suppression[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<SuppressionRow>(`SELECT ${ROW_COLUMNS} WHERE s.id = ANY($1::bigint[]) ORDER BY s.id DESC`, [ids]);
  return rows.map(toItem);
}

/**
 * The unsearched list: a keyset range of the (id) or (reason, id) index, limit + 1 rows to know
 * whether more follow, and one index probe for the other side. Every page, the last included, reads
 * about `limit` index entries.
 */
async function keysetPage(db: Database, query: SuppressionListQuery, totalItems: number): Promise<SuppressionListPage> {
  const params: unknown[] = [];
  const reason = query.reason === undefined ? 'TRUE' : `s.reason = $${params.push(query.reason)}`;
  const take = query.limit + 1;
  let where = reason;
  let ascending = false;
  if (query.end) ascending = true;
  else if (query.before !== undefined) {
    where += ` AND s.id > $${params.push(query.before)}`;
    ascending = true;
  } else if (query.after !== undefined) where += ` AND s.id < $${params.push(query.after)}`;
  const { rows } = await db.query<SuppressionRow>(
    `SELECT ${ROW_COLUMNS} WHERE ${where} ORDER BY s.id ${ascending ? 'ASC' : 'DESC'} LIMIT ${take}`,
    params,
  );
  const more = rows.length > query.limit;
  const pageRows = rows.slice(0, query.limit);
  if (ascending) pageRows.reverse();
  const items = pageRows.map(toItem);
  const probe = async (op: '>' | '<' | '>=' | '<=', id: number) => {
    const probeParams: unknown[] = query.reason === undefined ? [] : [query.reason];
    const found = await db.query(
      `SELECT 1 FROM suppressions s WHERE ${reason} AND s.id ${op} $${probeParams.push(id)} LIMIT 1`,
      probeParams,
    );
    return found.rows.length > 0;
  };
  const newest = items[0]?.id;
  const oldest = items[items.length - 1]?.id;
  const hasNewer = ascending
    ? more
    : newest !== undefined
      ? await probe('>', newest)
      : query.after !== undefined && (await probe('>=', query.after));
  const hasOlder = ascending
    ? query.end
      ? false
      : oldest !== undefined
        ? await probe('<', oldest)
        : query.before !== undefined && (await probe('<=', query.before))
    : more;
  const offset = query.end ? Math.max(0, totalItems - items.length) : query.after === undefined && query.before === undefined ? 0 : null;
  return { items, totalItems, hasNewer, hasOlder, offset };
}

const EVERY_REASON = stateFilter((state) => state < SUPPRESSION_REASONS.length);
const REASON_FILTERS = new Map(SUPPRESSION_REASONS.map((reason, state) => [reason, stateFilter((s) => s === state)]));
const REASON_STATE = `CASE s.reason ${SUPPRESSION_REASONS.map((reason, state) => `WHEN '${reason}' THEN ${state}`).join(' ')} END`;

/** The export's columns, first line. */
export const SUPPRESSIONS_EXPORT_HEADER = `${['email', 'reason', 'date', 'campaign id', 'campaign', 'added by'].map(csvCell).join(',')}\n`;

export interface SuppressedContacts {
  /** Valid contacts whose address is suppressed, all reasons. */
  suppressedContacts: number;
  unsubscribed: number;
  hardBounced: number;
  complained: number;
}

export interface SuppressedScope {
  audienceId: number;
  /** The audience's valid contacts (numberOfContacts - numberOfContactsWithErrors): picks the side to walk. */
  validContacts: number;
  /** Only contacts without a job in this campaign (its NOT_SENT contacts). */
  notSentOf?: number | undefined;
}

const COUNTS = `count(*)::int AS "suppressedContacts",
  count(*) FILTER (WHERE reason = 'UNSUBSCRIBE')::int AS unsubscribed,
  count(*) FILTER (WHERE reason = 'HARD_BOUNCE')::int AS "hardBounced",
  count(*) FILTER (WHERE reason = 'COMPLAINT')::int AS complained`;

export function suppressionRepository(db: Database) {
  return {
    /**
     * A page of the suppressions, newest first. Totals come from suppression_counts (triggers). An
     * address search reads its matches once into a search index (search-index.ts: key the id, state
     * the reason), versioned by the count rows' xmin read in the page's own snapshot: any insert or
     * delete of a suppression rewrites one, so a changed list is never served from an old index.
     */
    async page(query: SuppressionListQuery, searches: SearchCache): Promise<SuppressionListPage> {
      const term = query.email?.trim() ?? '';
      if (term === '') {
        const { rows } = await db.query<{ total: string }>(
          `SELECT coalesce(sum(suppressions), 0)::bigint AS total FROM suppression_counts WHERE $1::text IS NULL OR reason = $1`,
          [query.reason ?? null],
        );
        return keysetPage(db, query, Number(rows[0]!.total));
      }
      return db.transaction(
        async (tx) => {
          const { rows: version } = await tx.query<{ version: string }>(
            `SELECT string_agg(xmin::text || ':' || suppressions, ',' ORDER BY reason) AS version FROM suppression_counts`,
          );
          const index = await searches.get(`${version[0]!.version}|${termKey(term)}`, async () => {
            const { rows } = await tx.query<{ bytes: Buffer | null }>(
              `SELECT string_agg(int8send(s.id * ${STATES} + ${REASON_STATE}), ''::bytea) AS bytes
                 FROM suppressions s WHERE s.email_lower LIKE address_key($1)`,
              [likeContains(term)],
            );
            return searchIndexOf(rows[0]!.bytes);
          });
          const filter = query.reason === undefined ? EVERY_REASON : REASON_FILTERS.get(query.reason)!;
          const page = keysetPageOf(index, filter, query, query.limit);
          let totalItems = 0;
          for (let state = 0; state < SUPPRESSION_REASONS.length; state++) if (filter[state]) totalItems += index.counts[state]!;
          return {
            items: await rowsByIds(tx, page.keys),
            totalItems,
            hasNewer: page.hasNewer,
            hasOlder: page.hasOlder,
            offset: page.offset,
          };
        },
        { isolation: 'REPEATABLE READ', readOnly: true },
      );
    },

    /**
     * Adds a member's addresses (keyed by address_key) with the reason MEMBER; resolves with how many were
     * new. An erased address is suppressed already, by its erased key: it is not stored again. Each new one gets
     * its consent ledger entry (SUPPRESSED in every audience, reason MANUAL, the member) in the same statement.
     */
    async addByMember(tx: Tx, emails: string[], memberEmail: string | null): Promise<number> {
      if (emails.length === 0) return 0;
      const { rows } = await tx.query<{ added: number }>(
        `WITH added AS (INSERT INTO suppressions (email_lower, reason, added_by_email)
                        SELECT DISTINCT address_key(e), 'MEMBER', $2::text FROM unnest($1::text[]) e WHERE NOT ${isErased('e')}
                        ON CONFLICT (email_lower) DO NOTHING
                        RETURNING email_lower),
              given AS (SELECT DISTINCT ON (address_key(e)) e AS email FROM unnest($1::text[]) e
                         WHERE address_key(e) IN (SELECT email_lower FROM added)),
              recorded AS (${consentInsertFrom('SUPPRESSED', 'given', {
                email: 'given.email',
                memberEmail: '$2',
                detail: `jsonb_build_object('reason', 'MANUAL')`,
              })})
         SELECT count(*)::int AS added FROM added`,
        [emails, memberEmail],
      );
      return rows[0]?.added ?? 0;
    },

    /** Locks a suppression for its removal; undefined when there is none with this id. */
    async lockForRemoval(tx: Tx, id: number) {
      return (
        (await db.models.Suppression.findOne({ where: { id }, lock: tx.transaction.LOCK.UPDATE, transaction: tx.transaction })) ?? undefined
      );
    },

    /**
     * Removes the suppression and records who removed it; the address's soft-bounce streak starts again. The
     * consent ledger's RESUBSCRIBED entry (every audience, the member, the reason removed) goes with the delete,
     * in its statement.
     */
    async remove(
      tx: Tx,
      suppression: { id: number; emailLower: string; reason: SuppressionReason; campaignId: number | null; createdAt: Date },
      memberEmail: string,
    ): Promise<void> {
      await tx.query(
        `WITH removed AS (DELETE FROM suppressions WHERE id = $1 RETURNING email_lower, reason)
         ${consentInsertFrom('RESUBSCRIBED', 'removed', {
           email: 'removed.email_lower',
           memberEmail: '$2',
           detail: `jsonb_build_object('reason', CASE removed.reason WHEN 'MEMBER' THEN 'MANUAL' ELSE removed.reason END)`,
         })}`,
        [suppression.id, memberEmail],
      );
      await tx.query('DELETE FROM soft_bounce_streaks WHERE email_lower = $1', [suppression.emailLower]);
      await db.models.SuppressionRemoval.create(
        {
          emailLower: suppression.emailLower,
          reason: suppression.reason,
          campaignId: suppression.campaignId,
          suppressedAt: suppression.createdAt,
          removedByEmail: memberEmail,
        },
        { transaction: tx.transaction },
      );
    },

    /**
     * The export: PostgreSQL writes the CSV (COPY, every cell quoted, formulas made inert by csv_inert as
     * the contacts export does), newest first, from one snapshot, streamed with backpressure.
     */
    async exportCsv(query: Pick<SuppressionListQuery, 'email' | 'reason'>): Promise<Readable> {
      return db.streamInTransaction(
        (tx) => {
          const literal = (value: string) => tx.client.escapeLiteral(value);
          const label = `CASE s.reason ${SUPPRESSION_REASONS.map((r) => `WHEN ${literal(r)} THEN ${literal(SUPPRESSION_REASON_LABELS[r])}`).join(' ')} END`;
          const term = query.email?.trim() ?? '';
          const where = [
            query.reason === undefined ? 'TRUE' : `s.reason = ${literal(query.reason)}`,
            term === '' ? 'TRUE' : `s.email_lower LIKE address_key(${literal(likeContains(term))})`,
          ].join(' AND ');
          return tx.client.query(
            copyTo(`COPY (SELECT csv_inert(s.email_lower), ${label}, to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           s.campaign_id, csv_inert(c.name), csv_inert(s.added_by_email)
                      FROM suppressions s LEFT JOIN campaigns c ON c.id = s.campaign_id WHERE ${where} ORDER BY s.id DESC)
                    TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)`),
          );
        },
        { isolation: 'REPEATABLE READ', readOnly: true, prefix: SUPPRESSIONS_EXPORT_HEADER },
      );
    },

    async countSuppressedContacts({ audienceId, validContacts, notSentOf }: SuppressedScope): Promise<SuppressedContacts> {
      return db.transaction(async (tx) => {
        await tx.query('SET LOCAL jit = off');
        const params: unknown[] = [audienceId];
        const noJob =
          notSentOf === undefined
            ? ''
            : `AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $${params.push(notSentOf)} AND j.contact_id = c.id)`;
        // reltuples is the planner's estimate (-1 before the first ANALYZE): enough to pick a side.
        const { rows: size } = await tx.query<{ suppressions: number }>(
          `SELECT greatest(reltuples, 0)::float8 AS suppressions FROM pg_class WHERE oid = 'suppressions'::regclass`,
        );
        const bySuppression = (size[0]?.suppressions ?? 0) <= validContacts;
        const { rows } = await tx.query<SuppressedContacts>(
          `SELECT ${COUNTS} FROM (${
            bySuppression
              ? `SELECT s.reason FROM suppressions s
                   CROSS JOIN LATERAL (
                     SELECT 1 FROM contacts c
                      WHERE c.audience_id = $1 AND address_key(c.email) = s.email_lower AND c.valid_seq IS NOT NULL ${noJob}
                     OFFSET 0) found`
              : `SELECT s.reason FROM contacts c JOIN suppressions s ON s.email_lower = address_key(c.email)
                  WHERE c.audience_id = $1 AND c.valid_seq IS NOT NULL ${noJob}`
          }
           -- Erased addresses imported again: only their hash is on the list, so every contact is hashed,
           -- once the organisation has erased anyone (a one-time filter otherwise: no scan).
           UNION ALL
           SELECT 'ERASED' FROM contacts c
            WHERE ${ANY_ERASED} AND c.audience_id = $1 AND c.valid_seq IS NOT NULL ${noJob} AND ${isErased('c.email')}
              AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.email_lower = address_key(c.email))
           -- Contacts that left this audience alone (the preference centre): a send skips them as it skips the
           -- unsubscribed, and they count as such. Read through their partial index (migration 0029).
           UNION ALL
           SELECT 'UNSUBSCRIBE' FROM contacts c
            WHERE c.audience_id = $1 AND c.unsubscribed_at IS NOT NULL AND c.valid_seq IS NOT NULL ${noJob}
              AND NOT ${isSuppressed('c.email')}) suppressed`,
          params,
        );
        return rows[0]!;
      });
    },
  };
}

export type SuppressionRepository = ReturnType<typeof suppressionRepository>;
