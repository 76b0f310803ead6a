import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { createLogger } from '../../logger.js';
import type { SendQuota } from '../quota/quota-service.js';
import { blockSize, createSendRateLimiter, type SendRateLimiter } from './send-rate.js';

let db: TestDatabase;
const logger = createLogger({ logLevel: 'silent' });
const limiters: SendRateLimiter[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const limiter of limiters) limiter.close();
  await db?.drop();
});
beforeEach(async () => {
  await db.pool.query(`UPDATE send_rate SET next_slot_at = clock_timestamp(), slowdown = 1, slowed_at = '2000-01-01', quota_left = NULL`);
});

function limiter(account: () => Promise<SendQuota>): SendRateLimiter {
  const created = createSendRateLimiter(db.database, account, logger);
  limiters.push(created);
  return created;
}

/** The most sends inside any window of one second (sliding). */
function maxPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= 1000) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

/** `lanes` concurrent senders taking slots until `ms` have passed; the times of the slots taken. */
async function sendFor(target: SendRateLimiter, ms: number, lanes: number): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (performance.now() < end) {
        if ((await target.take()) !== 'go') return;
        times.push(performance.now());
      }
    }),
  );
  return times;
}

describe('the shared send rate', () => {
  it('asks for about a tenth of a second of slots at a time', () => {
    expect(blockSize(0.5)).toBe(1);
    expect(blockSize(95)).toBe(10);
    expect(blockSize(100_000)).toBe(2000);
  });

  it('keeps two limiters (two worker processes) together under MaxSendRate in every second, near the rate', async () => {
    const account = async () => ({ maxSendRate: 40, max24HourSend: -1, sentLast24Hours: 0 });
    const [a, b] = [limiter(account), limiter(account)];
    const [ta, tb] = await Promise.all([sendFor(a!, 3000, 8), sendFor(b!, 3000, 8)]);
    const all = [...ta, ...tb];
    expect(maxPerSecond(all)).toBeLessThanOrEqual(40);
    // Near it (93 % of it at best); the test machine is shared, so only a crawl fails.
    expect(all.length).toBeGreaterThanOrEqual(0.6 * 40 * 3);
    // Both got a share: the schedule is one for the deployment, not first come takes all.
    expect(ta.length).toBeGreaterThan(all.length / 4);
    expect(tb.length).toBeGreaterThan(all.length / 4);
  });

  it('stops at the daily quota left, counting what every limiter took, and reads SES again once it frees up', async () => {
    let sent = 95;
    let calls = 0;
    const account = async () => {
      calls++;
      return { maxSendRate: 1000, max24HourSend: 100, sentLast24Hours: sent };
    };
    const [a, b] = [limiter(account), limiter(account)];
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a! : b!).take()));
    expect(outcomes.filter((o) => o === 'go')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'quota-reached')).toHaveLength(7);
    // A rolling quota: later, SES reports room again.
    sent = 90;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = calls;
    expect(await a!.take()).toBe('go');
    expect(calls).toBeGreaterThan(before);
  });

  it('slows every limiter down after SES throttles', async () => {
    const account = async () => ({ maxSendRate: 200, max24HourSend: -1, sentLast24Hours: 0 });
    const [a, b] = [limiter(account), limiter(account)];
    await a!.take();
    await a!.throttled();
    const started = performance.now();
    expect(await b!.take()).toBe('go');
    // The one-second pause applies to the other process too...
    expect(performance.now() - started).toBeGreaterThan(700);
    // ...and then the pace is about half (93 % of 200 / 2, recovering slowly).
    const times = await sendFor(b!, 1000, 8);
    expect(times.length).toBeLessThan(120);
    expect(times.length).toBeGreaterThan(60);
  });

  it('falls back to one mail a second when SES cannot be read', async () => {
    const broken = limiter(async () => {
      throw new Error('no credentials');
    });
    expect(await broken.take()).toBe('go');
    expect(broken.rate()).toBeCloseTo(0.93);
  });
});
