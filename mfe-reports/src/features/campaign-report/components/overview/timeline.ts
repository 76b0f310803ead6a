import type { ReportTimelineBucket } from '@mailroom/api-client';
import { formatDateTime } from '@mailroom/ui';

/** A bucket's start as the timeline names it: the hour for an hourly bucket, the day for a daily one. */
export function bucketLabel(bucket: ReportTimelineBucket): string {
  return formatDateTime(bucket.start, bucket.hours === 1 ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD');
}

/** The mails handed to SES up to the end of each bucket: the send progress on the timeline's axis. */
export function cumulativeSent(buckets: readonly ReportTimelineBucket[]): number[] {
  let total = 0;
  return buckets.map((bucket) => (total += bucket.sent));
}

export const hasOpensOrClicks = (buckets: readonly ReportTimelineBucket[]) =>
  buckets.some((b) => b.opensHuman + b.opensMachine + b.clicksHuman + b.clicksMachine > 0);

/** The empty bucket that follows `bucket`: where its time ends. */
export const closingBucket = (bucket: ReportTimelineBucket): ReportTimelineBucket => ({
  start: new Date(Date.parse(bucket.start) + bucket.hours * 3_600_000).toISOString(),
  hours: bucket.hours,
  sent: 0,
  opensHuman: 0,
  opensMachine: 0,
  clicksHuman: 0,
  clicksMachine: 0,
});
