/**
 * The claim statements the outage protocol rests on (services/sending/claim-repository.ts), on a real
 * database: a claim re-run with its token (its answer was lost) takes nothing twice and counts no
 * second attempt; a record touches only its own claim; a given-back job is QUEUED without the
 * attempt; the stale sweep leaves a claim whose worker keeps beating, and takes one that stopped. Jobs
 * held for a capped domain are released at the domain's pace only, and a lost release goes back in line.
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

describe("a capped domain's held jobs (migration 0037)", () => {
  let heldIds: number[];
  beforeAll(async () => {
    const { id: audienceId } = await seedGeneratedAudience(db.pool, 30, 'held.example.org');
    const campaign = await db.pool.query<{ id: string }>(
      `INSERT INTO campaigns (name, status, audience_id) VALUES ('Held', 'SENDING', $1) RETURNING id`,
      [audienceId],
    );
    const heldCampaign = Number(campaign.rows[0]!.id);
    const rows = await db.pool.query<{ id: string }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email)
       SELECT $1, id, email FROM contacts WHERE audience_id = $2 ORDER BY id RETURNING id`,
      [heldCampaign, audienceId],
    );
    heldIds = rows.rows.map((row) => Number(row.id));
  });

  it('are not claimed until released, then only as many as the schedule frees, oldest first, at the pace', async () => {
    const repo = claimRepository(db.database);
    const [first] = heldIds as [number];
    const campaign = Number(
      (await db.pool.query<{ campaign_id: string }>('SELECT campaign_id FROM campaign_jobs WHERE id = $1', [first])).rows[0]!.campaign_id,
    );
    // The dispatch's message claims them once; no slot of their domain: each is held, no attempt counted.
    const token = randomUUID();
    const claimed = await repo.claim(campaign, heldIds, token);
    expect(claimed).toHaveLength(30);
    await repo.record(
      campaign,
      token,
      claimed.map((job) => ({ id: job.id, status: 'QUEUED' as const, delayMs: 0, returned: true, held: 'held.example.org' })),
    );
    expect(await repo.heldDomains()).toEqual(['held.example.org']);
    // A republished message claims nothing held.
    expect(await repo.claim(campaign, heldIds, randomUUID())).toEqual([]);
    const throttles = await db.pool.query('SELECT deferrals::int FROM campaign_domain_throttles WHERE campaign_id = $1', [campaign]);
    expect(throttles.rows).toEqual([{ deferrals: 30 }]);

    // 10 a second, 500 ms ahead: five slots 100 ms apart, the oldest jobs first.
    const before = Date.now();
    const released = await repo.releaseDomainJobs([{ domain: 'held.example.org', perSecond: 10 }], 0, 500, 50);
    expect(released.map((r) => r.jobId)).toEqual(heldIds.slice(0, 5));
    const slots = released.map((r) => r.slotMs);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBeCloseTo(100, 3);
    expect(slots[0]!).toBeGreaterThanOrEqual(before - 50);
    expect(slots[4]!).toBeLessThan(Date.now() + 500);
    // Nothing more before the schedule frees: a second release at once gives nothing (or the one slot freed meanwhile).
    expect((await repo.releaseDomainJobs([{ domain: 'held.example.org', perSecond: 10 }], 0, 500, 50)).length).toBeLessThanOrEqual(1);

    // Released jobs are claimed with their slot; one given back too late is held again, its slot given up.
    const again = randomUUID();
    const taken = await repo.claim(campaign, heldIds, again);
    expect(taken.map((job) => job.id)).toEqual(expect.arrayContaining(heldIds.slice(0, 5)));
    expect(taken.find((job) => job.id === first)!.domainSlotAt).toBeCloseTo(slots[0]!, 0);
    await repo.record(
      campaign,
      again,
      taken.map((job) => ({ id: job.id, status: 'QUEUED' as const, delayMs: 0, returned: true, held: 'held.example.org' })),
    );
    const state = await db.pool.query<{ attempts: number; domain_slot_at: Date | null; domain_held: string }>(
      'SELECT attempts, domain_slot_at, domain_held FROM campaign_jobs WHERE id = $1',
      [first],
    );
    expect(state.rows[0]).toEqual({ attempts: 0, domain_slot_at: null, domain_held: 'held.example.org' });
  });

  it("a release nobody claimed goes back in line after its slot; a paused campaign's jobs are not released", async () => {
    const repo = claimRepository(db.database);
    const released = await repo.releaseDomainJobs([{ domain: 'held.example.org', perSecond: 1000 }], 0, 1_000, 3);
    expect(released).toHaveLength(3);
    const ids = released.map((r) => r.jobId);
    // Its worker died before the claim: the slots pass.
    await db.pool.query(`UPDATE campaign_jobs SET domain_slot_at = now() - interval '1 minute' WHERE id = ANY($1)`, [ids]);
    expect(await repo.putBackLostReleases(10_000)).toBe(3);
    const back = await db.pool.query(
      'SELECT 1 FROM campaign_jobs WHERE id = ANY($1) AND domain_slot_at IS NULL AND domain_held IS NOT NULL',
      [ids],
    );
    expect(back.rows).toHaveLength(3);
    await db.pool.query(
      `UPDATE campaigns SET quota_paused_until = now() + interval '1 hour' WHERE id = (SELECT campaign_id FROM campaign_jobs WHERE id = $1)`,
      [ids[0]],
    );
    expect(await repo.releaseDomainJobs([{ domain: 'held.example.org', perSecond: 1000 }], 0, 1_000, 3)).toEqual([]);
  });
});

describe("holding a campaign's capped jobs at once", () => {
  it('holds the queued jobs of capped domains (exact or under a wildcard), counted as deferrals, and no other', async () => {
    const repo = claimRepository(db.database);
    const { id: audienceId } = await seedGeneratedAudience(db.pool, 9, ['capped.test', 'mit.edu', 'free.test']);
    const campaign = await db.pool.query<{ id: string }>(
      `INSERT INTO campaigns (name, status, audience_id) VALUES ('Hold', 'SENDING', $1) RETURNING id`,
      [audienceId],
    );
    const id = Number(campaign.rows[0]!.id);
    await db.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email) SELECT $1, id, email FROM contacts WHERE audience_id = $2`,
      [id, audienceId],
    );
    const { rows: domains } = await db.pool.query<{ domain: string; jobs: number }>(
      'SELECT recipient_domain(email) AS domain, count(*)::int AS jobs FROM campaign_jobs WHERE campaign_id = $1 GROUP BY 1 ORDER BY 1',
      [id],
    );
    const jobsOf = (domain: string) => domains.find((d) => d.domain === domain)?.jobs ?? 0;
    expect(jobsOf('capped.test') * jobsOf('mit.edu') * jobsOf('free.test')).toBeGreaterThan(0);
    expect(await repo.holdCapped(id, ['capped.test'], ['.edu'])).toBe(jobsOf('capped.test') + jobsOf('mit.edu'));
    // Once held, a second scan holds nothing more.
    expect(await repo.holdCapped(id, ['capped.test'], ['.edu'])).toBe(0);
    const { rows } = await db.pool.query<{ domain: string; held: string | null }>(
      'SELECT recipient_domain(email) AS domain, domain_held AS held FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id',
      [id],
    );
    for (const row of rows) expect(row.held, row.domain).toBe(row.domain === 'free.test' ? null : row.domain);
    const throttles = await db.pool.query(
      'SELECT domain, deferrals::int FROM campaign_domain_throttles WHERE campaign_id = $1 ORDER BY domain',
      [id],
    );
    expect(throttles.rows).toEqual([
      { domain: 'capped.test', deferrals: jobsOf('capped.test') },
      { domain: 'mit.edu', deferrals: jobsOf('mit.edu') },
    ]);
  });
});
