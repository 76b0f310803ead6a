/**
 * An email performance row (one a recipient of a campaign's report) as every read of the rows takes
 * it: its columns, the campaign's contacts it comes from, the conditions of the filters but the
 * address, and the suppressions of its NOT_SENT rows. The pages and the export read the rows in
 * recipient-page-repository.ts, the email search in recipient-search-repository.ts.
 *
 * - A campaign's contacts are its audience's valid contacts, in file order (valid_seq), or, for a
 *   follow-up (an addition to the spec), its frozen recipients in their order (follow_up_recipients.seq,
 *   dense from 1 like valid_seq): NOT_SENT is those without a job (contactSource). Every job of a
 *   campaign is one of its contacts, since every dispatch creates jobs only from them.
 * - A NOT_SENT row whose address is suppressed says why (suppressionReason): looked up for the rows
 *   of a page or a batch once they are read (withSuppressions), never for the rows a page skips.
 */
import type { BounceType, EmailPerformanceRow, MachineReason, SendStatus, SuppressionReason } from '@mailroom/api-client';
import { MACHINE_REASON_LABELS } from '@mailroom/api-client/labels';
import type { Sql } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import { suppressionReasonOf } from '../suppressions/erased.js';

export type { EmailPerformanceRow };

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
  /** Jobs to an erased address (migration 0022): their contact is not among the valid contacts any more. */
  erasedJobs: number;
  matchingJobs: number;
  /**
   * Changes whenever a job of the campaign is created or changes a state the filters read: the
   * versions (xmin) of its campaign_job_counts rows, which the triggers rewrite in the same
   * transaction as the jobs.
   */
  jobsVersion: string;
}

/** A row as the statements read it (toRow makes it the contract's). */
export interface RowRecord {
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

export const JOB_COLUMNS = `j.id, j.contact_id AS "contactId", j.email, j.status, j.clicked_at IS NOT NULL AS clicked,
  j.opened_at IS NOT NULL AS opened, j.human_clicked_at IS NOT NULL AS "humanClicked",
  j.human_opened_at IS NOT NULL AS "humanOpened", j.bounce_type AS "bounceType", j.bounce_message AS "bounceMessage",
  j.bounce_time AS "bounceTime", j.complaint_type AS "complaintType", j.complaint_time AS "complaintTime",
  j.error_message AS "errorMessage", ${MACHINE_EVIDENCE}`;

export const NOT_SENT_COLUMNS = `NULL::bigint AS id, c.id AS "contactId", c.email, 'NOT_SENT' AS status, false AS clicked,
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
 * Marks the NOT_SENT rows whose address is suppressed with the reason, and those whose contact left the
 * audience (issue 25, contacts.unsubscribed_at), in one lookup by the suppressions' key (address_key(email),
 * migration 0020, as sending compares them) and the contact's id.
 */
export async function withSuppressions(sql: Sql, rows: EmailPerformanceRow[]): Promise<EmailPerformanceRow[]> {
  const notSentRows = rows.filter((row) => row.status === 'NOT_SENT' && row.email !== null);
  if (notSentRows.length === 0) return rows;
  const { rows: found } = await sql.query<{ email: string; contactId: number | null; reason: SuppressionReason | null; left: boolean }>(
    `SELECT email, "contactId", reason, "left" FROM (
       SELECT e.email, e.contact_id AS "contactId", ${suppressionReasonOf('e.email')} AS reason,
              coalesce((SELECT c.unsubscribed_at IS NOT NULL FROM contacts c WHERE c.id = e.contact_id), false) AS "left"
         FROM unnest($1::text[], $2::bigint[]) AS e(email, contact_id)) f
      WHERE reason IS NOT NULL OR "left"`,
    [notSentRows.map((row) => row.email), notSentRows.map((row) => row.contactId)],
  );
  if (found.length === 0) return rows;
  const reasons = new Map(found.filter((row) => row.reason !== null).map((row) => [row.email, row.reason!]));
  const left = new Set(found.filter((row) => row.left).map((row) => row.contactId));
  return rows.map((row) => {
    if (row.status !== 'NOT_SENT' || row.email === null) return row;
    const reason = reasons.get(row.email);
    const leftAudience = row.contactId !== null && left.has(row.contactId);
    return reason || leftAudience
      ? { ...row, ...(reason ? { suppressionReason: reason } : {}), ...(leftAudience ? { leftAudience } : {}) }
      : row;
  });
}

/** The NOT_SENT filter reads contacts without a job, every other filter the jobs. */
export const notSent = (filters: EmailPerformanceFilters) => filters.sendStatus === 'NOT_SENT';

/** Where NOT_SENT reads the campaign's contacts (alias c) and their numbers in display order. */
export interface ContactSource {
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

/** Where the campaign's NOT_SENT rows come from. */
export const contactSource = (scope: ReportScope): ContactSource => (scope.followUp ? FOLLOW_UP_RECIPIENTS : AUDIENCE_CONTACTS);
/** The value of a contact source's `owner`: the follow-up, or the audience. */
export const ownerOf = (scope: ReportScope): number => (scope.followUp ? scope.campaignId : scope.audienceId!);

/** A contact without a job has no bounce, no open and no click. */
export const notSentCanMatch = (filters: EmailPerformanceFilters) =>
  !filters.bounceStatus &&
  filters.clicked !== true &&
  filters.opened !== true &&
  filters.humanClicked !== true &&
  filters.humanOpened !== true;

/** The conditions on a job (alias j) of every filter but the address; `params` grows with their values. */
export function jobConditions(filters: EmailPerformanceFilters, params: unknown[]): string {
  const where: string[] = [];
  if (filters.sendStatus) where.push(`j.status = $${params.push(filters.sendStatus)}`);
  if (filters.bounceStatus) where.push(`j.bounce_type = $${params.push(filters.bounceStatus)}`);
  if (filters.clicked !== undefined) where.push(`j.clicked_at IS ${filters.clicked ? 'NOT ' : ''}NULL`);
  if (filters.opened !== undefined) where.push(`j.opened_at IS ${filters.opened ? 'NOT ' : ''}NULL`);
  if (filters.humanClicked !== undefined) where.push(`j.human_clicked_at IS ${filters.humanClicked ? 'NOT ' : ''}NULL`);
  if (filters.humanOpened !== undefined) where.push(`j.human_opened_at IS ${filters.humanOpened ? 'NOT ' : ''}NULL`);
  return where.map((condition) => ` AND ${condition}`).join('');
}
