/**
 * The batched statements of webhook delivery (docs/decisions/webhooks.md, "Delivery"): the poller's lease per endpoint
 * under its in-flight cap, many claims in one statement, and many outcomes in one statement.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { seedAudience } from '../../../test/support/seed.js';
import { webhookRepository, type AttemptOutcome } from './repository.js';

let db: TestDatabase;
let repo: ReturnType<typeof webhookRepository>;
let busy: number;
let quiet: number;

/** An endpoint for contact.subscribed; its id. */
async function endpoint(path: string): Promise<number> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO webhook_endpoints (url, events, secret) VALUES ($1, '{contact.subscribed}', 'whsec_AAAA') RETURNING id`,
    [`http://127.0.0.1:9/${path}`],
  );
  return Number(rows[0]!.id);
}

const pending = async (endpointId: number) =>
  (
    await db.pool.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'PENDING' ORDER BY id`, [
      endpointId,
    ])
  ).rows.map((row) => Number(row.id));

beforeAll(async () => {
  db = await createTestDatabase();
  repo = webhookRepository(db.database);
  busy = await endpoint('busy');
  const audience = await seedAudience(db.pool, { headers: ['email'], contacts: [] });
  // 30 events while only `busy` is registered, then 5 with both: busy 35 deliveries, quiet 5.
  const record = (tag: string, n: number) =>
    db.pool.query(
      `INSERT INTO consent_ledger (audience_id, address_key, email, event)
       SELECT $1, $2 || i || '@example.org', $2 || i || '@example.org', 'SUBSCRIBED' FROM generate_series(1, $3) i`,
      [audience.id, tag, n],
    );
  await record('first-', 30);
  quiet = await endpoint('quiet');
  await record('second-', 5);
  // Due in the order they were written (one statement's rows would all be due at the same instant).
  await db.pool.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 hour' + id * interval '1 second'`);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

it('leases each endpoint its own share of a poll, never past what it may have in flight', async () => {
  const count = (leased: { endpointId: number }[], endpointId: number) => leased.filter((d) => d.endpointId === endpointId).length;
  // Up to 10 each a poll, up to 25 in flight each: the busy endpoint's older backlog does not hold up the quiet one.
  const first = await repo.leaseDue(10, 25, 30_000);
  expect([count(first, busy), count(first, quiet)]).toEqual([10, 5]);
  const second = await repo.leaseDue(10, 25, 30_000);
  expect([count(second, busy), count(second, quiet)]).toEqual([10, 0]);
  // 20 in flight: 5 more fit.
  const third = await repo.leaseDue(10, 25, 30_000);
  expect([count(third, busy), count(third, quiet)]).toEqual([5, 0]);
  expect(await repo.leaseDue(10, 25, 30_000)).toEqual([]);
  // Oldest due first, and never the same delivery twice.
  const ids = [...first, ...second, ...third].filter((d) => d.endpointId === busy).map((d) => d.id);
  expect(new Set(ids).size).toBe(25);
  expect(ids.sort((a, b) => a - b)).toEqual((await pending(busy)).slice(0, 25));

  // A recorded outcome ends the delivery's lease: room for one more.
  const [one] = await repo.claimMany([ids[0]!], 'settle-one', 60_000);
  await repo.recordAttempts([
    { id: one!.id, token: 'settle-one', startedAt: new Date(), durationMs: 3, status: 204, error: null, ok: true, retryInMs: 5_000 },
  ]);
  expect(count(await repo.leaseDue(10, 25, 30_000), busy)).toBe(1);
});

it('claims many in one statement; a claim held, a claim given back, outcomes recorded together with their log lines', async () => {
  const ids = (await pending(quiet)).slice(0, 4);
  const claimed = await repo.claimMany(ids, 'token-a', 60_000);
  expect(claimed.map((d) => d.id)).toEqual(ids);
  expect(claimed[0]).toMatchObject({ endpointId: quiet, url: 'http://127.0.0.1:9/quiet', secret: 'whsec_AAAA', attempts: 0 });
  // Held: another copy of the message claims nothing.
  expect(await repo.claimMany(ids, 'token-b', 60_000)).toEqual([]);

  const outcome = (id: number, token: string, ok: boolean): AttemptOutcome => ({
    id,
    token,
    startedAt: new Date('2026-01-02T03:04:05Z'),
    durationMs: 12,
    status: ok ? 204 : 500,
    error: ok ? null : 'The endpoint answered 500',
    ok,
    retryInMs: 5_000,
  });
  // A claim that is not the delivery's (lost to another attempt) changes nothing.
  expect(await repo.recordAttempts([outcome(ids[0]!, 'token-b', true)])).toEqual([]);
  // The first two are recorded together; the last two are given back unattempted.
  const settled = await repo.recordAttempts([outcome(ids[0]!, 'token-a', true), outcome(ids[1]!, 'token-a', false)]);
  expect(settled.sort((a, b) => a.id - b.id)).toEqual([
    { id: ids[0], status: 'DELIVERED' },
    { id: ids[1], status: 'PENDING' },
  ]);
  await repo.releaseClaims(ids.slice(2), 'token-a');

  const { rows } = await db.pool.query<{ id: string; status: string; attempts: number; retry_in_s: number | null; leased: boolean }>(
    `SELECT id, status, attempts, lease_until IS NOT NULL OR claim_token IS NOT NULL AS leased,
            CASE WHEN status = 'PENDING' AND attempts > 0 THEN round(extract(epoch FROM next_attempt_at - now()))::int END AS retry_in_s
       FROM webhook_deliveries WHERE id = ANY ($1::bigint[]) ORDER BY id`,
    [ids],
  );
  expect(rows.map(({ id, ...rest }) => ({ id: Number(id), ...rest }))).toEqual([
    { id: ids[0], status: 'DELIVERED', attempts: 1, leased: false, retry_in_s: null },
    { id: ids[1], status: 'PENDING', attempts: 1, leased: false, retry_in_s: 5 },
    { id: ids[2], status: 'PENDING', attempts: 0, leased: false, retry_in_s: null },
    { id: ids[3], status: 'PENDING', attempts: 0, leased: false, retry_in_s: null },
  ]);
  const log = await db.pool.query(
    `SELECT delivery_id::int AS "deliveryId", attempt, duration_ms AS "durationMs", status, error
       FROM webhook_attempts WHERE delivery_id = ANY ($1::bigint[]) ORDER BY delivery_id`,
    [ids],
  );
  expect(log.rows).toEqual([
    { deliveryId: ids[0], attempt: 1, durationMs: 12, status: 204, error: null },
    { deliveryId: ids[1], attempt: 1, durationMs: 12, status: 500, error: 'The endpoint answered 500' },
  ]);
  // Given back: claimable again at once.
  expect((await repo.claimMany(ids.slice(2), 'token-c', 60_000)).map((d) => d.id)).toEqual(ids.slice(2));
});

it('takes back a claim whose lease ran out: published again, claimable, and the lost attempt changes nothing', async () => {
  const last = (await pending(quiet)).at(-1)!;
  // Claimed, then its outcome never recorded (the database away, the worker dead): the claim's lease runs out.
  expect(await repo.claimMany([last], 'token-lost', 1)).toHaveLength(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const leased = await repo.leaseDue(10, 25, 30_000);
  expect(leased.filter((d) => d.endpointId === quiet).map((d) => d.id)).toEqual([last]);
  expect((await repo.claimMany([last], 'token-next', 60_000)).map((d) => d.id)).toEqual([last]);
  const outcome = { id: last, startedAt: new Date(), durationMs: 1, status: 204, error: null, ok: true, retryInMs: 5_000 };
  expect(await repo.recordAttempts([{ ...outcome, token: 'token-lost' }])).toEqual([]);
  expect(await repo.recordAttempts([{ ...outcome, token: 'token-next' }])).toEqual([{ id: last, status: 'DELIVERED' }]);
});
