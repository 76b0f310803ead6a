/**
 * The statements of a campaign's report, fast at a million jobs (migration 0006 has the indexes and
 * counts they read). Raw SQL: paging from either end, anti-joins and cursors are what it is about.
 *
 * - A campaign's contacts are its audience's valid contacts, in file order (valid_seq), or, for a
 *   follow-up (an addition to the spec), its frozen recipients in their order (follow_up_recipients.seq,
 *   dense from 1 like valid_seq): NOT_SENT is those without a job (contactSource). Every job of a
 *   campaign is one of its contacts, since every dispatch creates jobs only from them.
 * - Totals never count rows: a job filter's total is a sum over campaign_job_counts (kept by
 *   triggers, so it agrees with the rows of the same snapshot); NOT_SENT's is the campaign's contacts
 *   (the audience's valid ones, or the follow-up's recipient count) less the campaign's jobs. Each
 *   page is read in one REPEATABLE READ snapshot.
 * - A page is read from the nearer end of the index its filter uses (the last page scans the index
 *   backwards and is reversed), so the first and the last page cost about a page of index entries;
 *   a page in the middle skips up to half of the matching rows.
 * - NOT_SENT walks the campaign's contacts in their order with an anti-join on the campaign's jobs:
 *   its cost grows with the contacts that do have a job between the nearer end and the page.
 * - The email filter (a case-insensitive substring) is exact whatever the number of matches: the
 *   search's matching jobs (or, for NOT_SENT, matching contacts without a job) are read once into a
 *   SearchIndex (search-index.ts; the service keeps it while the campaign's jobs stay as they were),
 *   whose state bytes give the count of every filter combination and the page's keys; the page's rows
 *   are then read by key (a NOT_SENT row's key is its number: valid_seq or seq). Jobs in job order,
 *   as without the address; NOT_SENT in the contacts' order. Rare
 *   terms are found with the contacts' trigram index, frequent ones with one pass over the campaign's
 *   jobs (jobs keep their contact's address). The export and the streamed large pages read every
 *   match through a cursor instead.
 * - A NOT_SENT row whose address is suppressed says why (suppressionReason): looked up for the rows
 *   of a page or a batch once they are read (withSuppressions), never for the rows a page skips.
 */
import type { BounceType, CampaignLink, EmailPerformanceRow, MachineReason, SendStatus, SuppressionReason } from '@mailroom/api-client';
import { MACHINE_REASON_LABELS } from '@mailroom/api-client/labels';
import type { Sql, Tx } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
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

export type { EmailPerformanceRow };

/**
 * Matching contacts up to which a search is read through the contacts' trigram index (then their
 * jobs by contact); beyond, one pass over the campaign's jobs costs less than a lookup per match.
 */
export const TRIGRAM_PROBE = 5000;

export interface EmailPerformanceFilters {
  /** Trimmed; absent or empty means no filter. */
  email?: string | undefined;
  sendStatus?: SendStatus | undefined;
  bounceStatus?: BounceType | undefined;
  clicked?: boolean | undefined;
  opened?: boolean | undefined;
  /** An addition to the spec: a person clicked (true) or did not (false: not clicked, or by machines only). */
  humanClicked?: boolean | undefined;
  humanOpened?: boolean | undefined;
}

/** The campaign as its report needs it, with the totals its filters read. */
export interface ReportScope {
  campaignId: number;
  status: CampaignStatus;
  /** The live audience (not deleted), if any. */
  audienceId: number | null;
  /** Valid contacts of the live audience. */
  validContacts: number;
  /** A follow-up (an addition to the spec): its contacts are its frozen recipients, `recipients` of them. */
  followUp: boolean;
  recipients: number;
  /** Jobs of the campaign, and those matching the filters but the address. */
  jobs: number;
  matchingJobs: number;
  /**
   * Changes whenever a job of the campaign is created or changes a state the filters read: the
   * versions (xmin) of its campaign_job_counts rows, which the triggers rewrite in the same
   * transaction as the jobs.
   */
  jobsVersion: string;
}

/** Rows in order from one end of their index. */
export type Direction = 'ASC' | 'DESC';

interface Query {
  text: string;
  params: unknown[];
}

interface RowRecord {
  id: number | null;
  contactId: number;
  email: string;
  status: SendStatus;
  clicked: boolean;
  opened: boolean;
  humanClicked: boolean;
  humanOpened: boolean;
  /** Sets of reasons (reasonsOf). */
  openEvidence: number;
  clickEvidence: number;
  bounceType: BounceType | null;
  bounceMessage: string | null;
  bounceTime: Date | null;
  complaintType: string | null;
  complaintTime: Date | null;
  errorMessage: string | null;
}

/** The contract's order of the reasons (each kind once). */
const REASON_ORDER = Object.keys(MACHINE_REASON_LABELS) as MachineReason[];

/** A set of reasons as a number: bit k for the contract's k-th reason (the reasons are the code's own words). */
const REASON_BITS = `CASE e.machine_reason ${REASON_ORDER.map((reason, k) => `WHEN '${reason}' THEN ${1 << k}`).join(' ')} ELSE 0 END`;
const reasonsOf = (bits: number): MachineReason[] => REASON_ORDER.filter((_, k) => (bits & (1 << k)) !== 0);

/**
 * Why only machines opened or clicked (an addition to the spec): the reasons stored with the job's
 * machine hits, read only for a row that shows 'Yes (machine)' (a few index entries of its hits), so
 * rows of people cost nothing more; a set of bits, not an array, so a row carries one small number
 * (an export reads a million rows). The hidden link's own hit is neither an open nor a click; the
 * hits it gave away carry its reason.
 */
const MACHINE_EVIDENCE = `CASE WHEN j.opened_at IS NOT NULL AND j.human_opened_at IS NULL THEN (
    SELECT coalesce(bit_or(${REASON_BITS}), 0) FROM tracking_events e LEFT JOIN campaign_links l ON l.id = e.link_id
     WHERE e.job_id = j.id AND e.machine AND NOT coalesce(l.hidden, false))
  ELSE 0 END AS "openEvidence",
  CASE WHEN j.clicked_at IS NOT NULL AND j.human_clicked_at IS NULL THEN (
    SELECT coalesce(bit_or(${REASON_BITS}), 0) FROM tracking_events e JOIN campaign_links l ON l.id = e.link_id AND NOT l.hidden
     WHERE e.job_id = j.id AND e.kind = 'CLICK' AND e.machine)
  ELSE 0 END AS "clickEvidence"`;

const JOB_COLUMNS = `j.id, j.contact_id AS "contactId", j.email, j.status, j.clicked_at IS NOT NULL AS clicked,
  j.opened_at IS NOT NULL AS opened, j.human_clicked_at IS NOT NULL AS "humanClicked",
  j.human_opened_at IS NOT NULL AS "humanOpened", j.bounce_type AS "bounceType", j.bounce_message AS "bounceMessage",
  j.bounce_time AS "bounceTime", j.complaint_type AS "complaintType", j.complaint_time AS "complaintTime",
  j.error_message AS "errorMessage", ${MACHINE_EVIDENCE}`;

const NOT_SENT_COLUMNS = `NULL::bigint AS id, c.id AS "contactId", c.email, 'NOT_SENT' AS status, false AS clicked,
  false AS opened, false AS "humanClicked", false AS "humanOpened", NULL::text AS "bounceType", NULL::text AS "bounceMessage", NULL::timestamptz AS "bounceTime",
  NULL::text AS "complaintType", NULL::timestamptz AS "complaintTime", NULL::text AS "errorMessage",
  0 AS "openEvidence", 0 AS "clickEvidence"`;

/** A row as read; suppressionReason is filled by withSuppressions. */
export const toRow = (r: RowRecord): EmailPerformanceRow => ({
  id: r.id,
  contactId: r.contactId,
  email: r.email,
  status: r.status,
  clicked: r.clicked,
  opened: r.opened,
  bounceType: r.bounceType,
  bounceMessage: r.bounceMessage,
  bounceTime: r.bounceTime?.toISOString() ?? null,
  complaintType: r.complaintType,
  complaintTime: r.complaintTime?.toISOString() ?? null,
  errorMessage: r.errorMessage,
  suppressionReason: null,
  humanOpened: r.humanOpened,
  humanClicked: r.humanClicked,
  openEvidence: reasonsOf(r.openEvidence),
  clickEvidence: reasonsOf(r.clickEvidence),
});

/**
 * Marks the NOT_SENT rows whose address is suppressed with the reason, in one lookup by the
 * suppressions' key (address_key(email), migration 0020, as sending compares them).
 */
async function withSuppressions(sql: Sql, rows: EmailPerformanceRow[]): Promise<EmailPerformanceRow[]> {
  const emails = [...new Set(rows.filter((row) => row.status === 'NOT_SENT' && row.email !== null).map((row) => row.email!))];
  if (emails.length === 0) return rows;
  const { rows: found } = await sql.query<{ email: string; reason: SuppressionReason }>(
    `SELECT e.email, s.reason FROM unnest($1::text[]) AS e(email) JOIN suppressions s ON s.email_lower = address_key(e.email)`,
    [emails],
  );
  if (found.length === 0) return rows;
  const reasons = new Map(found.map((row) => [row.email, row.reason]));
  return rows.map((row) =>
    row.status === 'NOT_SENT' && row.email !== null && reasons.has(row.email)
      ? { ...row, suppressionReason: reasons.get(row.email)! }
      : row,
  );
}

const notSent = (filters: EmailPerformanceFilters) => filters.sendStatus === 'NOT_SENT';

/** Where NOT_SENT reads the campaign's contacts (alias c) and their numbers in display order. */
interface ContactSource {
  /** FROM and WHERE (to be continued with AND) of the contacts; `owner` is the placeholder of ownerOf(scope). */
  from: (owner: string) => string;
  /** A contact's number: dense from 1, in display order. */
  seq: string;
}

const AUDIENCE_CONTACTS: ContactSource = {
  from: (owner) => `contacts c WHERE c.audience_id = ${owner} AND c.valid_seq IS NOT NULL`,
  seq: 'c.valid_seq',
};

/**
 * A follow-up's recipients, frozen when it was made (contacts are never changed, only purged once
 * their audience is deleted, when the report has no audience and so no NOT_SENT rows).
 */
const FOLLOW_UP_RECIPIENTS: ContactSource = {
  from: (owner) => `follow_up_recipients r JOIN contacts c ON c.id = r.contact_id WHERE r.campaign_id = ${owner}`,
  seq: 'r.seq',
};

const contactSource = (scope: ReportScope): ContactSource => (scope.followUp ? FOLLOW_UP_RECIPIENTS : AUDIENCE_CONTACTS);
/** The value of a contact source's `owner`: the follow-up, or the audience. */
const ownerOf = (scope: ReportScope): number => (scope.followUp ? scope.campaignId : scope.audienceId!);

/** A contact without a job has no bounce, no open and no click. */
const notSentCanMatch = (filters: EmailPerformanceFilters) =>
  !filters.bounceStatus &&
  filters.clicked !== true &&
  filters.opened !== true &&
  filters.humanClicked !== true &&
  filters.humanOpened !== true;

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

/** The conditions on a job (alias j) of every filter but the address; `params` grows with their values. */
function jobConditions(filters: EmailPerformanceFilters, params: unknown[]): string {
  const where: string[] = [];
  if (filters.sendStatus) where.push(`j.status = $${params.push(filters.sendStatus)}`);
  if (filters.bounceStatus) where.push(`j.bounce_type = $${params.push(filters.bounceStatus)}`);
  if (filters.clicked !== undefined) where.push(`j.clicked_at IS ${filters.clicked ? 'NOT ' : ''}NULL`);
  if (filters.opened !== undefined) where.push(`j.opened_at IS ${filters.opened ? 'NOT ' : ''}NULL`);
  if (filters.humanClicked !== undefined) where.push(`j.human_clicked_at IS ${filters.humanClicked ? 'NOT ' : ''}NULL`);
  if (filters.humanOpened !== undefined) where.push(`j.human_opened_at IS ${filters.humanOpened ? 'NOT ' : ''}NULL`);
  return where.map((condition) => ` AND ${condition}`).join('');
}

/** The same conditions on campaign_job_counts. */
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

const CURSOR = 'report_rows';

export function reportRepository(db: Sql) {
  return {
    /** The campaign and the totals of `filters` (the address aside), read on `sql` (the page's snapshot). */
    async scope(sql: Sql, campaignId: number, filters: EmailPerformanceFilters): Promise<ReportScope | undefined> {
      const params: unknown[] = [campaignId];
      const { rows } = await sql.query<Omit<ReportScope, 'campaignId'>>(
        `SELECT c.status, a.id AS "audienceId",
                coalesce(a.number_of_contacts - a.number_of_contacts_with_errors, 0) AS "validContacts",
                c.follow_up_recipients IS NOT NULL AS "followUp", coalesce(c.follow_up_count, 0) AS recipients,
                k.jobs, k.matching AS "matchingJobs", k."jobsVersion"
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
      return Math.max(0, (scope.followUp ? scope.recipients : scope.validContacts) - scope.jobs);
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
     * An email search's exact total and the rows of one window of it (offset, limit), read through
     * its search index, which `cache` keeps for the next pages while the campaign's jobs stay as
     * they were (the key holds their version, read in this snapshot).
     */
    async searchPage(sql: Sql, scope: ReportScope, filters: EmailPerformanceFilters, offset: number, limit: number, cache: SearchCache) {
      const search = await searchOf(sql, scope, filters, cache);
      if (!search) return { items: [], totalItems: 0 };
      const keys = pageOf(search.index, search.filter, offset, limit);
      return { items: await withSuppressions(sql, await search.rows(keys)), totalItems: countOf(search.index, search.filter) };
    },

    /** An email search's exact total (see searchPage). */
    async searchTotal(sql: Sql, scope: ReportScope, filters: EmailPerformanceFilters, cache: SearchCache): Promise<number> {
      const search = await searchOf(sql, scope, filters, cache);
      return search ? countOf(search.index, search.filter) : 0;
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

    /**
     * The campaign's links in the order of the html (the hidden link is no link of the spec's), with
     * people's clicks beside the spec's counts (an addition; kept by migration 0020's triggers).
     */
    async links(campaignId: number): Promise<CampaignLink[]> {
      const { rows } = await db.query<CampaignLink>(
        `SELECT l.id, l.href, l.clicks, l.unique_clicks AS "uniqueClicks", coalesce(k.human_clicks, 0) AS "humanClicks",
                coalesce(k.human_unique_clicks, 0) AS "humanUniqueClicks"
           FROM campaign_links l LEFT JOIN campaign_link_counts k ON k.link_id = l.id
          WHERE l.campaign_id = $1 AND NOT l.hidden ORDER BY l.position`,
        [campaignId],
      );
      return rows;
    },

    /** The campaign's status, its live audience (not deleted), if any, and whether it is a follow-up. */
    async campaignStatus(
      campaignId: number,
    ): Promise<{ status: CampaignStatus; audienceId: number | null; name: string; followUp: boolean } | undefined> {
      const { rows } = await db.query<{ status: CampaignStatus; audienceId: number | null; name: string; followUp: boolean }>(
        `SELECT c.status, a.id AS "audienceId", c.name, c.follow_up_recipients IS NOT NULL AS "followUp" FROM campaigns c
           LEFT JOIN audiences a ON a.id = c.audience_id AND a.deleted_at IS NULL
          WHERE c.id = $1`,
        [campaignId],
      );
      return rows[0];
    },

    async jobStatus(campaignId: number, jobId: number): Promise<string | undefined> {
      const { rows } = await db.query<{ status: string }>('SELECT status FROM campaign_jobs WHERE id = $1 AND campaign_id = $2', [
        jobId,
        campaignId,
      ]);
      return rows[0]?.status;
    },

    /**
     * A contact of the audience as "send to contact" sees it; undefined when it is not one of the
     * audience's. `recipient`: one of the follow-up's recipients (`followUp`), or true for a campaign
     * that is none. The follow-up's recipients are read in one pass over its own (its key starts
     * with the campaign, not the contact): an action of one row.
     */
    async contactForSend(campaignId: number, audienceId: number, contactId: number, followUp: boolean) {
      const { rows } = await db.query<{ valid: boolean; suppressed: boolean; hasJob: boolean; recipient: boolean }>(
        `SELECT c.error_message IS NULL AS valid,
                EXISTS (SELECT 1 FROM suppressions s WHERE s.email_lower = address_key(c.email)) AS suppressed,
                EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $1 AND j.contact_id = c.id) AS "hasJob",
                NOT $4::boolean OR EXISTS (SELECT 1 FROM follow_up_recipients r WHERE r.campaign_id = $1 AND r.contact_id = c.id) AS recipient
           FROM contacts c WHERE c.id = $3 AND c.audience_id = $2`,
        [campaignId, audienceId, contactId, followUp],
      );
      return rows[0];
    },
  };
}

export type ReportRepository = ReturnType<typeof reportRepository>;
