/**
 * Follow-ups (an addition to the spec) through the whole API and the real sending pipeline
 * (RabbitMQ, the 'campaign-send' consumer, PostgreSQL, a local SES-compatible endpoint): who a
 * follow-up goes to (mailed, not opened or not clicked by a person, not suppressed), frozen when it is
 * made; its recipients, validation and send read that one set; a follow-up of a follow-up; the errors.
 * Opens and clicks by people are set straight in campaign_jobs (human_opened_at, human_clicked_at),
 * as the tracking does; an open by a machine only (opened_at) must not count.
 */
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeedContact } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { FOLLOW_UP_AUDIENCE } from '../../services/campaigns/campaign-service.js';
import { NOT_A_FOLLOW_UP, ONLY_SENT_FOLLOWED_UP } from '../../services/campaigns/follow-up-service.js';
import { CONTACT_NOT_RECIPIENT } from '../../services/reports/report-service.js';
import { campaignWorkers } from '../../workers/campaigns.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let templateId: number;
/** Addresses SES refuses for good while they are in here (their jobs FAIL: never mailed). */
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
  templateId = await seedTemplate(t.db.pool, { html: '<p>Hello {{firstName}}</p><a href="https://example.org/a">A</a>' });
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const post = (path: string) => api().post(path).set('Authorization', auth);
const get = (path: string) => api().get(path).set('Authorization', auth);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const people = (prefix: string, count: number): SeedContact[] =>
  Array.from({ length: count }, (_, n) => ({ email: `${prefix}-${n}@example.org`, data: { firstName: n % 2 ? `F${n}` : '' } }));

async function draft(name: string, audienceId: number): Promise<number> {
  const id = (await post('/api/campaigns').send({ name, templateId })).body.id as number;
  const saved = await api()
    .put(`/api/campaigns/${id}`)
    .set('Authorization', auth)
    .send({ name, audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Autumn' });
  expect(saved.status).toBe(200);
  return id;
}

async function send(id: number): Promise<{ message: string }> {
  const res = await post(`/api/campaigns/${id}/send`);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const deadline = Date.now() + 40_000;
  for (;;) {
    const { rows } = await t.db.pool.query(
      `SELECT c.status, EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = c.id AND j.status IN ('QUEUED', 'SENDING')) AS busy
         FROM campaigns c WHERE c.id = $1`,
      [id],
    );
    if (rows[0].status === 'SENT' && !rows[0].busy) return res.body as { message: string };
    if (Date.now() > deadline) throw new Error(`campaign ${id} still ${rows[0].status}`);
    await sleep(50);
  }
}

/** The addresses of the campaign's jobs, sorted. */
const jobEmails = async (campaignId: number): Promise<string[]> =>
  (await t.db.pool.query('SELECT email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY email', [campaignId])).rows.map(
    (row: { email: string }) => row.email,
  );

/** Marks the given addresses' jobs of the campaign with a column (a person's open or click, or a machine's open). */
async function mark(campaignId: number, column: 'human_opened_at' | 'human_clicked_at' | 'opened_at', emails: string[]) {
  await t.db.pool.query(`UPDATE campaign_jobs SET ${column} = now() WHERE campaign_id = $1 AND email = ANY($2::text[])`, [
    campaignId,
    emails,
  ]);
}

const emails = (prefix: string, ns: number[]) => ns.map((n) => `${prefix}-${n}@example.org`);

describe('follow-ups', () => {
  it('goes only to the mailed contacts no person opened, leaves the suppressed out, and drops at send who opened since', async () => {
    // 0-9 valid; 10 invalid (never mailed); 8 is refused by SES (FAILED, not mailed); 9 suppressed after the send.
    const contacts = [...people('fu', 10), { email: 'fu-bad@example.org', error: 'Duplicate email address in this audience' }];
    const audience = await seedAudience(t.db.pool, { headers: ['firstName'], contacts });
    const original = await draft('Autumn news', audience.id);
    rejecting.add('fu-8@example.org');
    await send(original);
    rejecting.clear();
    // People opened 0-2; a machine only opened 3 and 4 (they count as not opened); a person clicked 0 and 5.
    await mark(original, 'human_opened_at', emails('fu', [0, 1, 2]));
    await mark(original, 'opened_at', emails('fu', [0, 1, 2, 3, 4]));
    await mark(original, 'human_clicked_at', emails('fu', [0, 5]));
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('fu-9@example.org', 'UNSUBSCRIBE')`);

    const made = await post(`/api/campaigns/${original}/follow-up`).send({ recipients: 'NOT_OPENED' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Autumn news (follow-up)',
      status: 'DRAFT',
      audienceId: audience.id,
      templateId,
      subject: 'Autumn',
      fromEmail: 'newsletter@example.org',
      followUp: { campaignId: original, campaignName: 'Autumn news', recipients: 'NOT_OPENED', recipientCount: 5 },
    });
    const followUp = made.body.id as number;
    expect((await get(`/api/campaigns/${followUp}`)).body.followUp.recipientCount).toBe(5);

    const notClicked = await post(`/api/campaigns/${original}/follow-up`).send({ recipients: 'NOT_CLICKED' });
    expect(notClicked.body.followUp).toMatchObject({ recipients: 'NOT_CLICKED', recipientCount: 6 });
    const clickedPage = await get(`/api/campaigns/${notClicked.body.id}/recipients?limit=100`);
    expect(clickedPage.body.items.map((c: { email: string }) => c.email)).toEqual(emails('fu', [1, 2, 3, 4, 6, 7]));

    // The preview's recipients, paged in the original's order.
    const first = await get(`/api/campaigns/${followUp}/recipients?page=1&limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ currentPage: 1, itemCount: 3, itemsPerPage: 3, totalItems: 5, totalPages: 2 });
    expect(first.body.items.map((c: { email: string }) => c.email)).toEqual(emails('fu', [3, 4, 5]));
    const second = await get(`/api/campaigns/${followUp}/recipients?page=2&limit=3`);
    expect(second.body.items.map((c: { email: string }) => c.email)).toEqual(emails('fu', [6, 7]));

    // Validation scans the recipients only: 3, 5 and 7 have a first name; 4 and 6 lack it.
    const body = { templateId, audienceId: audience.id, campaignId: followUp };
    const validated = await post('/api/campaigns/validate-campaign').send(body);
    expect(validated.status).toBe(200);
    expect(validated.body.map((r: { email: string }) => r.email)).toEqual(emails('fu', [4, 6]));
    const whole = await post('/api/campaigns/validate-campaign').send({ templateId, audienceId: audience.id });
    expect(whole.body.map((r: { email: string }) => r.email)).toEqual(emails('fu', [0, 2, 4, 6, 8]));

    // A person opens 3 after the follow-up was made (a machine opening 4 counts for nothing): the
    // confirmation's count says so, and the send leaves 3 out.
    await mark(original, 'human_opened_at', emails('fu', [3]));
    await mark(original, 'opened_at', emails('fu', [4]));
    const reached = await get(`/api/campaigns/${followUp}/reached-recipients`);
    expect({ status: reached.status, body: reached.body }).toEqual({ status: 200, body: { reachedRecipients: 1 } });
    expect((await get(`/api/campaigns/${notClicked.body.id as number}/reached-recipients`)).body).toEqual({ reachedRecipients: 0 });
    expect((await get(`/api/campaigns/${original}/reached-recipients`)).status).toBe(404);
    // The follow-up's audience cannot change; the rest of the draft can.
    const other = await seedAudience(t.db.pool, { headers: [], contacts: people('other', 1) });
    const moved = await api()
      .put(`/api/campaigns/${followUp}`)
      .set('Authorization', auth)
      .send({ name: 'Autumn news again', audienceId: other.id });
    expect({ status: moved.status, message: moved.body.message }).toEqual({ status: 409, message: FOLLOW_UP_AUDIENCE });

    // 6 unsubscribes after the follow-up was made: the send skips it, as every send skips the suppressed.
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('fu-6@example.org', 'COMPLAINT')`);
    const before = ses.acceptedTotal();
    const sent = await send(followUp);
    expect(sent.message).toBe(
      'The campaign is being sent. 1 recipient opened “Autumn news” since the follow-up was made and was left out.',
    );
    expect(await jobEmails(followUp)).toEqual(emails('fu', [4, 5, 7]));
    expect(ses.acceptedTotal() - before).toBe(3);
    for (const email of emails('fu', [4, 5, 7])) expect(ses.countFor(email)).toBe(2);
    for (const email of emails('fu', [0, 1, 2, 3, 6, 8, 9])) expect(ses.countFor(email)).toBeLessThanOrEqual(1);
    // The recipients are those it went to now, still numbered densely in the original's order.
    expect((await get(`/api/campaigns/${followUp}`)).body).toMatchObject({
      status: 'SENT',
      contactCount: 3,
      followUp: { recipientCount: 4 },
    });
    const kept = await t.db.pool.query('SELECT seq FROM follow_up_recipients WHERE campaign_id = $1 ORDER BY seq', [followUp]);
    expect(kept.rows.map((row: { seq: number }) => row.seq)).toEqual([1, 2, 3, 4]);
    expect((await get(`/api/campaigns/${followUp}/recipients?limit=10`)).body.items.map((c: { email: string }) => c.email)).toEqual(
      emails('fu', [4, 5, 6, 7]),
    );
    const logged = await t.db.pool.query(`SELECT details FROM activity WHERE kind = 'send' AND object_id = $1`, [followUp]);
    expect(logged.rows[0].details).toMatchObject({ droppedRecipients: 1 });

    // A follow-up of the follow-up: its original's jobs (4, 5, 7) are exactly its recipients; 5 opened it.
    await mark(followUp, 'human_opened_at', emails('fu', [5]));
    const again = await post(`/api/campaigns/${followUp}/follow-up`).send({ recipients: 'NOT_OPENED' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      name: 'Autumn news (follow-up) (follow-up)',
      followUp: { campaignId: followUp, campaignName: 'Autumn news (follow-up)', recipientCount: 2 },
    });
    const plain = await send(again.body.id as number);
    expect(plain.message).toBe('The campaign is being sent.');
    expect(await jobEmails(again.body.id as number)).toEqual(emails('fu', [4, 7]));
    // Continue and "send to NOT_SENT" of a follow-up stay within its recipients too.
    const notSent = await post(`/api/reports/${again.body.id as number}/send-to-not-sent`);
    expect(notSent.status).toBe(202);
    expect(notSent.body.queued).toBe(0);
    expect(await jobEmails(again.body.id as number)).toEqual(emails('fu', [4, 7]));

    // A follow-up deleted takes its recipients with it.
    const dropped = notClicked.body.id as number;
    expect((await api().delete(`/api/campaigns/${dropped}`).set('Authorization', auth)).status).toBe(204);
    const left = await t.db.pool.query('SELECT count(*)::int AS n FROM follow_up_recipients WHERE campaign_id = $1', [dropped]);
    expect(left.rows[0].n).toBe(0);
    // The original deleted: the follow-up still names it.
    expect((await api().delete(`/api/campaigns/${original}`).set('Authorization', auth)).status).toBe(204);
    expect((await get(`/api/campaigns/${followUp}`)).body.followUp).toEqual({
      campaignId: null,
      campaignName: 'Autumn news',
      recipients: 'NOT_OPENED',
      recipientCount: 4,
    });
  });

  it("reports a follow-up's recipients as its contacts: NOT_SENT, its search, paging and export, the counts, send to contact", async () => {
    // 0-11 valid, one invalid. People open 0 and 1: the follow-up's recipients are 2-11.
    const audience = await seedAudience(t.db.pool, {
      headers: ['firstName'],
      contacts: [...people('nr', 12), { email: 'nr-bad@example.org', error: 'Invalid email address' }],
    });
    const contactOf = (n: number) => audience.contactIds[n]!;
    const original = await draft('Winter news', audience.id);
    await send(original);
    await mark(original, 'human_opened_at', emails('nr', [0, 1]));
    const followUp = (await post(`/api/campaigns/${original}/follow-up`).send({ recipients: 'NOT_OPENED' })).body.id as number;
    // 3, 5, 8, 9 and 10 unsubscribe before it is sent, so it goes to 2, 4, 6, 7 and 11; then all but 10 come back.
    const suppressed = emails('nr', [3, 5, 8, 9, 10]);
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) SELECT unnest($1::text[]), 'UNSUBSCRIBE'`, [suppressed]);
    await send(followUp);
    expect(await jobEmails(followUp)).toEqual(emails('nr', [11, 2, 4, 6, 7]));
    await t.db.pool.query(`DELETE FROM suppressions WHERE email_lower = ANY($1::text[]) AND email_lower <> 'nr-10@example.org'`, [
      suppressed,
    ]);

    type Row = { id: number | null; email: string; status: string; suppressionReason: string | null };
    const notSent = async (query: string) => {
      const res = await get(`/api/reports/${followUp}/email-performance?sendStatus=NOT_SENT&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { emails: (res.body.items as Row[]).map((row) => row.email), rows: res.body.items as Row[], meta: res.body.meta };
    };
    // The recipients without a job, in the recipients' order: not the openers (0, 1), not the invalid contact.
    const all = await notSent('limit=100');
    expect(all.emails).toEqual(emails('nr', [3, 5, 8, 9, 10]));
    expect(all.meta).toMatchObject({ totalItems: 5, itemCount: 5 });
    expect(all.rows.every((row) => row.id === null && row.status === 'NOT_SENT')).toBe(true);
    expect(all.rows.map((row) => row.suppressionReason)).toEqual([null, null, null, null, 'UNSUBSCRIBE']);
    // Paged from either end: the first page, one in the middle (read from the end), the last.
    expect(await notSent('page=1&limit=2')).toMatchObject({ emails: emails('nr', [3, 5]), meta: { totalItems: 5, totalPages: 3 } });
    expect((await notSent('page=2&limit=2')).emails).toEqual(emails('nr', [8, 9]));
    expect(await notSent('page=3&limit=2')).toMatchObject({ emails: emails('nr', [10]), meta: { itemCount: 1, totalItems: 5 } });
    // The streamed large page the spec's client asks for holds the same rows.
    expect((await notSent('page=1&limit=999999')).emails).toEqual(all.emails);
    // An email search stays exact: 'nr-1' matches 1 (an opener), 10 and 11 (sent to); only 10 is NOT_SENT.
    expect(await notSent('email=nr-1')).toMatchObject({ emails: emails('nr', [10]), meta: { totalItems: 1 } });
    expect(await notSent('email=NR-&page=2&limit=2')).toMatchObject({ emails: emails('nr', [8, 9]), meta: { totalItems: 5 } });
    expect((await notSent('email=nr-0')).meta.totalItems).toBe(0);

    // The export of NOT_SENT: the same rows.
    const exported = await get(`/api/reports/${followUp}/export-email-performance?sendStatus=NOT_SENT`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(exported.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.body as ArrayBuffer);
    const column = workbook.getWorksheet('Email performance')!.getColumn(1).values.slice(1);
    expect(column.map((cell) => (cell as ExcelJS.CellRichTextValue).richText.map((part) => part.text).join(''))).toEqual([
      'Email',
      ...emails('nr', [3, 5, 8, 9, 10]),
    ]);

    // The counts: the jobs made from the recipients, never the audience's 12 valid contacts.
    const counts = async () => {
      const stats = (await get(`/api/reports/${followUp}/overview-stat`)).body;
      const listed = (await get('/api/campaigns?limit=100')).body.data.items.find((c: { id: number }) => c.id === followUp);
      return { totalContactsCount: stats.totalContactsCount, jobsSent: stats.jobsSent, listed: listed.contactCount };
    };
    expect(await counts()).toEqual({ totalContactsCount: 5, jobsSent: 5, listed: 5 });

    // Send to contact: an opener is no recipient of the follow-up (404, no job); a recipient without a job is sent to.
    const opener = await post(`/api/reports/${followUp}/send-to-contact/${contactOf(0)}`);
    expect({ status: opener.status, message: opener.body.message }).toEqual({ status: 404, message: CONTACT_NOT_RECIPIENT });
    expect(await jobEmails(followUp)).not.toContain('nr-0@example.org');
    expect((await post(`/api/reports/${followUp}/send-to-contact/${contactOf(3)}`)).status).toBe(202);
    expect((await post(`/api/reports/${followUp}/send-to-contact/${contactOf(3)}`)).status).toBe(409);
    expect((await notSent('limit=100')).emails).toEqual(emails('nr', [5, 8, 9, 10]));

    // Send to NOT_SENT: the three recipients left, 10 skipped as suppressed; the openers stay out.
    const rest = await post(`/api/reports/${followUp}/send-to-not-sent`);
    expect(rest.status).toBe(202);
    expect(rest.body).toMatchObject({ queued: 3, skipped: 1 });
    const deadline = Date.now() + 40_000;
    while ((await counts()).jobsSent < 9 && Date.now() < deadline) await sleep(50);
    expect(await jobEmails(followUp)).toEqual(emails('nr', [11, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(await counts()).toEqual({ totalContactsCount: 9, jobsSent: 9, listed: 9 });
    expect(await notSent('limit=100')).toMatchObject({ emails: emails('nr', [10]), meta: { totalItems: 1 } });
  }, 60_000);

  it('makes one follow-up of racing requests (201 once, 200 with it for the rest), 15 times, until it is sent', async () => {
    const audience = await seedAudience(t.db.pool, { headers: ['firstName'], contacts: people('race', 4) });
    const original = await draft('Race news', audience.id);
    await send(original);
    const ask = (recipients = 'NOT_OPENED') => post(`/api/campaigns/${original}/follow-up`).send({ recipients });
    const followUpsOf = async () =>
      (await t.db.pool.query('SELECT id, status FROM campaigns WHERE follow_up_of = $1 ORDER BY id', [original])).rows as {
        id: number;
        status: string;
      }[];
    for (let race = 0; race < 15; race++) {
      const answers = await Promise.all([ask(), ask(), ask(), ask()]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 201]);
      const ids = new Set(answers.map((res) => res.body.id as number));
      expect(ids.size).toBe(1);
      const [id] = [...ids];
      expect(answers[0]!.body).toMatchObject({
        status: 'DRAFT',
        followUp: { campaignId: original, recipients: 'NOT_OPENED', recipientCount: 4 },
      });
      expect(await followUpsOf()).toEqual([{ id, status: 'DRAFT' }]);
      const logged = await t.db.pool.query(`SELECT count(*)::int AS n FROM activity WHERE kind = 'follow-up' AND object_id = $1`, [id]);
      expect(logged.rows[0].n).toBe(1);
      expect((await api().delete(`/api/campaigns/${id}`).set('Authorization', auth)).status).toBe(204);
    }
    // Not sent yet means scheduled too; the other rule is another follow-up; once sent, a new one is made.
    const first = await ask();
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect((await post(`/api/campaigns/${first.body.id as number}/schedule`).send({ at })).status).toBe(200);
    expect(await ask()).toMatchObject({ status: 200, body: { id: first.body.id, status: 'SCHEDULED' } });
    expect((await ask('NOT_CLICKED')).status).toBe(201);
    expect((await post(`/api/campaigns/${first.body.id as number}/unschedule`)).status).toBe(200);
    await send(first.body.id as number);
    const next = await ask();
    expect(next.status).toBe(201);
    expect(next.body.id).not.toBe(first.body.id);
  }, 120_000);

  it('refuses a campaign that is not sent (409), an unknown one (404), a bad body (400), and lists recipients of follow-ups only', async () => {
    const audience = await seedAudience(t.db.pool, { headers: [], contacts: people('nf', 2) });
    const id = await draft('Not yet', audience.id);
    const refused = await post(`/api/campaigns/${id}/follow-up`).send({ recipients: 'NOT_OPENED' });
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 409, message: ONLY_SENT_FOLLOWED_UP });
    expect((await post('/api/campaigns/999999/follow-up').send({ recipients: 'NOT_OPENED' })).status).toBe(404);
    for (const body of [{}, { recipients: 'OPENED' }, { recipients: 'NOT_OPENED', extra: 1 }, { recipients: null }]) {
      expect((await post(`/api/campaigns/${id}/follow-up`).send(body)).status).toBe(400);
    }
    expect((await post('/api/campaigns/0/follow-up').send({ recipients: 'NOT_OPENED' })).status).toBe(400);
    expect((await api().post(`/api/campaigns/${id}/follow-up`).send({ recipients: 'NOT_OPENED' })).status).toBe(401);
    const notFollowUp = await get(`/api/campaigns/${id}/recipients`);
    expect({ status: notFollowUp.status, message: notFollowUp.body.message }).toEqual({ status: 404, message: NOT_A_FOLLOW_UP });
    expect((await get('/api/campaigns/999999/recipients')).status).toBe(404);
    expect((await get(`/api/campaigns/${id}`)).body.followUp).toBeNull();
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM campaigns WHERE follow_up_of = $1', [id]);
    expect(rows[0].n).toBe(0);
  });
});
