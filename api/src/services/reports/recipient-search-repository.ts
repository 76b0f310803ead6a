/**
 * The email filter of a campaign's report (a case-insensitive substring), exact whatever the number
 * of matches: the search's matching jobs (or, for NOT_SENT, matching contacts without a job) are
 * read once into a SearchIndex (search-index.ts; the service keeps it while the campaign's jobs stay
 * as they were), whose state bytes give the count of every filter combination and the page's keys;
 * the page's rows are then read by key (a NOT_SENT row's key is its number: valid_seq or seq). Jobs
 * in job order, as without the address; NOT_SENT in the contacts' order. Rare terms are found with
 * the contacts' trigram index, frequent ones with one pass over the campaign's jobs (jobs keep their
 * contact's address). The export and the streamed large pages read every match through a cursor
 * instead (recipient-page-repository.ts).
 */
import type { Sql } from '../../db/database.js';
import { likeContains } from '../contacts/repository.js';
import {
  countOf,
  pageOf,
  searchIndexOf,
  stateFilter,
  STATES,
  termKey,
  type SearchCache,
  type SearchIndex,
  type StateFilter,
} from '../search-index.js';
import {
  contactSource,
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

/**
 * Matching contacts up to which a search is read through the contacts' trigram index (then their
 * jobs by contact); beyond, one pass over the campaign's jobs costs less than a lookup per match.
 */
export const TRIGRAM_PROBE = 5000;

/** The job states a search index records, in the order of their codes (status: state % 8). */
const JOB_STATUSES = ['QUEUED', 'SENDING', 'SENT_WAIT_ACK', 'SENT_SUCCESS', 'FAILED', 'UNKNOWN'] as const;
/** A status this code does not know yet: no status filter keeps it. */
const OTHER_STATUS = 7;
/**
 * A job's state is a number in mixed radix, below 216 (one byte): status (8 values), bounce (none,
 * hard, soft), open and click (none, by machines only, by a person: an addition to the spec). Its
 * parts are read back by division, so any combination stays exact, whatever the order hits came in.
 */
const BOUNCE = 8;
const OPEN = 24;
const CLICK = 72;
const HARD = 1;
const SOFT = 2;
const MACHINES = 1;
const PERSON = 2;

/** A job's state byte (see BOUNCE). $1 is JOB_STATUSES. */
const JOB_STATE = `coalesce(array_position($1::text[], j.status) - 1, ${OTHER_STATUS})
  + ${BOUNCE} * CASE j.bounce_type WHEN 'HARD' THEN ${HARD} WHEN 'SOFT' THEN ${SOFT} ELSE 0 END
  + ${OPEN} * CASE WHEN j.human_opened_at IS NOT NULL THEN ${PERSON} WHEN j.opened_at IS NOT NULL THEN ${MACHINES} ELSE 0 END
  + ${CLICK} * CASE WHEN j.human_clicked_at IS NOT NULL THEN ${PERSON} WHEN j.clicked_at IS NOT NULL THEN ${MACHINES} ELSE 0 END`;

/** Whether an open or click part of a state (0, MACHINES, PERSON) passes the filters on it. */
const hitPasses = (part: number, any: boolean | undefined, person: boolean | undefined) =>
  (any === undefined || (part !== 0) === any) && (person === undefined || (part === PERSON) === person);

/** The index row of a job (see search-index.ts): its id and its state. */
const JOB_INDEX_ROW = `int8send(j.id * ${STATES} + ${JOB_STATE})`;

/** Which job states the filters but the address keep. */
export function jobStateFilter(filters: EmailPerformanceFilters): StateFilter {
  const status = filters.sendStatus === undefined ? undefined : JOB_STATUSES.indexOf(filters.sendStatus as (typeof JOB_STATUSES)[number]);
  const bounce = filters.bounceStatus === 'HARD' ? HARD : filters.bounceStatus === 'SOFT' ? SOFT : undefined;
  return stateFilter(
    (state) =>
      (status === undefined || state % BOUNCE === status) &&
      (bounce === undefined || Math.floor(state / BOUNCE) % 3 === bounce) &&
      hitPasses(Math.floor(state / OPEN) % 3, filters.opened, filters.humanOpened) &&
      hitPasses(Math.floor(state / CLICK) % 3, filters.clicked, filters.humanClicked),
  );
}

/**
 * The search index of an email search's jobs (search-index.ts): every job of the campaign whose
 * address contains `term`, in job order, with its state (jobStateFilter reads it).
 */
async function jobSearchIndex(sql: Sql, scope: ReportScope, term: string): Promise<SearchIndex> {
  if (scope.audienceId !== null) {
    // A rare term: its few contacts come from the trigram index, their jobs by contact.
    const { rows: contacts } = await sql.query<{ id: number }>(
      `SELECT id FROM contacts WHERE audience_id = $1 AND valid_seq IS NOT NULL AND address_key(email) LIKE address_key($2) LIMIT ${TRIGRAM_PROBE + 1}`,
      [scope.audienceId, likeContains(term)],
    );
    if (contacts.length <= TRIGRAM_PROBE) {
      const { rows } = await sql.query<{ bytes: Buffer | null }>(
        `SELECT string_agg(${JOB_INDEX_ROW}, ''::bytea) AS bytes FROM campaign_jobs j
          WHERE j.campaign_id = $2 AND j.contact_id = ANY($3::bigint[])`,
        [JOB_STATUSES, scope.campaignId, contacts.map((c) => c.id)],
      );
      return searchIndexOf(rows[0]!.bytes);
    }
  }
  const { rows } = await sql.query<{ bytes: Buffer | null }>(
    `SELECT string_agg(${JOB_INDEX_ROW}, ''::bytea) AS bytes FROM campaign_jobs j
      WHERE j.campaign_id = ANY($2::bigint[]) AND strpos(address_key(j.email), address_key($3)) > 0`,
    [JOB_STATUSES, [scope.campaignId], term],
  );
  return searchIndexOf(rows[0]!.bytes);
}

/** The search index of the campaign's contacts without a job whose address contains `term`, keyed by their numbers. */
async function notSentSearchIndex(sql: Sql, scope: ReportScope, term: string): Promise<SearchIndex> {
  if (scope.audienceId === null) return searchIndexOf(null);
  const source = contactSource(scope);
  const { rows } = await sql.query<{ bytes: Buffer | null }>(
    `SELECT string_agg(int8send(${source.seq}::bigint * ${STATES}), ''::bytea) AS bytes
       FROM ${source.from('$1')} AND address_key(c.email) LIKE address_key($2)
        AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $3 AND j.contact_id = c.id)`,
    [ownerOf(scope), likeContains(term), scope.campaignId],
  );
  return searchIndexOf(rows[0]!.bytes);
}

/** The campaign's jobs of these ids, in job order. */
async function jobsById(sql: Sql, scope: ReportScope, ids: number[]): Promise<EmailPerformanceRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<RowRecord>(
    `SELECT ${JOB_COLUMNS} FROM campaign_jobs j WHERE j.id = ANY($1::bigint[]) AND j.campaign_id = $2 ORDER BY j.id`,
    [ids, scope.campaignId],
  );
  return rows.map(toRow);
}

/** The campaign's contacts of these numbers (valid_seq, or a follow-up's seq) as NOT_SENT rows, in their order. */
async function notSentBySeq(sql: Sql, scope: ReportScope, seqs: number[]): Promise<EmailPerformanceRow[]> {
  if (seqs.length === 0 || scope.audienceId === null) return [];
  const source = contactSource(scope);
  const { rows } = await sql.query<RowRecord>(
    `SELECT ${NOT_SENT_COLUMNS} FROM ${source.from('$1')} AND ${source.seq} = ANY($2::int[]) ORDER BY ${source.seq}`,
    [ownerOf(scope), seqs],
  );
  return rows.map(toRow);
}

/** Every state of a NOT_SENT index (it has one). */
const ANY_STATE = stateFilter(() => true);

/** An email search's index, the states `filters` keep, and how to read rows by key; undefined when nothing can match. */
async function searchOf(sql: Sql, scope: ReportScope, filters: EmailPerformanceFilters, cache: SearchCache) {
  const term = filters.email!;
  const key = `${scope.campaignId}|${scope.audienceId}|${scope.jobsVersion}|${termKey(term)}`;
  if (notSent(filters)) {
    if (scope.audienceId === null || !notSentCanMatch(filters)) return undefined;
    return {
      index: await cache.get(`not-sent|${key}`, () => notSentSearchIndex(sql, scope, term)),
      filter: ANY_STATE,
      rows: (seqs: number[]) => notSentBySeq(sql, scope, seqs),
    };
  }
  return {
    index: await cache.get(`jobs|${key}`, () => jobSearchIndex(sql, scope, term)),
    filter: jobStateFilter(filters),
    rows: (ids: number[]) => jobsById(sql, scope, ids),
  };
}

export function recipientSearchRepository() {
  return {
    /**
     * An email search's exact total and the rows of one window of it (offset, limit), read through
     * its search index, which `cache` keeps for the next pages while the campaign's jobs stay as
     * they were (the key holds their version, read in this snapshot).
     */
    async page(sql: Sql, scope: ReportScope, filters: EmailPerformanceFilters, offset: number, limit: number, cache: SearchCache) {
      const search = await searchOf(sql, scope, filters, cache);
      if (!search) return { items: [], totalItems: 0 };
      const keys = pageOf(search.index, search.filter, offset, limit);
      return { items: await withSuppressions(sql, await search.rows(keys)), totalItems: countOf(search.index, search.filter) };
    },

    /** An email search's exact total (see page). */
    async total(sql: Sql, scope: ReportScope, filters: EmailPerformanceFilters, cache: SearchCache): Promise<number> {
      const search = await searchOf(sql, scope, filters, cache);
      return search ? countOf(search.index, search.filter) : 0;
    },
  };
}

export type RecipientSearchRepository = ReturnType<typeof recipientSearchRepository>;
