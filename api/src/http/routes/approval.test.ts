/**
 * Send approval through the whole API (issue 27; docs/decisions/send-approval.md), with SEND_APPROVAL_ABOVE=2: a
 * campaign to an audience of three contacts needs another member's approval, one to a single contact does not.
 * Request, approve (send now and schedule), decline, withdraw (by the call and by an edit), and the requester who
 * can never answer their own request. The answers' mails go through the queue to the approval worker and the
 * local SES endpoint, as in production; no sending worker runs, so an approved send creates its jobs and stops there.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { APPROVAL_NOT_NEEDED, NOT_AWAITING, ONLY_DRAFTS_REQUESTED, SELF_APPROVAL } from '../../services/approvals/approval-service.js';
import { INPUT_SUBJECT } from '../../services/campaigns/campaign-service.js';
import { APPROVAL_NEEDED, AWAITING_FROZEN } from '../../services/campaigns/rules.js';
import { SCHEDULE_IN_PAST } from '../../services/campaigns/scheduling-service.js';
import { approvalWorkers } from '../../workers/approvals.js';

const SENDER = 'news@example.org';
const REQUESTER = 'mia@example.org';
const APPROVER = 'sam@example.org';

let t: TestApp;
let ses: SesEndpoint;
let mia: string;
let sam: string;
let bigAudience: number;
let smallAudience: number;
let templateId: number;

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 100, max24HourSend: 1000 });
  t = await createTestApp({
    workers: [approvalWorkers],
    env: { AUTHORIZED_SENDER_EMAILS: SENDER, SES_ENDPOINT: ses.endpoint, SEND_APPROVAL_ABOVE: '2', ORG_NAME: 'Friends of Trees' },
  });
  mia = await bearer({ email: REQUESTER });
  sam = await bearer({ email: APPROVER });
  ({ id: bigAudience } = await seedAudience(t.db.pool, {
    name: 'Everyone',
    headers: ['firstName'],
    contacts: ['ann', 'bob', 'cat'].map((name) => ({ email: `${name}@example.org`, data: { firstName: name } })),
  }));
  ({ id: smallAudience } = await seedAudience(t.db.pool, {
    name: 'Board',
    headers: ['firstName'],
    contacts: [{ email: 'dan@example.org', data: { firstName: 'Dan' } }],
  }));
  templateId = await seedTemplate(t.db.pool, { name: 'Newsletter', html: '<p>Hello {{firstName}}</p>' });
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const as = (auth: string) => ({
  get: (path: string) => api().get(path).set('Authorization', auth),
  post: (path: string, body?: object) => api().post(path).set('Authorization', auth).send(body),
  put: (path: string, body: object) => api().put(path).set('Authorization', auth).send(body),
  delete: (path: string) => api().delete(path).set('Authorization', auth),
});
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

let n = 0;
/** A ready draft (it passes the pre-send checks) to `audienceId`, made by Mia. */
async function draft(audienceId = bigAudience, fields: Record<string, unknown> = {}): Promise<number> {
  const name = `Autumn news ${++n}`;
  const created = await as(mia).post('/api/campaigns', { name, templateId });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const saved = await as(mia).put(`/api/campaigns/${id}`, {
    name,
    audienceId,
    templateId,
    fromName: 'Friends of Trees',
    fromEmail: SENDER,
    subject: 'Hi {{firstName}}',
    ...fields,
  });
  expect(saved.status).toBe(200);
  return id;
}

const row = async (id: number) =>
  (await t.db.pool.query('SELECT status, scheduled_at, contact_count FROM campaigns WHERE id = $1', [id])).rows[0];
const jobCount = async (id: number) =>
  (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', [id])).rows[0]!.n;
const activityOf = async (id: number) =>
  (
    await t.db.pool.query<{ kind: string; member_email: string; details: Record<string, unknown> }>(
      `SELECT kind, member_email, details FROM activity WHERE object_type = 'campaign' AND object_id = $1 ORDER BY id`,
      [id],
    )
  ).rows;
/** The answer mails SES took for the requester, once the worker has sent them. */
const mailsTo = (address: string) => ses.mails.filter((mail) => mail.to === address);
const mailsSettled = () =>
  vi.waitFor(
    async () =>
      expect(
        Number(
          (await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM approval_requests WHERE mail_state IN ('queued', 'sending')`))
            .rows[0]!.n,
        ),
      ).toBe(0),
    { timeout: 10_000, interval: 20 },
  );

describe('when approval applies', () => {
  it('Send and Schedule are refused with the reason; the editor is told approval is required', async () => {
    const id = await draft();
    const send = await as(mia).post(`/api/campaigns/${id}/send`);
    expect(send.status).toBe(409);
    expect(send.body.message).toBe(APPROVAL_NEEDED);
    const schedule = await as(mia).post(`/api/campaigns/${id}/schedule`, { at: inMinutes(30) });
    expect(schedule.status).toBe(409);
    expect(schedule.body.message).toBe(APPROVAL_NEEDED);
    // Not even another member sends it without the request: the rule is the campaign's, not the member's.
    expect((await as(sam).post(`/api/campaigns/${id}/send`)).status).toBe(409);
    expect(await row(id)).toMatchObject({ status: 'DRAFT' });
    expect(await jobCount(id)).toBe(0);
    const got = await as(mia).get(`/api/campaigns/${id}`);
    expect(got.body).toMatchObject({ approvalRequired: true, approval: null });
  });

  it('a campaign to a small audience needs none: Send works and a request is refused', async () => {
    const id = await draft(smallAudience);
    expect((await as(mia).get(`/api/campaigns/${id}`)).body.approvalRequired).toBe(false);
    const asked = await as(mia).post(`/api/campaigns/${id}/approval-request`, {});
    expect(asked.status).toBe(409);
    expect(asked.body.message).toBe(APPROVAL_NOT_NEEDED);
    expect((await as(mia).post(`/api/campaigns/${id}/send`)).status).toBe(202);
    expect(await row(id)).toMatchObject({ status: 'SENDING' });
  });

  it("a request runs Send's pre-send checks first, and Schedule's time checks when a time is asked", async () => {
    const id = await draft(bigAudience, { subject: null });
    const asked = await as(mia).post(`/api/campaigns/${id}/approval-request`, {});
    expect(asked.status).toBe(400);
    expect(asked.body.message).toBe(INPUT_SUBJECT);
    const ready = await draft();
    const past = await as(mia).post(`/api/campaigns/${ready}/approval-request`, { at: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(SCHEDULE_IN_PAST);
    expect(await row(id)).toMatchObject({ status: 'DRAFT' });
    expect(await row(ready)).toMatchObject({ status: 'DRAFT' });
  });
});

describe('request and approve', () => {
  it('a request makes the campaign AWAITING_APPROVAL, read-only, listed under its status, with what was asked', async () => {
    const id = await draft();
    const asked = await as(mia).post(`/api/campaigns/${id}/approval-request`, {});
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      id,
      status: 'AWAITING_APPROVAL',
      approvalRequired: true,
      approval: { state: 'WAITING', requestedByEmail: REQUESTER, at: null, answeredByEmail: null, reason: null },
    });
    // Asked twice: it is no longer a draft.
    const again = await as(mia).post(`/api/campaigns/${id}/approval-request`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(AWAITING_FROZEN);
    // Neither sent nor scheduled around the request.
    expect((await as(sam).post(`/api/campaigns/${id}/send`)).status).toBe(409);
    expect((await as(sam).post(`/api/campaigns/${id}/schedule`, { at: inMinutes(30) })).status).toBe(409);
    const listed = await as(sam).get('/api/campaigns?status=AWAITING_APPROVAL');
    expect(listed.status).toBe(200);
    const ids = (listed.body.data.items as { id: number; status: string }[]).map((item) => item.id);
    expect(ids).toContain(id);
    expect((listed.body.data.items as { status: string }[]).every((item) => item.status === 'AWAITING_APPROVAL')).toBe(true);
    const drafts = await as(sam).get('/api/campaigns?status=DRAFT');
    expect((drafts.body.data.items as { id: number }[]).map((item) => item.id)).not.toContain(id);
    expect((await activityOf(id)).at(-1)).toMatchObject({ kind: 'request-approval', member_email: REQUESTER, details: {} });
  });

  it('the requester can never approve or decline their own request, whatever the case of their address', async () => {
    const id = await draft();
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    const approve = await as(mia).post(`/api/campaigns/${id}/approve`);
    expect(approve.status).toBe(403);
    expect(approve.body.message).toBe(SELF_APPROVAL);
    const shouting = await bearer({ email: REQUESTER.toUpperCase() });
    expect((await as(shouting).post(`/api/campaigns/${id}/approve`)).status).toBe(403);
    const decline = await as(mia).post(`/api/campaigns/${id}/decline`, { reason: 'Looks fine to me' });
    expect(decline.status).toBe(403);
    expect(decline.body.message).toBe(SELF_APPROVAL);
    expect(await row(id)).toMatchObject({ status: 'AWAITING_APPROVAL' });
    expect(await jobCount(id)).toBe(0);
    expect((await activityOf(id)).map((entry) => entry.kind)).not.toContain('approve');
  });

  it("another member approves: it is sent through Send's path, logged, and the requester is mailed", async () => {
    const id = await draft();
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    const approved = await as(sam).post(`/api/campaigns/${id}/approve`);
    expect(approved.status).toBe(202);
    expect(approved.body.message).toMatch(/^Approved: /);
    expect(await row(id)).toMatchObject({ status: 'SENDING', contact_count: 3 });
    expect(await jobCount(id)).toBe(3);
    const got = await as(mia).get(`/api/campaigns/${id}`);
    expect(got.body.approval).toMatchObject({ state: 'APPROVED', answeredByEmail: APPROVER });
    const log = await activityOf(id);
    expect(log.map((entry) => [entry.kind, entry.member_email])).toEqual([
      ['create', REQUESTER],
      ['edit', REQUESTER],
      ['request-approval', REQUESTER],
      ['approve', APPROVER],
      ['send', APPROVER],
    ]);
    expect(log.find((entry) => entry.kind === 'approve')!.details).toMatchObject({ requestedBy: REQUESTER });
    // Answered once: a second approval finds nothing waiting.
    const twice = await as(sam).post(`/api/campaigns/${id}/approve`);
    expect(twice.status).toBe(409);
    await mailsSettled();
    const mail = mailsTo(REQUESTER).find((m) => m.subject === `Approved: Autumn news ${n}`);
    expect(mail).toBeDefined();
    expect(mail!.from).toContain(SENDER);
    expect(mail!.text).toContain(`${APPROVER} approved`);
    expect(mail!.text).toContain(`/campaigns/reports/${id}`);
    // A notice, not a campaign mail: no unsubscribe header.
    expect(mail!.headers['List-Unsubscribe']).toBeUndefined();
  });

  it('a request to schedule is approved into SCHEDULED at the time asked', async () => {
    const id = await draft();
    const at = inMinutes(45);
    const asked = await as(mia).post(`/api/campaigns/${id}/approval-request`, { at });
    expect(asked.status).toBe(200);
    expect(asked.body.approval).toMatchObject({ at });
    const approved = await as(sam).post(`/api/campaigns/${id}/approve`);
    expect(approved.status).toBe(202);
    const stored = await row(id);
    expect(stored.status).toBe('SCHEDULED');
    expect(stored.scheduled_at.toISOString()).toBe(at);
    expect(await jobCount(id)).toBe(0);
    expect((await activityOf(id)).slice(-2).map((entry) => entry.kind)).toEqual(['approve', 'schedule']);
  });

  it("an approval that fails Send's checks leaves the request waiting", async () => {
    const id = await draft();
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    // The template emptied after the request: the send's own check refuses it.
    await t.db.pool.query(`UPDATE templates SET html = '' WHERE id = $1`, [templateId]);
    try {
      const approved = await as(sam).post(`/api/campaigns/${id}/approve`);
      expect(approved.status).toBe(400);
    } finally {
      await t.db.pool.query(`UPDATE templates SET html = '<p>Hello {{firstName}}</p>' WHERE id = $1`, [templateId]);
    }
    expect(await row(id)).toMatchObject({ status: 'AWAITING_APPROVAL' });
    expect((await as(sam).get(`/api/campaigns/${id}`)).body.approval).toMatchObject({ state: 'WAITING' });
    expect((await activityOf(id)).map((entry) => entry.kind)).not.toContain('approve');
  });
});

describe('decline', () => {
  it('needs a reason', async () => {
    const id = await draft();
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    expect((await as(sam).post(`/api/campaigns/${id}/decline`, { reason: '' })).status).toBe(400);
    expect((await as(sam).post(`/api/campaigns/${id}/decline`, { reason: '   ' })).status).toBe(400);
    expect((await as(sam).post(`/api/campaigns/${id}/decline`, {})).status).toBe(400);
    expect(await row(id)).toMatchObject({ status: 'AWAITING_APPROVAL' });
  });

  it('makes the campaign a DRAFT again, logs the reason and mails it to the requester', async () => {
    const id = await draft();
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    const reason = 'Wrong audience: this goes to <everyone>';
    const declined = await as(sam).post(`/api/campaigns/${id}/decline`, { reason });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({
      status: 'DRAFT',
      approval: { state: 'DECLINED', answeredByEmail: APPROVER, reason },
    });
    expect(await jobCount(id)).toBe(0);
    expect((await activityOf(id)).at(-1)).toMatchObject({ kind: 'decline', member_email: APPROVER, details: { declineReason: reason } });
    await mailsSettled();
    const mail = mailsTo(REQUESTER).find((m) => m.subject === `Declined: Autumn news ${n}`);
    expect(mail).toBeDefined();
    expect(mail!.text).toContain(reason);
    // The reason is text in the html: escaped.
    expect(mail!.html).toContain('&#60;everyone&#62;');
    expect(mail!.html).not.toContain('<everyone>');
    // A draft again: it may be asked for again.
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
  });
});

describe('withdraw', () => {
  it('an edit after the request withdraws it: a DRAFT again, logged, and nothing left to approve', async () => {
    const id = await draft();
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    const edited = await as(mia).put(`/api/campaigns/${id}`, { name: `Autumn news ${n}`, subject: 'Hello {{firstName}}!' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ status: 'DRAFT', subject: 'Hello {{firstName}}!' });
    const got = await as(sam).get(`/api/campaigns/${id}`);
    expect(got.body.approval).toMatchObject({ state: 'WITHDRAWN', answeredByEmail: REQUESTER });
    const log = await activityOf(id);
    expect(log.slice(-2).map((entry) => [entry.kind, entry.details])).toEqual([
      ['withdraw-approval', { by: 'edit' }],
      ['edit', { fields: ['subject'] }],
    ]);
    const approve = await as(sam).post(`/api/campaigns/${id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body.message).toBe(NOT_AWAITING);
    expect(await jobCount(id)).toBe(0);
    // A withdrawal mails nobody.
    await mailsSettled();
    expect(mailsTo(REQUESTER).filter((m) => m.subject.endsWith(`Autumn news ${n}`))).toEqual([]);
  });

  it('the request can be withdrawn by the call; only a waiting one', async () => {
    const id = await draft();
    const none = await as(mia).delete(`/api/campaigns/${id}/approval-request`);
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(NOT_AWAITING);
    expect((await as(mia).post(`/api/campaigns/${id}/approval-request`, {})).status).toBe(200);
    const withdrawn = await as(mia).delete(`/api/campaigns/${id}/approval-request`);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ status: 'DRAFT', approval: { state: 'WITHDRAWN' } });
    expect((await activityOf(id)).at(-1)).toMatchObject({ kind: 'withdraw-approval', member_email: REQUESTER });
    const sent = await as(mia).post(`/api/campaigns/${id}/approval-request`, {});
    expect(sent.status).toBe(200);
    expect((await as(sam).post(`/api/campaigns/${id}/decline`, { reason: 'Not now' })).status).toBe(200);
    expect((await as(sam).delete(`/api/campaigns/${id}/approval-request`)).status).toBe(409);
  });

  it('a campaign awaiting approval is answered only from that status; others are refused with the status reason', async () => {
    const id = await draft(smallAudience);
    expect((await as(mia).post(`/api/campaigns/${id}/send`)).status).toBe(202);
    const asked = await as(mia).post(`/api/campaigns/${id}/approval-request`, {});
    expect(asked.status).toBe(409);
    expect(asked.body.message).toBe(ONLY_DRAFTS_REQUESTED);
    expect((await as(sam).post(`/api/campaigns/${id}/approve`)).status).toBe(409);
    expect((await as(sam).post('/api/campaigns/999999/approve')).status).toBe(404);
  });
});
