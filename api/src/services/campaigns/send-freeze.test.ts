/**
 * The send's freeze at scale (issue 26; docs/decisions/segments.md, "The freeze"): a large dispatch answers once
 * its jobs are committed and publishes them behind its answer; a publish lost on the way (the broker gone, the
 * process stopped) is published again by the sweep once the campaign idles, every job once. And the jobs'
 * reference to their campaign, checked per statement since migration 0039, still refuses a job of no campaign and
 * still goes with its campaign.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { seedGeneratedAudience } from '../../../test/support/seed.js';
import type { SendingSettings } from '../../config.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import { createProducer, PUBLISH_BEHIND_JOBS } from '../sending/producer.js';
import type { sendingQueues } from '../sending/queues.js';
import { createSweep } from '../sending/sweep.js';

let db: TestDatabase;
const logger = pino({ level: 'silent' });
/** Idle at once: the sweep republishes whatever is queued. */
const settings = { staleAfterMs: 0, concurrency: 1, domainLimits: [] } as unknown as SendingSettings;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(() => db?.drop());

/** A broker stand-in: records the job ids published; `gate` holds every publish until it is opened, `fail` refuses them. */
function broker({ fail = false } = {}) {
  const published: number[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let gated = false;
  const queue = {
    async publish(_name: string, message: { jobIds: number[] }) {
      if (gated) await gate;
      if (fail) throw new Error('the broker is gone');
      published.push(...message.jobIds.map(Number));
    },
  } as unknown as MessageQueue<typeof sendingQueues>;
  return {
    queue,
    published,
    hold: () => (gated = true),
    release: () => open(),
  };
}

async function draftTo(size: number, domain: string): Promise<number> {
  const { id: audienceId } = await seedGeneratedAudience(db.pool, size, domain);
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO campaigns (name, status, audience_id, subject) VALUES ('Large', 'DRAFT', $1, 'News') RETURNING id`,
    [audienceId],
  );
  return Number(rows[0]!.id);
}

const jobIds = async (campaignId: number): Promise<number[]> =>
  (await db.pool.query<{ id: string }>('SELECT id FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id', [campaignId])).rows.map((row) =>
    Number(row.id),
  );

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

const dispatch = (queue: MessageQueue<typeof sendingQueues>, campaignId: number) =>
  createProducer({ db: db.database, messageQueue: queue, settings, publicUrl: 'https://mail.example.org', logger }).dispatch(campaignId, {
    from: ['DRAFT'],
    conflict: 'not a draft',
    snapshot: { html: '<p>Hello</p>', plainText: null },
    newJobs: { contacts: 'all' },
  });

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a large send's freeze", () => {
  it('answers once the jobs are committed, before they are published, then publishes each once', async () => {
    const campaignId = await draftTo(PUBLISH_BEHIND_JOBS, 'behind.example.org');
    const mq = broker();
    mq.hold();
    const { queued } = await dispatch(mq.queue, campaignId);
    expect(queued).toBe(PUBLISH_BEHIND_JOBS);
    // Answered while the broker holds every publish: the jobs are committed, none published yet.
    expect(mq.published).toEqual([]);
    const ids = await jobIds(campaignId);
    expect(ids).toHaveLength(PUBLISH_BEHIND_JOBS);
    mq.release();
    await until(() => mq.published.length >= PUBLISH_BEHIND_JOBS);
    expect(sorted(mq.published)).toEqual(ids);
  }, 60_000);

  it('loses no job when the publish behind the answer fails: the sweep publishes every queued job once the campaign idles', async () => {
    const campaignId = await draftTo(PUBLISH_BEHIND_JOBS, 'lost.example.org');
    const lost = broker({ fail: true });
    await dispatch(lost.queue, campaignId);
    const ids = await jobIds(campaignId);
    expect(ids).toHaveLength(PUBLISH_BEHIND_JOBS);
    const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [campaignId]);
    expect(rows[0]!.status).toBe('SENDING');

    // Another process's sweep, with a broker that works.
    const mq = broker();
    const producer = createProducer({ db: db.database, messageQueue: mq.queue, settings, publicUrl: 'https://mail.example.org', logger });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const swept = await createSweep({ db: db.database, producer, settings, logger })();
    expect(swept.republished).toBeGreaterThanOrEqual(PUBLISH_BEHIND_JOBS);
    const mine = mq.published.filter((id) => ids.includes(id));
    expect(sorted(mine)).toEqual(ids);
  }, 60_000);
});

describe("the jobs' reference to their campaign (checked per statement)", () => {
  it('refuses a job of no campaign as the foreign key did', async () => {
    const { id: audienceId } = await seedGeneratedAudience(db.pool, 2, 'orphan.example.org');
    await expect(
      db.pool.query(
        `INSERT INTO campaign_jobs (campaign_id, contact_id, email) SELECT -1, id, email FROM contacts WHERE audience_id = $1`,
        [audienceId],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('refuses moving a job to no campaign, and deletes the jobs with their campaign', async () => {
    const campaignId = await draftTo(3, 'cascade.example.org');
    const { rows: audience } = await db.pool.query<{ audience_id: string }>('SELECT audience_id FROM campaigns WHERE id = $1', [
      campaignId,
    ]);
    await db.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email) SELECT $1, id, email FROM contacts WHERE audience_id = $2`,
      [campaignId, audience[0]!.audience_id],
    );
    const ids = await jobIds(campaignId);
    expect(ids).toHaveLength(3);
    await expect(db.pool.query('UPDATE campaign_jobs SET campaign_id = -1 WHERE id = $1', [ids[0]])).rejects.toMatchObject({
      code: '23503',
    });
    await db.pool.query('DELETE FROM campaigns WHERE id = $1', [campaignId]);
    const { rows } = await db.pool.query('SELECT 1 FROM campaign_jobs WHERE id = ANY ($1::bigint[])', [ids]);
    expect(rows).toEqual([]);
  });
});
