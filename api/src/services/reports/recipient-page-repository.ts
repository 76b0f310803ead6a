/**
 * The email performance rows of a campaign's report in display order, fast at a million jobs
 * (migration 0006 has the indexes and counts they read): the report's scope and totals, a page's
 * window of rows, and every row through a cursor for the export and the streamed large pages. Raw
 * SQL: paging from either end, anti-joins and cursors are what it is about. What a row is:
 * recipient-row-repository.ts; the email filter: recipient-search-repository.ts.
 *
 * - Totals never count rows: a job filter's total is a sum over campaign_job_counts (kept by
 *   triggers, so it agrees with the rows of the same snapshot); NOT_SENT's is the campaign's contacts
 *   (the audience's valid ones, or the follow-up's recipient count) less the campaign's jobs. Each
 *   page is read in one REPEATABLE READ snapshot.
 * - A page is read from the nearer end of the index its filter uses (the last page scans the index
 *   backwards and is reversed), so the first and the last page cost about a page of index entries;
 *   a page in the middle skips up to half of the matching rows.
 * - NOT_SENT walks the campaign's contacts in their order with an anti-join on the campaign's jobs:
 *   its cost grows with the contacts that do have a job between the nearer end and the page.
 * - The export and the streamed large pages read every row of the filters through a cursor, an
 *   email search's too (one pass over the campaign's jobs, or over its contacts for NOT_SENT).
 */
import type { Sql, Tx } from '../../db/database.js';
import { likeContains } from '../contacts/repository.js';
import { erasedMail } from '../suppressions/erased.js';
import {
  contactSource,
  jobConditions,
  JOB_COLUMNS,
  NOT_SENT_COLUMNS,
  notSent,
  notSentCanMatch,
  ownerOf,
  toRow,
  withSuppressions,
  type EmailPerformanceFilters,
  type EmailPerformanceRow,
  type ReportScope,
  type RowRecord,
} from './recipient-row-repository.js';

/** Rows in order from one end of their index. */
export type Direction = 'ASC' | 'DESC';

interface Query {
  text: string;
  params: unknown[];
}

/** The conditions of jobConditions (recipient-row-repository.ts) on campaign_job_counts. */
function countConditions(filters: EmailPerformanceFilters, params: unknown[]): string {
  const where = ['true'];
  if (filters.sendStatus) where.push(`status = $${params.push(filters.sendStatus)}`);
  if (filters.bounceStatus) where.push(`bounce_type = $${params.push(filters.bounceStatus)}`);
  if (filters.clicked !== undefined) where.push(`clicked = ${filters.clicked}`);
  if (filters.opened !== undefined) where.push(`opened = ${filters.opened}`);
  if (filters.humanClicked !== undefined) where.push(`human_clicked = ${filters.humanClicked}`);
  if (filters.humanOpened !== undefined) where.push(`human_opened = ${filters.humanOpened}`);
  return where.join(' AND ');
}

/**
 * The rows of a filter without the address, in order from one end. Jobs: `campaign_id = ANY(...)`
 * with the campaign id in the sort keeps PostgreSQL on the (campaign_id, ...) indexes; with a plain
 * `=` it may walk the primary key in id order and skip every other campaign's jobs on the way.
 */
function orderedRows(scope: ReportScope, filters: EmailPerformanceFilters, direction: Direction): Query | undefined {
  if (notSent(filters)) {
    if (scope.audienceId === null || !notSentCanMatch(filters)) return undefined;
    const source = contactSource(scope);
    return {
      text: `SELECT ${NOT_SENT_COLUMNS} FROM ${source.from('$1')}
                AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $2 AND j.contact_id = c.id)
              ORDER BY ${source.seq} ${direction}`,
      params: [ownerOf(scope), scope.campaignId],
    };
  }
  const params: unknown[] = [[scope.campaignId]];
  return {
    text: `SELECT ${JOB_COLUMNS} FROM campaign_jobs j
            WHERE j.campaign_id = ANY($1::bigint[])${jobConditions(filters, params)}
            ORDER BY j.campaign_id ${direction}, j.id ${direction}`,
    params,
  };
}

/**
 * Every row of an email search in display order, for a cursor (the export, a streamed page): jobs
 * in job order, NOT_SENT contacts in their order. One pass over the campaign's jobs, or over the
 * campaign's contacts for NOT_SENT.
 */
function searchedRows(scope: ReportScope, filters: EmailPerformanceFilters): Query | undefined {
  if (notSent(filters)) {
    if (scope.audienceId === null || !notSentCanMatch(filters)) return undefined;
    const source = contactSource(scope);
    return {
      text: `SELECT ${NOT_SENT_COLUMNS} FROM ${source.from('$2')} AND address_key(c.email) LIKE address_key($1)
                AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $3 AND j.contact_id = c.id)
              ORDER BY ${source.seq}`,
      params: [likeContains(filters.email!), ownerOf(scope), scope.campaignId],
    };
  }
  const params: unknown[] = [filters.email!, [scope.campaignId]];
  return {
    text: `SELECT ${JOB_COLUMNS} FROM campaign_jobs j
            WHERE j.campaign_id = ANY($2::bigint[]) AND strpos(address_key(j.email), address_key($1)) > 0${jobConditions(filters, params)}
            ORDER BY j.campaign_id, j.id`,
    params,
  };
}

/** Where a page lies: read `take` rows after skipping `skip` from the nearer end. */
export interface PageWindow {
  direction: Direction;
  skip: number;
  take: number;
}

/** The window of rows (offset, limit) of `total` rows, from whichever end is nearer; undefined past the end. */
export function pageWindow(total: number, offset: number, limit: number): PageWindow | undefined {
  if (offset >= total) return undefined;
  const take = Math.min(limit, total - offset);
  const fromEnd = total - offset - take;
  return fromEnd < offset ? { direction: 'DESC', skip: fromEnd, take } : { direction: 'ASC', skip: offset, take };
}

const CURSOR = 'report_rows';

export function recipientPageRepository(db: Sql) {
  return {
    /** The campaign and the totals of `filters` (the address aside), read on `sql` (the page's snapshot). */
    async scope(sql: Sql, campaignId: number, filters: EmailPerformanceFilters): Promise<ReportScope | undefined> {
      const params: unknown[] = [campaignId];
      const { rows } = await sql.query<Omit<ReportScope, 'campaignId'>>(
        `SELECT c.status, a.id AS "audienceId",
                coalesce(a.number_of_contacts - a.number_of_contacts_with_errors, 0) AS "validContacts",
                c.follow_up_recipients IS NOT NULL AS "followUp", coalesce(c.follow_up_count, 0) AS recipients,
                k.jobs, k.matching AS "matchingJobs", k."jobsVersion",
                (SELECT count(*)::int FROM campaign_jobs e WHERE e.campaign_id = c.id AND ${erasedMail('e.email')}) AS "erasedJobs"
           FROM campaigns c
           LEFT JOIN audiences a ON a.id = c.audience_id AND a.deleted_at IS NULL
          CROSS JOIN LATERAL (
                SELECT coalesce(sum(jobs), 0)::bigint AS jobs,
                       coalesce(sum(jobs) FILTER (WHERE ${countConditions(filters, params)}), 0)::bigint AS matching,
                       coalesce(string_agg(xmin::text || ':' || jobs, ',' ORDER BY status, bounce_type, opened, clicked, human_opened, human_clicked), '') AS "jobsVersion"
                  FROM campaign_job_counts WHERE campaign_id = c.id) k
          WHERE c.id = $1`,
        params,
      );
      return rows[0] && { campaignId, ...rows[0] };
    },

    /**
     * How many rows `filters` select without the address (undefined: only the search knows). NOT_SENT:
     * the campaign's contacts (the audience's valid ones, or a follow-up's recipients) less the
     * campaign's jobs (every job is one of those contacts).
     */
    total(scope: ReportScope, filters: EmailPerformanceFilters): number | undefined {
      if (filters.email) return undefined;
      if (!notSent(filters)) return scope.matchingJobs;
      if (scope.audienceId === null || !notSentCanMatch(filters)) return 0;
      return Math.max(0, scope.followUp ? scope.recipients - scope.jobs : scope.validContacts - (scope.jobs - scope.erasedJobs));
    },

    /** Rows of a window (see pageWindow), in display order. */
    async rows(sql: Sql, scope: ReportScope, filters: EmailPerformanceFilters, window: PageWindow): Promise<EmailPerformanceRow[]> {
      const query = orderedRows(scope, filters, window.direction);
      if (!query) return [];
      const { params } = query;
      const { rows } = await sql.query<RowRecord>(
        `${query.text} OFFSET $${params.push(window.skip)} LIMIT $${params.push(window.take)}`,
        params,
      );
      if (window.direction === 'DESC') rows.reverse();
      return withSuppressions(sql, rows.map(toRow));
    },

    /**
     * Every row of `filters` from `offset` on (at most `limit`), in display order, `batch` rows at a
     * time through a cursor of the transaction: memory holds one batch whatever the number of rows.
     */
    async *batches(tx: Tx, scope: ReportScope, filters: EmailPerformanceFilters, batch: number, offset = 0, limit?: number) {
      const query = filters.email ? searchedRows(scope, filters) : orderedRows(scope, filters, 'ASC');
      if (!query) return;
      const { params } = query;
      const { text } = query;
      const window = `OFFSET $${params.push(offset)}${limit === undefined ? '' : ` LIMIT $${params.push(limit)}`}`;
      await tx.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${text} ${window}`, params);
      const fetch = () => tx.query<RowRecord>(`FETCH ${Number(batch)} FROM ${CURSOR}`);
      // PostgreSQL reads the next batch while the caller works on this one. Only one FETCH is ever
      // ahead, asked while the caller still wanted rows.
      let next = fetch();
      try {
        for (;;) {
          const { rows } = await next;
          if (rows.length === 0) return;
          next = fetch();
          // On a pooled connection, alongside the FETCH ahead (the transaction's connection is busy with it).
          yield await withSuppressions(db, rows.map(toRow));
        }
      } finally {
        // The caller stopped early: the FETCH ahead settles unread.
        next.catch(() => undefined);
      }
    },
  };
}

export type RecipientPageRepository = ReturnType<typeof recipientPageRepository>;
