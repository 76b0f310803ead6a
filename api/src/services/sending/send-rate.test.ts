import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { createLogger } from '../../logger.js';
import type { SendQuota } from '../quota/quota-service.js';
import { blockSize, createSendRateLimiter, type SendRateLimiter } from './send-rate.js';
import { sendRateRepository } from './send-rate-repository.js';

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
  await db.pool.query(
    `UPDATE send_rate SET next_slot_at = clock_timestamp(), slowdown = 1, ceiling = 1, slowed_at = '2000-01-01', quota_left = NULL,
                          refusals = 0, reserved_at_cut = reserved_total`,
  );
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

  it('slows every limiter down after SES throttles, together', async () => {
    const account = async () => ({ maxSendRate: 200, max24HourSend: -1, sentLast24Hours: 0 });
    const [a, b] = [limiter(account), limiter(account)];
    await a!.take();
    await b!.take();
    await a!.throttled();
    // Still refused a second later, SES having taken half the calls since the first cut.
    await db.pool.query(
      `UPDATE send_rate SET slowed_at = slowed_at - interval '1.2 seconds', reserved_total = reserved_at_cut + 100, refusals = 49`,
    );
    await a!.throttled();
    // The other process (its block of slots used up) goes at 93 % of 200 x 0.87 x 0.5 x 0.9, about 73 a second,
    // climbing slowly; at the full pace it would send 186.
    const times = await sendFor(b!, 1000, 8);
    expect(times.length).toBeLessThan(120);
    expect(times.length).toBeGreaterThan(50);
    // Its own figure follows the shared pace.
    expect(b!.rate()).toBeLessThan(0.93 * 200 * 0.6);
  });

  it('falls back to one mail a second when SES cannot be read', async () => {
    const broken = limiter(async () => {
      throw new Error('no credentials');
    });
    expect(await broken.take()).toBe('go');
    expect(broken.rate()).toBeCloseTo(0.93);
  });
});

/** The pace (a fraction of MaxSendRate) `seconds` after a cut to `slowdown` below a throttle at `ceiling`. */
async function paceAfter(slowdown: number, ceiling: number, seconds: number): Promise<number> {
  const { rows } = await db.pool.query<{ pace: number }>(
    `SELECT send_rate_pace($1, $2, '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z'::timestamptz + make_interval(secs => $3)) AS pace`,
    [slowdown, ceiling, seconds],
  );
  return rows[0]!.pace;
}

describe('the rate rule (migration 0031)', () => {
  const repository = () => sendRateRepository(db.database);

  it('cuts the shared pace to 85 % on a throttle, once however many refusals arrive together', async () => {
    const paces = await Promise.all(Array.from({ length: 10 }, () => repository().throttled()));
    expect(Math.min(...paces)).toBeCloseTo(0.85, 2);
    expect(await repository().pace()).toBeCloseTo(0.85, 2);
    const { rows } = await db.pool.query<{ ceiling: number }>('SELECT ceiling FROM send_rate');
    expect(rows[0]!.ceiling).toBeCloseTo(1, 2);
  });

  it('cuts to 90 % of what SES took since the last cut when it still refuses within two seconds, and by 15 % after a calm', async () => {
    await repository().throttled();
    // Since that cut: 100 slots reserved, 79 refusals counted (this one is the 80th), 1.5 s ago.
    await db.pool.query(
      `UPDATE send_rate SET slowed_at = slowed_at - interval '1.5 seconds', reserved_total = reserved_at_cut + 100, refusals = 79`,
    );
    // 1.5 s into the recovery from 0.85 towards 0.95 the pace is 0.88; SES took a fifth of the calls.
    expect(await repository().throttled()).toBeCloseTo(0.9 * 0.88 * 0.2, 3);
    const { rows } = await db.pool.query<{ ceiling: number; refusals: number }>('SELECT ceiling, refusals::int FROM send_rate');
    expect(rows[0]!.ceiling).toBeCloseTo(0.88 * 0.2, 3);
    expect(rows[0]!.refusals).toBe(0);
    // Refusals inside the second after a cut are counted, not cut again.
    await repository().throttled();
    expect((await db.pool.query<{ refusals: number }>('SELECT refusals::int FROM send_rate')).rows[0]!.refusals).toBe(1);
    await db.pool.query(`UPDATE send_rate SET slowed_at = slowed_at - interval '5 seconds'`);
    // 5 s later the pace is back at 95 % of where SES refused (0.176); cut by 15 %.
    expect(await repository().throttled()).toBeCloseTo(0.95 * 0.176 * 0.85, 3);
  });

  it('neither cuts nor counts a refusal of a call made before the last cut: it left at the old pace', async () => {
    const before = Date.now() - 50;
    await repository().throttled();
    await db.pool.query(`UPDATE send_rate SET slowed_at = slowed_at - interval '1.5 seconds'`);
    const calledAt = Date.now() - 1600;
    // In flight when the cut came: nothing changes.
    expect(await repository().throttled(calledAt - 100)).toBeCloseTo(0.88, 2);
    expect(await repository().throttled(before - 2000)).toBeCloseTo(0.88, 2);
    expect((await db.pool.query<{ refusals: number }>('SELECT refusals::int FROM send_rate')).rows[0]!.refusals).toBe(0);
    // Made since: the cut goes on; with no call reserved since the last cut, nothing to measure SES by: half.
    expect(await repository().throttled(Date.now())).toBeCloseTo(0.9 * 0.88 * 0.5, 2);
  });

  it('climbs back in 5 s to just under where SES refused, then by 1 % of that a second and faster the longer SES takes all, up to MaxSendRate', async () => {
    expect(await paceAfter(0.17, 0.2, 0)).toBeCloseTo(0.17, 5);
    expect(await paceAfter(0.17, 0.2, 2.5)).toBeCloseTo(0.18, 5);
    expect(await paceAfter(0.17, 0.2, 5)).toBeCloseTo(0.19, 5);
    // 0.19 + 0.01 x 0.2 x 5 + 0.001 x 0.2 x 25: the ceiling, 10 s after the cut.
    expect(await paceAfter(0.17, 0.2, 10)).toBeCloseTo(0.205, 5);
    expect(await paceAfter(0.17, 0.2, 15)).toBeCloseTo(0.19 + 0.002 * 10 + 0.0002 * 100, 5);
    // The longer SES takes everything, the faster: past twice the ceiling 38 s after the cut.
    expect(await paceAfter(0.17, 0.2, 38)).toBeCloseTo(0.19 + 0.002 * 33 + 0.0002 * 33 * 33, 5);
    expect(await paceAfter(0.17, 0.2, 38)).toBeGreaterThan(0.4);
    // Never above MaxSendRate, and the untouched state is the full pace.
    expect(await paceAfter(0.85, 1, 60)).toBe(1);
    expect(await repository().pace()).toBe(1);
  });

  it("gives an urgent mail (at its domain's slot) the next slot of the process, ahead of the mails already waiting", async () => {
    const account = async () => ({ maxSendRate: 20, max24HourSend: -1, sentLast24Hours: 0 });
    const target = limiter(account);
    // Eight takers keep the process's slots spoken for (about 54 ms apart at 93 % of 20 a second).
    const busy = sendFor(target, 2500, 8);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const asked = performance.now();
    const [urgentAt, plainAt] = await Promise.all([
      target.take({ urgent: true }).then(() => performance.now() - asked),
      target.take().then(() => performance.now() - asked),
    ]);
    const all = await busy;
    // The urgent one within a slot or two; the plain one behind the eight.
    expect(urgentAt).toBeLessThan(160);
    expect(plainAt).toBeGreaterThan(urgentAt + 150);
    // Handing a slot over adds none: still under the rate in every second.
    expect(maxPerSecond([...all, asked + urgentAt, asked + plainAt])).toBeLessThanOrEqual(20);
  });
});
