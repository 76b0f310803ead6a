/**
 * The report's actions through the whole API and the real sending pipeline: RabbitMQ (queues private
 * to this file), the 'campaign-send' consumer, PostgreSQL and a local SES-compatible endpoint that
 * rejects the addresses a test names. Each action is asked several times at once, and every
 * recipient must still get exactly one mail. Then the report's counts are checked against the rows
 * after the sending, SES event and tracking statements have run, many at once.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeedContact } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import {
  CONTACT_HAS_JOB,
  CONTACT_INVALID,
  CONTACT_NOT_FOUND,
  CONTACT_QUEUED,
  CONTACT_SUPPRESSED,
  CONTINUE_FIRST,
  JOB_NOT_FOUND,
  JOB_QUEUED,
  NONE_QUEUED,
  NOT_SENT_QUEUED,
  NOT_SENT_YET,
  NOTHING_TO_RETRY,
  NOTHING_UNCONFIRMED,
  ONLY_FAILED_RETRIED,
  RETRY_ALL_QUEUED,
  unconfirmedQueued,
} from '../../services/reports/report-service.js';
import { sesEventRepository } from '../../services/ses-events/repository.js';
import { trackingRepository } from '../../services/tracking/repository.js';
import { campaignWorkers } from '../../workers/campaigns.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let templateId: number;
/** Addresses SES refuses for good (MessageRejected) while they are in here. */
const rejecting = new Set<string>();

beforeAll(async () => {
  ses = await startSesEndpoint({
    maxSendRate: 200,
    max24HourSend: 100_000,
    intercept: ({ to }) =>
      rejecting.has(to) ? { error: 'MessageRejected', status: 400, message: 'Email address is not verified.' } : undefined,
  });
  t = await createTestApp({
    queue: 'rabbitmq',
    workers: [campaignWorkers],
    env: { SES_ENDPOINT: ses.endpoint, AUTHORIZED_SENDER_EMAILS: 'newsletter@example.org', PUBLIC_URL: 'https://mail.example.org' },
  });
  auth = await bearer();
  templateId = await seedTemplate(t.db.pool, {
    html: '<p>Hello {{email}}</p><a href="https://example.org/a">A</a> <a href="https://example.org/b">B</a>',
  });
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const post = (path: string) => api().post(path).set('Authorization', auth);
const get = (path: string) => api().get(path).set('Authorization', auth);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const contacts = (...emails: string[]): SeedContact[] => emails.map((email) => ({ email, data: {} }));

async function sentCampaign(audienceContacts: SeedContact[], suppressed: string[] = []): Promise<{ id: number; contactIds: number[] }> {
  const audience = await seedAudience(t.db.pool, { headers: [], contacts: audienceContacts });
  for (const email of suppressed) {
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ($1, 'UNSUBSCRIBE')`, [email.toLowerCase()]);
  }
  const created = await post('/api/campaigns').send({ name: 'Report actions', templateId });
  const id = created.body.id as number;
  const saved = await api().put(`/api/campaigns/${id}`).set('Authorization', auth).send({
    name: 'Report actions',
    audienceId: audience.id,
    templateId,
    fromName: 'Example News',
    fromEmail: 'newsletter@example.org',
    subject: 'News',
  });
  expect(saved.status).toBe(200);
  expect((await post(`/api/campaigns/${id}/send`)).status).toBe(202);
  await settled(id);
  return { id, contactIds: audience.contactIds };
}

/** SENT (or ERROR), with no job left to send. */
async function settled(id: number): Promise<{ status: string; jobs_sent: number; jobs_failed: number }> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const { rows } = await t.db.pool.query(
      `SELECT c.status, c.jobs_sent, c.jobs_failed,
              EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = c.id AND j.status IN ('QUEUED', 'SENDING')) AS busy
         FROM campaigns c WHERE c.id = $1`,
      [id],
    );
    const now = rows[0]!;
    if ((now.status === 'SENT' || now.status === 'ERROR') && !now.busy) return now;
    if (Date.now() > deadline) throw new Error(`campaign ${id} still ${now.status}`);
    await sleep(50);
  }
}

const jobOf = async (campaignId: number, email: string) =>
  (await t.db.pool.query('SELECT id, status FROM campaign_jobs WHERE campaign_id = $1 AND email = $2', [campaignId, email])).rows[0] as
    { id: number; status: string } | undefined;

async function report(campaignId: number, query: string) {
  const res = await get(`/api/reports/${campaignId}/email-performance?limit=100&${query}`);
  expect(res.status).toBe(200);
  return res.body as { items: { email: string; status: string; suppressionReason: string | null }[]; meta: { totalItems: number } };
}

/**
 * Asks `times` at once; every answer is a 202 (with `ok` as its message, when given) or, for a
 * request that lost the race, a 409. Answers the 202 bodies.
 */
async function atOnce(path: string, times: number, ok?: string): Promise<unknown[]> {
  const answers = await Promise.all(Array.from({ length: times }, () => post(path)));
  for (const res of answers) {
    if (res.status === 202 && ok !== undefined) expect(res.body).toEqual({ message: ok });
    else if (res.status !== 202) expect(res.status, JSON.stringify(res.body)).toBe(409);
  }
  expect(answers.some((res) => res.status === 202)).toBe(true);
  return answers.filter((res) => res.status === 202).map((res) => res.body as unknown);
}

/** The bodies of a bulk action asked several times at once: one queued the work, the others found none left. */
function oneQueued(bodies: unknown[], queued: object, none: object): void {
  const [first, ...rest] = [...bodies].sort((a, b) => (b as { queued: number }).queued - (a as { queued: number }).queued);
  expect(first).toEqual(queued);
  for (const body of rest) expect(body).toEqual(none);
}

describe('report actions', () => {
  it('need a token', async () => {
    for (const path of ['retry-all-failed-jobs', 'retry-job/1', 'send-to-not-sent', 'send-to-contact/1']) {
      expect((await api().post(`/api/reports/1/${path}`)).status, path).toBe(401);
    }
  });

  it('answer 404 for an unknown campaign and 409 for a draft or a campaign stopped on an error', async () => {
    const paths = ['retry-all-failed-jobs', 'retry-job/1', 'send-to-not-sent', 'send-to-contact/1'];
    for (const path of paths) expect((await post(`/api/reports/999999/${path}`)).status, path).toBe(404);
    const draft = (await post('/api/campaigns').send({ name: 'Draft' })).body.id as number;
    const { id: stopped } = await sentCampaign(contacts('stopped-1@example.org'));
    await t.db.pool.query(`UPDATE campaigns SET status = 'ERROR', error_message = 'Daily quota reached' WHERE id = $1`, [stopped]);
    for (const path of paths) {
      const res = await post(`/api/reports/${draft}/${path}`);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 409, body: { message: NOT_SENT_YET } });
      const error = await post(`/api/reports/${stopped}/${path}`);
      expect({ path, status: error.status, body: error.body }).toEqual({ path, status: 409, body: { message: CONTINUE_FIRST } });
    }
    expect((await get(`/api/campaigns/${draft}`)).body.status).toBe('DRAFT');
    expect((await get(`/api/campaigns/${stopped}`)).body.status).toBe('ERROR');
  });

  it('retries one failed job, once, and refuses a job that is not failed or not of the campaign', async () => {
    rejecting.add('retry-fail-1@example.org').add('retry-fail-2@example.org');
    const { id } = await sentCampaign(contacts('retry-ok@example.org', 'retry-fail-1@example.org', 'retry-fail-2@example.org'));
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 1, jobs_failed: 2 });
    expect((await report(id, 'sendStatus=FAILED')).meta.totalItems).toBe(2);
    rejecting.clear();

    const ok = await jobOf(id, 'retry-ok@example.org');
    expect((await post(`/api/reports/${id}/retry-job/${ok!.id}`)).body).toEqual({ message: ONLY_FAILED_RETRIED });
    expect((await post(`/api/reports/${id}/retry-job/${ok!.id}`)).status).toBe(409);
    expect((await post(`/api/reports/${id}/retry-job/999999`)).body).toEqual({ message: JOB_NOT_FOUND });
    const { id: other } = await sentCampaign(contacts('retry-other@example.org'));
    expect((await post(`/api/reports/${other}/retry-job/${ok!.id}`)).status).toBe(404);

    const failed = await jobOf(id, 'retry-fail-1@example.org');
    await atOnce(`/api/reports/${id}/retry-job/${failed!.id}`, 3, JOB_QUEUED);
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 2, jobs_failed: 1 });
    expect(ses.accepted.get('retry-fail-1@example.org')).toBe(1);
    expect(ses.accepted.get('retry-fail-2@example.org')).toBeUndefined();
    expect((await report(id, 'sendStatus=FAILED')).items.map((r) => r.email)).toEqual(['retry-fail-2@example.org']);
    expect((await post(`/api/reports/${id}/retry-job/${failed!.id}`)).status).toBe(409);

    // Retry all, asked three times at once: the one failed job left is sent once, and the answers say so.
    oneQueued(
      await atOnce(`/api/reports/${id}/retry-all-failed-jobs`, 3),
      { message: `${RETRY_ALL_QUEUED} 1 email queued.`, queued: 1, skipped: 0 },
      { message: NOTHING_TO_RETRY, queued: 0, skipped: 0 },
    );
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 3, jobs_failed: 0 });
    for (const email of ['retry-ok@example.org', 'retry-fail-1@example.org', 'retry-fail-2@example.org']) {
      expect(ses.accepted.get(email), email).toBe(1);
    }
    expect((await report(id, 'sendStatus=FAILED')).meta.totalItems).toBe(0);
    expect((await get(`/api/reports/${id}/overview-stat`)).body).toMatchObject({ jobsSent: 3, jobsFailed: 0, totalContactsCount: 3 });
    // Nothing failed: retrying all again changes nothing, sends nothing, and says there was nothing to retry.
    expect(await atOnce(`/api/reports/${id}/retry-all-failed-jobs`, 1)).toEqual([{ message: NOTHING_TO_RETRY, queued: 0, skipped: 0 }]);
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 3 });
  });

  it('sends to every NOT_SENT contact once, however often it is asked', async () => {
    const { id } = await sentCampaign(
      [
        ...contacts('ns-1@example.org', 'ns-2@example.org', 'NS-Later-1@example.org', 'ns-later-2@example.org'),
        { email: 'ns-bad', error: 'Invalid' },
      ],
      ['ns-later-1@example.org', 'ns-later-2@example.org'],
    );
    // NOT_SENT rows say why they were not sent: suppressed, with the reason.
    expect((await report(id, 'sendStatus=NOT_SENT')).items.map((r) => [r.email, r.status, r.suppressionReason])).toEqual([
      ['NS-Later-1@example.org', 'NOT_SENT', 'UNSUBSCRIBE'],
      ['ns-later-2@example.org', 'NOT_SENT', 'UNSUBSCRIBE'],
    ]);
    expect((await report(id, 'sendStatus=NOT_SENT&email=later-2')).items.map((r) => r.suppressionReason)).toEqual(['UNSUBSCRIBE']);
    // The first one asked to hear from us again; the second is still suppressed, now for a complaint.
    await t.db.pool.query(`DELETE FROM suppressions WHERE email_lower = 'ns-later-1@example.org'`);
    await t.db.pool.query(`UPDATE suppressions SET reason = 'COMPLAINT' WHERE email_lower = 'ns-later-2@example.org'`);
    expect((await report(id, 'sendStatus=NOT_SENT')).items.map((r) => r.suppressionReason)).toEqual([null, 'COMPLAINT']);
    // Asked three times at once: one queues the contact, every answer counts the suppressed one it skipped.
    oneQueued(
      await atOnce(`/api/reports/${id}/send-to-not-sent`, 3),
      {
        message: `${NOT_SENT_QUEUED} 1 email queued, 1 suppressed contact skipped (unsubscribed, bounced or complained).`,
        queued: 1,
        skipped: 1,
      },
      {
        message: `${NONE_QUEUED} 0 emails queued, 1 suppressed contact skipped (unsubscribed, bounced or complained).`,
        queued: 0,
        skipped: 1,
      },
    );
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 3 });
    for (const email of ['ns-1@example.org', 'ns-2@example.org', 'NS-Later-1@example.org']) expect(ses.accepted.get(email), email).toBe(1);
    expect(ses.calls.get('ns-later-2@example.org')).toBeUndefined();
    const notSent = await report(id, 'sendStatus=NOT_SENT');
    expect(notSent.items.map((r) => [r.email, r.suppressionReason])).toEqual([['ns-later-2@example.org', 'COMPLAINT']]);
    expect(notSent.meta.totalItems).toBe(1);
    // Jobs' rows carry no suppression reason (their own bounce or complaint says what happened).
    expect((await report(id, 'sendStatus=SENT_WAIT_ACK')).items.map((r) => r.suppressionReason)).toEqual([null, null, null]);
    expect((await get(`/api/reports/${id}/overview-stat`)).body).toMatchObject({ jobsSent: 3, totalContactsCount: 3 });
  });

  it('sends to NOT_SENT while a worker holds a sent job and waits for the campaign, without a deadlock', async () => {
    const { id } = await sentCampaign(contacts('held-1@example.org', 'held-later@example.org'), ['held-later@example.org']);
    await t.db.pool.query(`DELETE FROM suppressions WHERE email_lower = 'held-later@example.org'`);
    const held = (await jobOf(id, 'held-1@example.org'))!;
    // A worker's claim or record: the job's row updated first, the campaign row (count trigger) after.
    // Without triggers here, so the campaign is taken only when this test says.
    const worker = await t.db.pool.connect();
    try {
      await worker.query('BEGIN');
      await worker.query(`SET LOCAL session_replication_role = replica`);
      await worker.query(`SET LOCAL lock_timeout = '10s'`);
      await worker.query('UPDATE campaign_jobs SET updated_at = now() WHERE id = $1', [held.id]);
      const answer = post(`/api/reports/${id}/send-to-not-sent`).then((res) => res);
      // The dispatch holds the campaign row by now; the worker asks for it.
      await sleep(300);
      await worker.query('SELECT 1 FROM campaigns WHERE id = $1 FOR NO KEY UPDATE', [id]);
      await worker.query('ROLLBACK');
      const res = await answer;
      expect(res.status, JSON.stringify(res.body)).toBe(202);
    } finally {
      worker.release();
    }
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 2 });
    expect(ses.accepted.get('held-later@example.org')).toBe(1);
    expect(ses.accepted.get('held-1@example.org')).toBe(1);
  });

  it('sends to one NOT_SENT contact once, and refuses a contact with a job, an invalid, suppressed or foreign one', async () => {
    const { id, contactIds } = await sentCampaign(
      [...contacts('one-sent@example.org', 'one-later@example.org'), { email: 'one-bad', error: 'Invalid' }],
      ['one-later@example.org'],
    );
    const [sentTo, later, bad] = contactIds as [number, number, number];
    const { contactIds: foreign } = await seedAudience(t.db.pool, { headers: [], contacts: contacts('one-foreign@example.org') });
    const answers = async (contactId: number) => {
      const res = await post(`/api/reports/${id}/send-to-contact/${contactId}`);
      return { status: res.status, body: res.body };
    };
    expect(await answers(sentTo)).toEqual({ status: 409, body: { message: CONTACT_HAS_JOB } });
    expect(await answers(later)).toEqual({ status: 409, body: { message: CONTACT_SUPPRESSED } });
    expect(await answers(bad)).toEqual({ status: 409, body: { message: CONTACT_INVALID } });
    expect(await answers(foreign[0]!)).toEqual({ status: 404, body: { message: CONTACT_NOT_FOUND } });
    expect(await answers(999_999)).toEqual({ status: 404, body: { message: CONTACT_NOT_FOUND } });

    await t.db.pool.query(`DELETE FROM suppressions WHERE email_lower = 'one-later@example.org'`);
    await atOnce(`/api/reports/${id}/send-to-contact/${later}`, 3, CONTACT_QUEUED);
    expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 2 });
    expect(ses.accepted.get('one-later@example.org')).toBe(1);
    expect(ses.accepted.get('one-sent@example.org')).toBe(1);
    expect(await answers(later)).toEqual({ status: 409, body: { message: CONTACT_HAS_JOB } });
    expect((await report(id, 'sendStatus=NOT_SENT')).meta.totalItems).toBe(0);
  });

  it('keeps the counts the filters read equal to the rows, under sends, SES events and tracking at once', async () => {
    rejecting.add('counted-3@example.org');
    const emails = Array.from({ length: 24 }, (_, n) => `counted-${n}@example.org`);
    const { id } = await sentCampaign(contacts(...emails));
    rejecting.clear();
    const jobs = (
      await t.db.pool.query<{ id: number; email: string; ses_message_id: string | null }>(
        'SELECT id, email, ses_message_id FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id',
        [id],
      )
    ).rows;
    const links = (await t.db.pool.query<{ id: number }>('SELECT id FROM campaign_links WHERE campaign_id = $1 AND NOT hidden', [id])).rows;
    expect(links).toHaveLength(2);
    const events = sesEventRepository(t.deps.db);
    const tracking = trackingRepository(t.deps.db);
    const at = new Date('2024-06-01T00:00:00Z');
    // Everything that moves a job, many at once, while a retry sends the failed one again.
    await Promise.all([
      post(`/api/reports/${id}/retry-all-failed-jobs`),
      ...jobs.flatMap((job, n) => {
        const work: Promise<unknown>[] = [];
        const message = job.ses_message_id;
        if (message && n % 2 === 0) work.push(t.deps.db.transaction((tx) => events.delivered(tx, message)));
        if (message && n % 5 === 1)
          work.push(t.deps.db.transaction((tx) => events.bounced(tx, message, { type: 'HARD', message: 'gone', time: at })));
        if (message && n % 5 === 2)
          work.push(t.deps.db.transaction((tx) => events.bounced(tx, message, { type: 'SOFT', message: 'full', time: at })));
        if (message && n % 7 === 0) work.push(t.deps.db.transaction((tx) => events.complained(tx, message, { type: 'abuse', time: at })));
        // People and machines (bots every other job) mixed.
        const machineReason = n % 2 === 1 ? ('bot-user-agent' as const) : null;
        for (let k = 0; k < n % 4; k++)
          work.push(
            tracking.recordHits([{ jobId: job.id, linkId: null, userAgent: 'test', at: new Date(), clientIp: null, machineReason }]),
          );
        if (n % 3 === 0)
          work.push(
            tracking.recordHits([
              { jobId: job.id, linkId: links[n % 2]!.id, userAgent: 'test', at: new Date(), clientIp: null, machineReason },
            ]),
            tracking.recordHits([
              { jobId: job.id, linkId: links[0]!.id, userAgent: 'test', at: new Date(), clientIp: null, machineReason: null },
            ]),
          );
        return work;
      }),
    ]);
    await settled(id);

    const { rows: counted } = await t.db.pool.query(
      `SELECT campaign_id, status, bounce_type, opened, clicked, human_opened, human_clicked, jobs::int FROM campaign_job_counts
        WHERE jobs <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    );
    const { rows: actual } = await t.db.pool.query(
      `SELECT campaign_id, status, coalesce(bounce_type, 'NONE') AS bounce_type, opened_at IS NOT NULL AS opened,
              clicked_at IS NOT NULL AS clicked, human_opened_at IS NOT NULL AS human_opened,
              human_clicked_at IS NOT NULL AS human_clicked, count(*)::int AS jobs
         FROM campaign_jobs GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    );
    expect(counted).toEqual(actual);
    expect(actual.filter((row) => row.campaign_id === id).length).toBeGreaterThan(4);
    // And every filter of the report reads them: the same totals as counting the rows.
    for (const [query, where] of [
      ['sendStatus=SENT_SUCCESS', `status = 'SENT_SUCCESS'`],
      ['sendStatus=SENT_WAIT_ACK', `status = 'SENT_WAIT_ACK'`],
      ['bounceStatus=HARD', `bounce_type = 'HARD'`],
      ['bounceStatus=SOFT&opened=true', `bounce_type = 'SOFT' AND opened_at IS NOT NULL`],
      ['clicked=true', 'clicked_at IS NOT NULL'],
      ['opened=false', 'opened_at IS NULL'],
    ]) {
      const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1 AND ${where}`, [id]);
      expect({ query, total: (await report(id, query!)).meta.totalItems }).toEqual({ query, total: rows[0]!.n });
    }
    const campaign = (await get(`/api/campaigns/${id}`)).body;
    expect((await report(id, 'clicked=true')).meta.totalItems).toBe(campaign.uniqueClicks);
    expect((await report(id, 'opened=true')).meta.totalItems).toBe(campaign.uniqueOpens);
  });
});

describe('resend unconfirmed (an addition to the spec)', () => {
  it('needs a token, a campaign that exists and one that is sending or sent', async () => {
    expect((await api().post('/api/reports/1/resend-unconfirmed')).status).toBe(401);
    expect((await post('/api/reports/999999/resend-unconfirmed')).status).toBe(404);
    const draft = (await post('/api/campaigns').send({ name: 'Draft' })).body.id as number;
    expect((await post(`/api/reports/${draft}/resend-unconfirmed`)).body).toEqual({ message: NOT_SENT_YET });
  });

  it('sends again only the UNKNOWN jobs unconfirmed for an hour, once however often it is asked', async () => {
    const { id } = await sentCampaign(contacts('unc-old@example.org', 'unc-new@example.org', 'unc-sent@example.org'));
    expect(ses.accepted.get('unc-old@example.org')).toBe(1);
    // Two mails whose outcome was lost: one claimed two hours ago, one ten minutes ago.
    await t.db.pool.query(
      `UPDATE campaign_jobs SET status = 'UNKNOWN', ses_message_id = NULL, error_message = 'lost', claimed_at = now() - $3::interval
        WHERE campaign_id = $1 AND email = $2`,
      [id, 'unc-old@example.org', '2 hours'],
    );
    await t.db.pool.query(
      `UPDATE campaign_jobs SET status = 'UNKNOWN', ses_message_id = NULL, error_message = 'lost', claimed_at = now() - $3::interval
        WHERE campaign_id = $1 AND email = $2`,
      [id, 'unc-new@example.org', '10 minutes'],
    );
    expect((await get(`/api/reports/${id}/overview-stat`)).body).toMatchObject({
      jobsUnknown: 2,
      jobsUnconfirmed: 1,
      unconfirmedResendAfterMinutes: 60,
    });

    const answers = await Promise.all(Array.from({ length: 3 }, () => post(`/api/reports/${id}/resend-unconfirmed`)));
    const messages = answers.filter((res) => res.status === 202).map((res) => res.body.message as string);
    expect(answers.every((res) => res.status === 202 || res.status === 409)).toBe(true);
    expect(messages).toContain(unconfirmedQueued(1));
    expect(messages.filter((m) => m === unconfirmedQueued(1))).toHaveLength(1);
    await settled(id);
    expect(ses.accepted.get('unc-old@example.org')).toBe(2);
    expect(ses.accepted.get('unc-new@example.org')).toBe(1);
    expect(ses.accepted.get('unc-sent@example.org')).toBe(1);
    expect(await jobOf(id, 'unc-old@example.org')).toMatchObject({ status: 'SENT_WAIT_ACK' });
    expect(await jobOf(id, 'unc-new@example.org')).toMatchObject({ status: 'UNKNOWN' });
    expect((await get(`/api/reports/${id}/overview-stat`)).body).toMatchObject({ jobsUnknown: 1, jobsUnconfirmed: 0 });
    expect((await post(`/api/reports/${id}/resend-unconfirmed`)).body).toEqual({ message: NOTHING_UNCONFIRMED, queued: 0, skipped: 0 });
  });
});
