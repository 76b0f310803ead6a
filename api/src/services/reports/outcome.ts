/**
 * The report's overview rules that need no database (an addition to the spec): how the hourly
 * aggregates become the timeline's buckets, and when a recipient domain is flagged. README.md,
 * "Report overview", says the same in words.
 */
import type { ReportDomain, ReportTimelineBucket } from '@mailroom/api-client';

const HOUR_MS = 3_600_000;
/** The timeline is hourly for the first 72 hours after sending started, then daily. */
export const HOURLY_BUCKETS = 72;
const DAY_HOURS = 24;
/** The contract's bound on the buckets of one answer (72 hours and about five years and three months of days). */
export const MAX_BUCKETS = 2000;

/** A domain's counts before it is flagged. */
export type DomainCounts = Omit<ReportDomain, 'flagged'>;

/** One row of campaign_hourly_counts. */
export interface HourCounts {
  hour: Date;
  sent: number;
  opensHuman: number;
  opensMachine: number;
  clicksHuman: number;
  clicksMachine: number;
}

/** The bucket an hour falls in, counted from the hour sending started (hours before it fall in the first). */
function bucketOf(firstHourMs: number, hourMs: number): number {
  const hours = Math.max(0, Math.floor((hourMs - firstHourMs) / HOUR_MS));
  return hours < HOURLY_BUCKETS ? hours : HOURLY_BUCKETS + Math.floor((hours - HOURLY_BUCKETS) / DAY_HOURS);
}

function bucketStart(firstHourMs: number, bucket: number): number {
  return bucket < HOURLY_BUCKETS
    ? firstHourMs + bucket * HOUR_MS
    : firstHourMs + (HOURLY_BUCKETS + (bucket - HOURLY_BUCKETS) * DAY_HOURS) * HOUR_MS;
}

/**
 * The buckets from the hour sending started (UTC hours, as the aggregates are kept) through the last
 * one holding any count, empty ones included so the time axis has no gaps; none before sending.
 * Counts after MAX_BUCKETS buckets (over five years on) are left out.
 */
export function timelineBuckets(sendingStartedAt: Date | null, hours: readonly HourCounts[]): ReportTimelineBucket[] {
  if (sendingStartedAt === null) return [];
  const first = Math.floor(sendingStartedAt.getTime() / HOUR_MS) * HOUR_MS;
  const last = hours.reduce((max, row) => Math.max(max, bucketOf(first, row.hour.getTime())), 0);
  const buckets: ReportTimelineBucket[] = Array.from({ length: Math.min(last + 1, MAX_BUCKETS) }, (_, bucket) => ({
    start: new Date(bucketStart(first, bucket)).toISOString(),
    hours: bucket < HOURLY_BUCKETS ? 1 : DAY_HOURS,
    sent: 0,
    opensHuman: 0,
    opensMachine: 0,
    clicksHuman: 0,
    clicksMachine: 0,
  }));
  for (const row of hours) {
    const bucket = buckets[bucketOf(first, row.hour.getTime())];
    if (!bucket) continue;
    bucket.sent += row.sent;
    bucket.opensHuman += row.opensHuman;
    bucket.opensMachine += row.opensMachine;
    bucket.clicksHuman += row.clicksHuman;
    bucket.clicksMachine += row.clicksMachine;
  }
  return buckets;
}

/** A domain is judged only once this many of its mails were sent (a handful of bounces is noise). */
export const FLAG_MIN_SENT = 20;
/** How far above the campaign's rate a domain's stands to be flagged: over this many times the campaign's... */
export const FLAG_TIMES = 2;
/** ...and at least this much more (fractions of the mails sent): bounces 2 percentage points, complaints 0.3. */
export const FLAG_BOUNCE_ABOVE = 0.02;
export const FLAG_COMPLAINT_ABOVE = 0.003;

const bounced = (counts: DomainCounts) => counts.bouncedHard + counts.bouncedSoft;

/** Whether `rate` stands far above the campaign's `overall`. */
const farAbove = (rate: number, overall: number, margin: number) => rate > FLAG_TIMES * overall && rate >= overall + margin;

/**
 * Flagged: at least FLAG_MIN_SENT mails sent to the domain, and its bounce rate (hard and soft) or
 * its complaint rate over the mails sent is more than twice the campaign's and at least 2 points
 * (bounces) or 0.3 points (complaints: the ceiling mailbox providers ask senders to stay under)
 * above it. `campaign` is the whole campaign's counts, the domain's own included.
 */
export function isFlagged(domain: DomainCounts, campaign: DomainCounts): boolean {
  if (domain.sent < FLAG_MIN_SENT || campaign.sent === 0) return false;
  return (
    farAbove(bounced(domain) / domain.sent, bounced(campaign) / campaign.sent, FLAG_BOUNCE_ABOVE) ||
    farAbove(domain.complaints / domain.sent, campaign.complaints / campaign.sent, FLAG_COMPLAINT_ABOVE)
  );
}

const COUNTS = [
  'sent',
  'delivered',
  'bouncedHard',
  'bouncedSoft',
  'complaints',
  'openedHuman',
  'clickedHuman',
  'limitWaits',
  'deferrals',
  'sesThrottles',
] as const;

/** The campaign's counts: the sum of every group's (the groups split the campaign's domains between them). */
export function campaignCounts(groups: readonly DomainCounts[]): DomainCounts {
  const total: DomainCounts = {
    domain: null,
    sent: 0,
    delivered: 0,
    bouncedHard: 0,
    bouncedSoft: 0,
    complaints: 0,
    openedHuman: 0,
    clickedHuman: 0,
    limitWaits: 0,
    deferrals: 0,
    sesThrottles: 0,
  };
  for (const group of groups) for (const key of COUNTS) total[key] += group[key];
  return total;
}

/** The groups flagged against the campaign, the named domains by mails sent (then name), 'other' last. */
export function domainTable(groups: readonly DomainCounts[]): ReportDomain[] {
  const campaign = campaignCounts(groups);
  return [...groups]
    .sort((a, b) =>
      a.domain === null ? 1 : b.domain === null ? -1 : b.sent - a.sent || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0),
    )
    .map((group) => ({ ...group, flagged: isFlagged(group, campaign) }));
}
