/**
 * The claim statements the outage protocol rests on (services/sending/claim-repository.ts), on a real
 * database: a claim re-run with its token (its answer was lost) takes nothing twice and counts no
 * second attempt; a record touches only its own claim; a given-back job is QUEUED without the
 * attempt; the stale sweep leaves a claim whose worker keeps beating, and takes one that stopped.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { seedGeneratedAudience } from '../../../test/support/seed.js';
import { claimRepository } from './claim-repository.js';

let db: TestDatabase;
let campaignId: number;
let jobIds: number[];

beforeAll(async () => {
  db = await createTestDatabase();
  const { id: audienceId } = await seedGeneratedAudience(db.pool, 6, 'claims.example.org');
  const campaign = await db.pool.query<{ id: string }>(
    `INSERT INTO campaigns (name, status, audience_id) VALUES ('Claims', 'SENDING', $1) RETURNING id`,
    [audienceId],
  );
  campaignId = Number(campaign.rows[0]!.id);
  const jobs = await db.pool.query<{ id: string }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email)
     SELECT $1, id, email FROM contacts WHERE audience_id = $2 ORDER BY id RETURNING id`,
    [campaignId, audienceId],
  );
  jobIds = jobs.rows.map((row) => Number(row.id));
}, 60_000);
afterAll(() => db?.drop());

const jobs = async (ids: number[]) =>
  (
    await db.pool.query<{ id: string; status: string; attempts: number; claim_token: string | null }>(
      'SELECT id, status, attempts, claim_token FROM campaign_jobs WHERE id = ANY($1) ORDER BY id',
      [ids],
    )
  ).rows.map((row) => ({ id: Number(row.id), status: row.status, attempts: row.attempts, token: row.claim_token }));

describe('claims named by a token', () => {
  it('a claim run again with its token answers the same jobs, one attempt each; another token gets none', async () => {
    const repo = claimRepository(db.database);
    const ids = jobIds.slice(0, 2);
    const token = randomUUID();
    expect((await repo.claim(campaignId, ids, token)).map((job) => job.id)).toEqual(ids);
    expect((await repo.claim(campaignId, ids, token)).map((job) => job.id)).toEqual(ids);
    expect(await repo.claim(campaignId, ids, randomUUID())).toEqual([]);
    expect(await jobs(ids)).toEqual(ids.map((id) => ({ id, status: 'SENDING', attempts: 1, token })));
  });

  it("records only its own claim's jobs, gives back an unsent one without the attempt, and a second record changes nothing", async () => {
    const repo = claimRepository(db.database);
    const [sent, unsent] = jobIds.slice(2, 4) as [number, number];
    const token = randomUUID();
    await repo.claim(campaignId, [sent, unsent], token);
    // Another token (a stale retry of someone else's record) changes nothing.
    await repo.record(campaignId, randomUUID(), [{ id: sent, status: 'FAILED', error: 'not mine' }]);
    expect((await jobs([sent]))[0]!.status).toBe('SENDING');
    const outcomes = [
      { id: sent, status: 'SENT_WAIT_ACK' as const, messageId: 'm-1' },
      { id: unsent, status: 'QUEUED' as const, delayMs: 0, returned: true },
    ];
    await repo.record(campaignId, token, outcomes);
    await repo.record(campaignId, token, outcomes);
    expect(await jobs([sent, unsent])).toEqual([
      { id: sent, status: 'SENT_WAIT_ACK', attempts: 1, token },
      { id: unsent, status: 'QUEUED', attempts: 0, token: null },
    ]);
    const counters = await db.pool.query<{ jobs_sent: number }>('SELECT jobs_sent FROM campaigns WHERE id = $1', [campaignId]);
    expect(counters.rows[0]!.jobs_sent).toBe(1);
  });

  it('the stale sweep takes a claim with no heartbeat, and leaves one whose worker beats', async () => {
    const repo = claimRepository(db.database);
    const [abandoned, held] = jobIds.slice(4, 6) as [number, number];
    const [dead, living] = [randomUUID(), randomUUID()];
    await repo.claim(campaignId, [abandoned], dead);
    await repo.claim(campaignId, [held], living);
    // Both claims are ten minutes old; only the living worker beats.
    await db.pool.query(`UPDATE campaign_jobs SET claimed_at = now() - interval '10 minutes' WHERE id = ANY($1)`, [[abandoned, held]]);
    await repo.heartbeat([{ token: living, ids: [held] }]);
    expect(await repo.markStaleUnknown(60_000, 'stale')).toBe(1);
    expect((await jobs([abandoned, held])).map((job) => job.status)).toEqual(['UNKNOWN', 'SENDING']);
    // Its worker records it later: the real outcome wins over UNKNOWN.
    await repo.record(campaignId, dead, [{ id: abandoned, status: 'SENT_WAIT_ACK', messageId: 'm-2' }]);
    expect((await jobs([abandoned]))[0]!.status).toBe('SENT_WAIT_ACK');
  });
});
