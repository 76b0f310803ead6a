/**
 * The overview's rules without a database: the timeline's buckets (hourly for 72 hours, then daily,
 * capped by the contract) and when a domain is flagged.
 */
import { describe, expect, it } from 'vitest';
import { FLAG_MIN_SENT, isFlagged, MAX_BUCKETS, timelineBuckets, type DomainCounts } from './outcome.js';

const counts = (sent: number, bounced: number, complaints: number): DomainCounts => ({
  domain: 'x.test',
  sent,
  delivered: sent,
  bouncedHard: bounced,
  bouncedSoft: 0,
  complaints,
  openedHuman: 0,
  limitWaits: 0,
  deferrals: 0,
  sesThrottles: 0,
  clickedHuman: 0,
});

describe('the timeline buckets', () => {
  const started = new Date('2024-01-01T23:59:59Z');
  const hour = (n: number) => ({
    hour: new Date(Date.parse('2024-01-01T23:00:00Z') + n * 3_600_000),
    sent: 0,
    opensHuman: 1,
    opensMachine: 0,
    clicksHuman: 0,
    clicksMachine: 0,
  });

  it('start at the hour sending started and end with the last one holding counts', () => {
    expect(timelineBuckets(null, [hour(3)])).toEqual([]);
    const buckets = timelineBuckets(started, [hour(71), hour(72), hour(95), hour(96)]);
    expect(buckets).toHaveLength(74);
    expect(buckets[0]!.start).toBe('2024-01-01T23:00:00.000Z');
    expect(buckets[71]).toMatchObject({ hours: 1, opensHuman: 1 });
    expect(buckets[72]).toMatchObject({ start: '2024-01-04T23:00:00.000Z', hours: 24, opensHuman: 2 });
    expect(buckets[73]).toMatchObject({ start: '2024-01-05T23:00:00.000Z', hours: 24, opensHuman: 1 });
  });

  it('stop at the contract bound', () => {
    const buckets = timelineBuckets(started, [hour(0), hour(72 + 24 * 5000)]);
    expect(buckets).toHaveLength(MAX_BUCKETS);
    expect(buckets.reduce((n, b) => n + b.opensHuman, 0)).toBe(1);
  });
});

describe('a flagged domain', () => {
  const campaign = counts(1000, 20, 1); // 2 % bounces, 0.1 % complaints

  it('bounces more than twice the campaign and at least 2 points above it', () => {
    expect(isFlagged(counts(100, 5, 0), campaign)).toBe(true); // 5 %
    expect(isFlagged(counts(100, 4, 0), campaign)).toBe(false); // 4 %: twice, not more
    expect(isFlagged(counts(100, 3, 0), counts(1000, 0, 0))).toBe(true); // 3 % against none
    expect(isFlagged(counts(100, 1, 0), counts(1000, 0, 0))).toBe(false); // 1 %: under 2 points
  });

  it('complains more than twice the campaign and at least 0.3 points above it', () => {
    expect(isFlagged(counts(200, 0, 1), campaign)).toBe(true); // 0.5 %
    expect(isFlagged(counts(1000, 0, 3), campaign)).toBe(false); // 0.3 %: only 0.2 points above
  });

  it('needs enough mails to judge', () => {
    expect(isFlagged(counts(FLAG_MIN_SENT - 1, FLAG_MIN_SENT - 1, 0), campaign)).toBe(false);
    expect(isFlagged(counts(FLAG_MIN_SENT, FLAG_MIN_SENT, 0), campaign)).toBe(true);
  });
});
