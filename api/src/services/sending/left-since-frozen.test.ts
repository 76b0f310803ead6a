/**
 * A person who leaves mid-send gets no mail (issue 25; claim-repository.ts `claim`, dispatch-repository.ts
 * `createJobs`): a queued job whose contact left its audience, or whose address was suppressed after the jobs
 * were made, is deleted by the claim with the campaign's counts lowered in the same statement (the report then
 * shows the contact NOT_SENT); one with a trace of an earlier mail is kept FAILED. Two claims of the same
 * batch (a redelivered message, a second worker) skip and count each such job once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { seedGeneratedAudience } from '../../../test/support/seed.js';
import { claimRepository, LEFT_SINCE_FROZEN } from './claim-repository.js';
import { dispatchRepository } from './dispatch-repository.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(() => db?.drop());

/** A SENDING campaign with a job for each contact of a new audience of `size`, counted as a send counts them. */
async function sendingCampaign(size: number, domain: string) {
  const { id: audienceId } = await seedGeneratedAudience(db.pool, size, domain);
  const campaign = await db.pool.query<{ id: string }>(
    `INSERT INTO campaigns (name, status, audience_id, contact_count) VALUES ('Leaving', 'SENDING', $1, $2) RETURNING id`,
    [audienceId, size],
  );
  const campaignId = Number(campaign.rows[0]!.id);
  const jobs = await db.pool.query<{ id: string; contact_id: string; email: string }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email)
     SELECT $1, id, email FROM contacts WHERE audience_id = $2 ORDER BY id RETURNING id, contact_id, email`,
    [campaignId, audienceId],
  );
  const list = jobs.rows.map((row) => ({ id: Number(row.id), contactId: Number(row.contact_id), email: row.email }));
  return { audienceId, campaignId, jobs: list };
}

async function counts(campaignId: number) {
  const campaign = await db.pool.query<{ contact_count: number; jobs_failed: number }>(
    'SELECT contact_count, jobs_failed FROM campaigns WHERE id = $1',
    [campaignId],
  );
  const byStatus = await db.pool.query<{ status: string; jobs: string }>(
    `SELECT status, sum(jobs)::text AS jobs FROM campaign_job_counts WHERE campaign_id = $1 GROUP BY status HAVING sum(jobs) <> 0 ORDER BY status`,
    [campaignId],
  );
  const real = await db.pool.query<{ status: string; jobs: string }>(
    `SELECT status, count(*)::text AS jobs FROM campaign_jobs WHERE campaign_id = $1 GROUP BY status ORDER BY status`,
    [campaignId],
  );
  return { ...campaign.rows[0]!, counted: byStatus.rows, real: real.rows };
}

describe('a person who leaves while their campaign is sending', () => {
  it('is not claimed: the job is deleted, contact_count and the job counts lowered in the same statement', async () => {
    const { campaignId, jobs } = await sendingCampaign(5, 'leave-one.example.org');
    const [left, suppressed, ...rest] = jobs;
    await db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE id = $1', [left!.contactId]);
    await db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES (address_key($1), 'UNSUBSCRIBE')`, [
      suppressed!.email.toUpperCase(),
    ]);

    const claimed = await claimRepository(db.database).claim(
      campaignId,
      jobs.map((job) => job.id),
      randomUUID(),
    );

    expect(claimed.map((job) => job.id)).toEqual(rest.map((job) => job.id));
    const after = await counts(campaignId);
    expect(after.contact_count).toBe(3);
    expect(after.jobs_failed).toBe(0);
    expect(after.real).toEqual([{ status: 'SENDING', jobs: '3' }]);
    expect(after.counted).toEqual(after.real);
  });

  it('two claims of the same batch at once skip and count each leaver once, and claim every other job once', async () => {
    const { campaignId, jobs } = await sendingCampaign(40, 'leave-twice.example.org');
    const leavers = jobs.filter((_, i) => i % 4 === 0);
    await db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE id = ANY($1)', [leavers.map((job) => job.contactId)]);
    const ids = jobs.map((job) => job.id);
    const repo = claimRepository(db.database);

    const [a, b] = await Promise.all([repo.claim(campaignId, ids, randomUUID()), repo.claim(campaignId, ids, randomUUID())]);

    const taken = [...a, ...b].map((job) => job.id).sort((x, y) => x - y);
    expect(taken).toEqual(jobs.filter((job) => !leavers.includes(job)).map((job) => job.id));
    const after = await counts(campaignId);
    expect(after.contact_count).toBe(30);
    expect(after.real).toEqual([{ status: 'SENDING', jobs: '30' }]);
    expect(after.counted).toEqual(after.real);
  });

  it('a job with a trace of an earlier mail is kept FAILED with the reason, and counted failed', async () => {
    const { campaignId, jobs } = await sendingCampaign(2, 'leave-traced.example.org');
    const [traced, other] = jobs;
    // A machine's open only (an image proxy): its tracking event would go with a deleted job.
    await db.pool.query(`UPDATE campaign_jobs SET opened_at = now() WHERE id = $1`, [traced!.id]);
    await db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE id = $1', [traced!.contactId]);

    const claimed = await claimRepository(db.database).claim(campaignId, [traced!.id, other!.id], randomUUID());

    expect(claimed.map((job) => job.id)).toEqual([other!.id]);
    const job = await db.pool.query('SELECT status, error_message FROM campaign_jobs WHERE id = $1', [traced!.id]);
    expect(job.rows[0]).toEqual({ status: 'FAILED', error_message: LEFT_SINCE_FROZEN });
    const after = await counts(campaignId);
    expect(after.contact_count).toBe(2);
    expect(after.jobs_failed).toBe(1);
    expect(after.counted).toEqual(after.real);
  });

  it('a campaign that is not sending skips nobody and claims nothing', async () => {
    const { campaignId, jobs } = await sendingCampaign(2, 'leave-paused.example.org');
    await db.pool.query(`UPDATE campaigns SET status = 'ERROR' WHERE id = $1`, [campaignId]);
    await db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE id = $1', [jobs[0]!.contactId]);
    expect(
      await claimRepository(db.database).claim(
        campaignId,
        jobs.map((job) => job.id),
        randomUUID(),
      ),
    ).toEqual([]);
    expect((await counts(campaignId)).real).toEqual([{ status: 'QUEUED', jobs: '2' }]);
  });
});

describe('a new send', () => {
  it('makes no job for a contact that left the audience, for the whole audience or for one contact', async () => {
    const { id: audienceId, contactIds } = await seedGeneratedAudience(db.pool, 3, 'leave-new.example.org').then(async (audience) => ({
      ...audience,
      contactIds: (
        await db.pool.query<{ id: string }>('SELECT id FROM contacts WHERE audience_id = $1 ORDER BY id', [audience.id])
      ).rows.map((row) => Number(row.id)),
    }));
    await db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE id = $1', [contactIds[0]]);
    const campaign = await db.pool.query<{ id: string }>(
      `INSERT INTO campaigns (name, status, audience_id) VALUES ('New', 'SENDING', $1) RETURNING id`,
      [audienceId],
    );
    const campaignId = Number(campaign.rows[0]!.id);
    const repo = dispatchRepository(db.database);
    const one = await db.database.transaction((tx) =>
      repo.createJobs(tx, campaignId, audienceId, { contacts: { contactId: contactIds[0]! } }),
    );
    expect(one.count).toBe(0);
    const all = await db.database.transaction((tx) => repo.createJobs(tx, campaignId, audienceId, { contacts: 'all' }));
    expect(all.count).toBe(2);
  });
});
