/**
 * An erasure against what else is going on (issue 24), on the real PostgreSQL: a send in progress (a
 * queued mail fails and is never claimed; a claimed one makes the erasure refuse; a send that creates a
 * mail for the address while the erasure waits is caught), SES events arriving for a mail sent before
 * (nothing stored under the address again), a retry of failed mails, a follow-up's frozen recipients,
 * and the unsubscribe page of an old mail.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { placesHolding } from '../../../test/support/people.js';
import { seedAudience } from '../../../test/support/seed.js';
import { DomainError } from '../errors.js';
import { claimRepository } from '../sending/claim-repository.js';
import { dispatchRepository } from '../sending/dispatch-repository.js';
import { sesEventRepository } from '../ses-events/repository.js';
import { trackingRepository } from '../tracking/repository.js';
import { NOT_SENT_ERASED } from './erasure-repository.js';
import { MAIL_BEING_SENT, type PeopleService } from './people-service.js';

let t: TestApp;
let people: PeopleService;
const mia = { email: 'mia@example.org' };

beforeAll(async () => {
  t = await createTestApp();
  people = t.deps.services.people;
});
afterAll(() => t?.close());

/** An audience of `emails` and a SENDING campaign with a mail to each, in `status`. */
async function sending(emails: string[], status: Record<string, string> = {}) {
  const audience = await seedAudience(t.db.pool, { headers: [], contacts: emails.map((email) => ({ email })) });
  const { rows } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaigns (name, status, audience_id, contact_count) VALUES ('Mid-send', 'SENDING', $1, $2) RETURNING id`,
    [audience.id, emails.length],
  );
  const campaignId = rows[0]!.id;
  const { rows: jobs } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, claimed_at, claim_token)
     SELECT $1, c.id, c.email, coalesce($3::jsonb ->> c.email, 'QUEUED'),
            CASE WHEN $3::jsonb ->> c.email = 'SENDING' THEN now() END, CASE WHEN $3::jsonb ->> c.email = 'SENDING' THEN $4::uuid END
       FROM unnest($2::bigint[]) WITH ORDINALITY AS i(id, n) JOIN contacts c ON c.id = i.id ORDER BY i.n
     RETURNING id`,
    [campaignId, audience.contactIds, JSON.stringify(status), randomUUID()],
  );
  return { audienceId: audience.id, campaignId, jobIds: jobs.map((job) => job.id) };
}

const jobRow = async (id: number) =>
  (await t.db.pool.query(`SELECT email, status, error_message FROM campaign_jobs WHERE id = $1`, [id])).rows[0] as {
    email: string;
    status: string;
    error_message: string | null;
  };

describe('an erasure in the middle of a send', () => {
  it('fails a queued mail with the reason, counts it, and no worker claims it after', async () => {
    const { campaignId, jobIds } = await sending(['queued.one@example.net', 'other.one@example.net']);
    const erased = await people.erase('Queued.One@example.net', mia);
    expect(erased).toMatchObject({ mails: 1, contacts: 1 });
    expect(await jobRow(jobIds[0]!)).toEqual({
      email: expect.stringMatching(/^erased:[0-9a-f]{64}@example\.net$/),
      status: 'FAILED',
      error_message: NOT_SENT_ERASED,
    });
    const { rows } = await t.db.pool.query(`SELECT jobs_failed FROM campaigns WHERE id = $1`, [campaignId]);
    expect(rows[0]).toEqual({ jobs_failed: 1 });
    // The worker's message still names the job: its claim finds it taken, and the other one is sent.
    const claimed = await claimRepository(t.deps.db).claim(campaignId, jobIds, randomUUID());
    expect(claimed.map((job) => job.email)).toEqual(['other.one@example.net']);
    // A retry of the failed mails leaves it failed: it holds no address any more.
    const requeued = await t.deps.db.transaction((tx) => dispatchRepository(t.deps.db).requeue(tx, campaignId, 'failed'));
    expect(requeued.ids).toEqual([]);
  });

  it('refuses while a worker holds one of its mails, and changes nothing', async () => {
    const { audienceId, jobIds } = await sending(['claimed@example.net'], { 'claimed@example.net': 'SENDING' });
    const refused = await people.erase('claimed@example.net', mia).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: 'conflict', message: MAIL_BEING_SENT });
    expect(await jobRow(jobIds[0]!)).toMatchObject({ email: 'claimed@example.net', status: 'SENDING' });
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM contacts WHERE audience_id = $1`, [audienceId]);
    expect(rows[0]).toEqual({ n: 1 });
    const { rows: key } = await t.db.pool.query<{ key: string }>(`SELECT erased_key('claimed@example.net') AS key`);
    expect(await placesHolding(t.db.pool, key[0]!.key)).toEqual([]);
  });

  it('waits for a send that holds a campaign of its audience, and erases the mail that send created', async () => {
    const { audienceId, campaignId } = await sending(['late@example.net']);
    await t.db.pool.query(`DELETE FROM campaign_jobs WHERE campaign_id = $1`, [campaignId]);
    const dispatch = await t.db.pool.connect();
    try {
      // A send's dispatch: the campaign row first, then its mails, committed after the erasure began.
      await dispatch.query('BEGIN');
      await dispatch.query('SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE', [campaignId]);
      const erasing = people.erase('late@example.net', mia);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await dispatch.query(
        `INSERT INTO campaign_jobs (campaign_id, contact_id, email) SELECT $1, id, email FROM contacts WHERE audience_id = $2`,
        [campaignId, audienceId],
      );
      await dispatch.query('COMMIT');
      expect(await erasing).toMatchObject({ mails: 1, contacts: 1 });
    } finally {
      dispatch.release();
    }
    expect(await placesHolding(t.db.pool, 'late@example.net')).toEqual([]);
    const { rows } = await t.db.pool.query(`SELECT status FROM campaign_jobs WHERE campaign_id = $1`, [campaignId]);
    expect(rows).toEqual([{ status: 'FAILED' }]);
  });
});

describe('after an erasure', () => {
  it('stores nothing under the address when SES reports on a mail sent before', async () => {
    const { campaignId, jobIds } = await sending(['bounced@example.net'], { 'bounced@example.net': 'SENT_WAIT_ACK' });
    await t.db.pool.query(`UPDATE campaign_jobs SET ses_message_id = 'ses-late' WHERE id = $1`, [jobIds[0]]);
    await people.erase('bounced@example.net', mia);
    const ses = sesEventRepository(t.deps.db);
    await t.deps.db.transaction(async (tx) => {
      await ses.bounced(tx, 'ses-late', { type: 'HARD', message: '550 5.1.1 <bounced@example.net>: no such user', time: new Date() });
      await ses.suppress(tx, ['Bounced@example.net'], 'HARD_BOUNCE', campaignId);
      await ses.countSoftBounces(tx, ['bounced@example.net'], 'ses-late', 1, campaignId);
      await ses.complained(tx, 'ses-late', { type: 'abuse', time: new Date() });
      await ses.suppress(tx, ['bounced@example.net'], 'COMPLAINT', campaignId);
    });
    expect(await placesHolding(t.db.pool, 'bounced@example.net')).toEqual([]);
    const { rows } = await t.db.pool.query(`SELECT bounce_type, bounce_message, complaint_type FROM campaign_jobs WHERE id = $1`, [
      jobIds[0],
    ]);
    // The outcome still counts; the text that named the address is not kept.
    expect(rows[0]).toEqual({ bounce_type: 'HARD', bounce_message: null, complaint_type: 'abuse' });
  });

  it("drops the person from a follow-up's frozen recipients, keeping them numbered densely", async () => {
    const audience = await seedAudience(t.db.pool, {
      headers: [],
      contacts: ['a@example.net', 'frozen@example.net', 'b@example.net', 'c@example.net'].map((email) => ({ email })),
    });
    const { rows } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaigns (name, status, audience_id, follow_up_recipients, follow_up_count) VALUES ('Follow-up', 'DRAFT', $1, 'NOT_OPENED', 4)
       RETURNING id`,
      [audience.id],
    );
    const followUp = rows[0]!.id;
    await t.db.pool.query(
      `INSERT INTO follow_up_recipients (campaign_id, seq, contact_id) SELECT $1, n, id FROM unnest($2::bigint[]) WITH ORDINALITY AS r(id, n)`,
      [followUp, audience.contactIds],
    );
    await people.erase('frozen@example.net', mia);
    const { rows: recipients } = await t.db.pool.query(
      `SELECT r.seq, c.email FROM follow_up_recipients r JOIN contacts c ON c.id = r.contact_id WHERE r.campaign_id = $1 ORDER BY r.seq`,
      [followUp],
    );
    expect(recipients).toEqual([
      { seq: 1, email: 'a@example.net' },
      { seq: 2, email: 'c@example.net' },
      { seq: 3, email: 'b@example.net' },
    ]);
    const { rows: count } = await t.db.pool.query(`SELECT follow_up_count FROM campaigns WHERE id = $1`, [followUp]);
    expect(count[0]).toEqual({ follow_up_count: 3 });
  });

  it("says on an old mail's unsubscribe page that the address is not mailed", async () => {
    const { jobIds } = await sending(['unsub@example.net'], { 'unsub@example.net': 'SENT_SUCCESS' });
    const tracking = trackingRepository(t.deps.db);
    expect(await tracking.unsubscribeStatus(jobIds[0]!)).toBe('subscribed');
    await people.erase('unsub@example.net', mia);
    expect(await tracking.unsubscribeStatus(jobIds[0]!)).toBe('unsubscribed');
    // Unsubscribing through it adds nothing: the erased key is there already.
    expect((await tracking.unsubscribe(jobIds[0]!)).added).toBeNull();
  });
});
