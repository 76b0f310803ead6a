/**
 * The campaign calls through the whole API (OpenAPI validation with responses checked, auth, the
 * error handler) against PostgreSQL, a local SES-compatible endpoint for test sends, and the
 * in-process queue with no consumer: a send is checked for what it records and publishes; the
 * sending itself is tested in services/sending/pipeline.test.ts.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeededAudience } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer, testMember } from '../../../test/support/tokens.js';
import {
  CONTINUE_STARTED,
  INPUT_FROM_EMAIL,
  INPUT_FROM_NAME,
  INPUT_SUBJECT,
  NAME_REQUIRED,
  NOT_WHILE_SENDING,
  ONLY_DRAFTS_EDITED,
  ONLY_DRAFTS_SENT,
  ONLY_ERRORS_CONTINUED,
  SELECT_AUDIENCE,
  SELECT_TEMPLATE,
  SENDING_STARTED,
} from '../../services/campaigns/campaign-service.js';
import { SENDER_NOT_AUTHORIZED, TEMPLATE_EMPTY } from '../../services/campaigns/rules.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let audience: SeededAudience;
let templateId: number;

const SENDERS = ['news@example.org', 'team@example.org'];
const HTML =
  '<html><body><p>Hello {{firstName}} from {{City}}, {{email}}</p>' +
  '<a href="https://example.org/news?a=1&amp;b=2">News</a> <a href="mailto:x@example.org">Mail</a> ' +
  '<a href="https://example.org/events">Events</a></body></html>';

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 100, max24HourSend: 1000 });
  t = await createTestApp({ env: { AUTHORIZED_SENDER_EMAILS: SENDERS.join(','), SES_ENDPOINT: ses.endpoint } });
  auth = await bearer();
  audience = await seedAudience(t.db.pool, {
    name: 'Members',
    headers: ['firstName', 'city'],
    contacts: [
      { email: 'ann@example.org', data: { firstName: 'Ann', city: 'Paris' } },
      { email: 'bad-address', data: { firstName: 'Bad', city: 'X' }, error: 'Invalid email address' },
      { email: 'bob@example.org', data: { firstName: 'Bob', city: '' } },
      { email: 'Unsubscribed@Example.org', data: { firstName: 'Uma', city: 'Oslo' } },
      { email: 'cid@example.org', data: { firstName: '', city: 'Rome' } },
    ],
  });
  templateId = await seedTemplate(t.db.pool, { name: 'Newsletter', html: HTML });
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);
const post = (path: string, body?: object) => api().post(path).set('Authorization', auth).send(body);
const put = (path: string, body: object) => api().put(path).set('Authorization', auth).send(body);

async function create(body: object = { name: 'My Campaign' }): Promise<number> {
  const res = await post('/api/campaigns', body);
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** A draft ready to send. */
async function ready(name = 'Ready'): Promise<number> {
  const id = await create({ name, templateId });
  const res = await put(`/api/campaigns/${id}`, {
    name,
    audienceId: audience.id,
    audienceName: 'ignored',
    templateId,
    fromName: 'Example News',
    fromEmail: 'news@example.org',
    subject: 'Hi {{firstName}}',
    previewText: 'This week',
  });
  expect(res.status).toBe(200);
  return id;
}

const row = async (id: number) =>
  (await t.db.pool.query('SELECT status, html, contact_count, error_message, delivery_date FROM campaigns WHERE id = $1', [id])).rows[0];

describe('campaign calls', () => {
  it('needs a token', async () => {
    expect((await api().get('/api/campaigns')).status).toBe(401);
    expect((await api().post('/api/campaigns/1/send')).status).toBe(401);
  });

  it('creates a draft, from a template or not, with the name trimmed', async () => {
    const id = await create({ name: '  Spring news  ', templateId });
    const res = await get(`/api/campaigns/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      name: 'Spring news',
      status: 'DRAFT',
      templateId,
      template: { id: templateId, name: 'Newsletter', html: HTML, preview: null },
      audienceId: null,
      audienceName: null,
      numberOfContacts: 0,
      html: null,
      updatedByEmail: testMember.email,
      jobsSent: 0,
      uniqueOpens: 0,
    });
    expect(res.body).not.toHaveProperty('jobSuccessCount');
    expect((await get(`/api/campaigns/${await create()}`)).body).toMatchObject({ templateId: null, template: null });
  });

  it('refuses a blank or hostile name, an unknown template, and other bodies', async () => {
    expect((await post('/api/campaigns', { name: '   ' })).body).toEqual({ message: NAME_REQUIRED });
    expect((await post('/api/campaigns', { name: 'x', templateId: 999_999 })).status).toBe(404);
    for (const body of [
      {},
      { name: 'a'.repeat(201) },
      { name: 'line\nbreak' },
      { name: 'nul \u0000 byte' },
      { name: 42 },
      { name: 'x', templateId: 0 },
      { name: 'x', templateId: '1; DROP TABLE campaigns' },
      { name: 'x', templateId: 1e30 },
      { name: 'x', status: 'SENT' },
    ]) {
      const res = await post('/api/campaigns', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('lists campaigns in data.items and data.meta, most recently edited first, filtered by name', async () => {
    const a = await create({ name: 'Listing alpha' });
    const b = await create({ name: 'Listing beta 100%' });
    await put(`/api/campaigns/${a}`, { name: 'Listing alpha', audienceId: audience.id });
    const res = await get('/api/campaigns?page=1&limit=2&name=listing');
    expect(res.status).toBe(200);
    expect(res.body.data.meta).toEqual({ currentPage: 1, itemCount: 2, itemsPerPage: 2, totalItems: 2, totalPages: 1 });
    expect(res.body.data.items.map((c: { id: number }) => c.id)).toEqual([a, b]);
    expect(res.body.data.items[0]).toMatchObject({ audienceName: 'Members', numberOfContacts: 5, contactCount: 0, jobsFailed: 0 });
    expect(res.body.data.items[0]).not.toHaveProperty('html');
    expect((await get('/api/campaigns?name=100%25')).body.data.items.map((c: { id: number }) => c.id)).toEqual([b]);
    const all = await get('/api/campaigns');
    expect(all.body.data.meta).toMatchObject({ currentPage: 1, itemsPerPage: 10 });
    for (const query of ['page=0', 'limit=1001', 'limit=-1', 'page=abc', `name=${'x'.repeat(201)}`]) {
      expect((await get(`/api/campaigns?${query}`)).status, query).toBe(400);
    }
  });

  it("finds a name with reserved characters, a follow-up's '(follow-up)' among them, sent percent-encoded as the contract asks", async () => {
    const original = await create({ name: 'Reserved autumn news' });
    const followUp = await create({ name: 'Reserved autumn news (follow-up)' });
    const sale = await create({ name: "Reserved: Mia's sale! *today*, 50+ items & more" });
    const found = async (name: string) => {
      const res = await get(
        `/api/campaigns?name=${encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
      );
      expect(res.status, name).toBe(200);
      return res.body.data.items.map((c: { id: number }) => c.id);
    };
    expect(await found('(follow-up)')).toEqual([followUp]);
    expect(await found('autumn news (')).toEqual([followUp]);
    expect(await found("Mia's sale! *today*, 50+ items & more")).toEqual([sale]);
    expect(await found('Reserved autumn')).toEqual(expect.arrayContaining([original, followUp]));
    // Left bare, they are refused: the contract's query parameters keep allowReserved at false, so the client encodes them.
    const bare = await get('/api/campaigns?name=(follow-up)');
    expect(bare.status).toBe(400);
    expect(JSON.stringify(bare.body)).toContain('must be url encoded');
  });

  it('saves a draft: fields left out keep their value, null clears one, audienceName is ignored', async () => {
    const id = await ready('Saving');
    const saved = await get(`/api/campaigns/${id}`);
    expect(saved.body).toMatchObject({
      audienceId: audience.id,
      audienceName: 'Members',
      numberOfContacts: 5,
      fromName: 'Example News',
      fromEmail: 'news@example.org',
      subject: 'Hi {{firstName}}',
      previewText: 'This week',
    });
    const res = await put(`/api/campaigns/${id}`, { name: 'Saving 2', previewText: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Saving 2', previewText: null, subject: 'Hi {{firstName}}' });
    expect((await put(`/api/campaigns/${id}`, { name: 'x', audienceId: 999_999 })).status).toBe(404);
    expect((await put(`/api/campaigns/${id}`, { name: 'x', templateId: 999_999 })).status).toBe(404);
    expect((await put('/api/campaigns/999999', { name: 'x' })).status).toBe(404);
    for (const body of [
      { name: 'x', subject: 'Hi\r\nBcc: x@evil.test' },
      { name: 'x', fromName: 'News\nX' },
      { name: 'x', previewText: 'a\rb' },
      { name: 'x', fromEmail: 'not an address' },
      { name: 'x', subject: 'nul \u0000' },
      { name: 'x', subject: 's'.repeat(999) },
      { name: 'x', unknown: 1 },
      { subject: 'no name' },
    ]) {
      expect((await put(`/api/campaigns/${id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers the authorized sender addresses', async () => {
    const res = await get('/api/campaigns/authorized-sent-emails');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SENDERS);
  });

  it('renders a template for one contact, or with empty values', async () => {
    const res = await post('/api/campaigns/test-render-email', {
      templateId,
      contactId: audience.contactIds[0],
      subject: 'Hi {{firstName}}',
      previewText: 'For {{city}}',
    });
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe('Hi Ann');
    expect(res.body.previewText).toBe('For Paris');
    expect(res.body.template).toContain('<p>Hello Ann from Paris, ann@example.org</p>');
    expect(res.body.template).toContain('<a href="https://example.org/news?a=1&amp;b=2">News</a>');
    const empty = await post('/api/campaigns/test-render-email', { templateId, subject: 'Hi {{firstName}}' });
    expect(empty.body).toEqual({ template: expect.stringContaining('<p>Hello  from , </p>'), subject: 'Hi ', previewText: '' });
    expect((await post('/api/campaigns/test-render-email', { templateId, contactId: 999_999 })).status).toBe(404);
    expect((await post('/api/campaigns/test-render-email', { templateId: 999_999 })).status).toBe(404);
    expect((await post('/api/campaigns/test-render-email', { templateId: 'x' })).status).toBe(400);
    expect((await post('/api/campaigns/test-render-email', { templateId, subject: 'a\nb' })).status).toBe(400);
  });

  it('lists the valid contacts with missing merge fields', async () => {
    const res = await post('/api/campaigns/validate-campaign', {
      templateId,
      audienceId: audience.id,
      subject: 'Hi {{firstName}} {{grade}}',
    });
    expect(res.status).toBe(200);
    // Every valid contact misses grade (no such header); Bob misses City, Cid firstName. Invalid ones are left out.
    expect(res.body).toEqual([
      { contactId: audience.contactIds[0], email: 'ann@example.org', missingFields: ['grade'] },
      { contactId: audience.contactIds[2], email: 'bob@example.org', missingFields: ['City', 'grade'] },
      { contactId: audience.contactIds[3], email: 'Unsubscribed@Example.org', missingFields: ['grade'] },
      { contactId: audience.contactIds[4], email: 'cid@example.org', missingFields: ['firstName', 'grade'] },
    ]);
    const none = await post('/api/campaigns/validate-campaign', {
      templateId: await seedTemplate(t.db.pool, { html: '<p>{{email}}</p>' }),
      audienceId: audience.id,
    });
    expect(none.body).toEqual([]);
    expect((await post('/api/campaigns/validate-campaign', { templateId, audienceId: 999_999 })).status).toBe(404);
    expect((await post('/api/campaigns/validate-campaign', { templateId })).status).toBe(400);
  });

  it('sends a test email to each address, marked as a test, with the first valid contact of the audience', async () => {
    const before = ses.mails.length;
    const res = await post('/api/campaigns/send-test-email', {
      emails: ['qa@example.org', 'lead@example.org', 'qa@example.org'],
      fromEmail: 'team@example.org',
      fromName: 'Team',
      subject: 'Hi {{firstName}}',
      previewText: 'Preview',
      templateId,
      audienceId: audience.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Test email sent to qa@example.org, lead@example.org' });
    const mails = ses.mails.slice(before);
    expect(mails.map((m) => m.to)).toEqual(['qa@example.org', 'lead@example.org']);
    expect(mails[0]).toMatchObject({ from: '"Team" <team@example.org>', subject: '[Test] Hi Ann' });
    expect(mails[0]!.html).toContain('Hello Ann from Paris');
    expect(mails[0]!.html).toContain('Preview');
    expect(mails[0]!.text).toContain('News (https://example.org/news?a=1&b=2)');

    const plain = await post('/api/campaigns/send-test-email', {
      emails: ['qa@example.org'],
      fromEmail: 'news@example.org',
      fromName: 'News',
      subject: 'Hi {{firstName}}',
      templateId,
    });
    expect(plain.status).toBe(200);
    expect(ses.mails.at(-1)).toMatchObject({ subject: '[Test] Hi ' });
  });

  it('refuses a test email with a bad address, an unauthorized sender, too many addresses or no template', async () => {
    const base = { emails: ['qa@example.org'], fromEmail: 'news@example.org', fromName: 'News', subject: 'S', templateId };
    const before = ses.mails.length;
    expect((await post('/api/campaigns/send-test-email', { ...base, emails: ['qa@example'] })).body).toEqual({
      message: 'Invalid email address: qa@example',
    });
    expect((await post('/api/campaigns/send-test-email', { ...base, fromEmail: 'ceo@example.org' })).body).toEqual({
      message: SENDER_NOT_AUTHORIZED,
    });
    expect((await post('/api/campaigns/send-test-email', { ...base, templateId: 999_999 })).status).toBe(404);
    const emptyTemplate = await seedTemplate(t.db.pool, { html: null });
    expect((await post('/api/campaigns/send-test-email', { ...base, templateId: emptyTemplate })).body).toEqual({
      message: TEMPLATE_EMPTY,
    });
    for (const body of [
      { ...base, emails: [] },
      { ...base, emails: Array.from({ length: 21 }, (_, i) => `a${i}@example.org`) },
      { ...base, emails: ['not an address'] },
      { ...base, emails: 'qa@example.org' },
      { ...base, subject: 'Hi\r\nBcc: x@evil.test' },
      { ...base, fromName: 'A\nB' },
      { ...base, fromEmail: undefined },
    ]) {
      expect((await post('/api/campaigns/send-test-email', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(ses.mails.length).toBe(before);
  });

  it('answers 503 when SES does not take a test email', async () => {
    ses.options.intercept = () => ({ error: 'SendingPausedException', status: 400, message: 'Sending paused' });
    try {
      const res = await post('/api/campaigns/send-test-email', {
        emails: ['qa@example.org'],
        fromEmail: 'news@example.org',
        fromName: 'News',
        subject: 'S',
        templateId,
      });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/^The test email to qa@example.org was not sent: Amazon SES has paused sending/);
    } finally {
      ses.options.intercept = undefined;
    }
  });

  it('runs the pre-send checks in the spec order, then requires an authorized sender', async () => {
    const id = await create({ name: 'Checks' });
    const send = async () => (await post(`/api/campaigns/${id}/send`)).body;
    expect(await send()).toEqual({ message: SELECT_AUDIENCE });
    await put(`/api/campaigns/${id}`, { name: 'Checks', audienceId: audience.id });
    expect(await send()).toEqual({ message: SELECT_TEMPLATE });
    await put(`/api/campaigns/${id}`, { name: 'Checks', templateId });
    expect(await send()).toEqual({ message: INPUT_SUBJECT });
    await put(`/api/campaigns/${id}`, { name: 'Checks', subject: '  ' });
    expect(await send()).toEqual({ message: INPUT_SUBJECT });
    await put(`/api/campaigns/${id}`, { name: 'Checks', subject: 'Subject' });
    expect(await send()).toEqual({ message: INPUT_FROM_NAME });
    await put(`/api/campaigns/${id}`, { name: 'Checks', fromName: 'News' });
    expect(await send()).toEqual({ message: INPUT_FROM_EMAIL });
    await put(`/api/campaigns/${id}`, { name: 'Checks', fromEmail: 'ceo@example.org' });
    expect(await send()).toEqual({ message: SENDER_NOT_AUTHORIZED });
    expect((await row(id)).status).toBe('DRAFT');
    const jobs = await t.db.pool.query('SELECT 1 FROM campaign_jobs WHERE campaign_id = $1', [id]);
    expect(jobs.rows).toHaveLength(0);
  });

  it('refuses a subject or sender name with a line break that reached the database, before anything is created', async () => {
    const id = await ready('Injected');
    await t.db.pool.query(`UPDATE campaigns SET subject = E'Hi\\r\\nBcc: x@evil.test' WHERE id = $1`, [id]);
    expect((await post(`/api/campaigns/${id}/send`)).body).toEqual({ message: 'The subject must be on one line' });
    await t.db.pool.query(`UPDATE campaigns SET subject = 'Hi', from_name = E'News\\nBcc: x@evil.test' WHERE id = $1`, [id]);
    expect((await post(`/api/campaigns/${id}/send`)).body).toEqual({ message: 'The sender name must be on one line' });
    expect((await row(id)).status).toBe('DRAFT');
    expect((await t.db.pool.query('SELECT 1 FROM campaign_jobs WHERE campaign_id = $1', [id])).rows).toHaveLength(0);
  });

  it('sends a draft: snapshot with data-link-id on each http(s) link, jobs for valid and not suppressed contacts, SENDING', async () => {
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('unsubscribed@example.org', 'UNSUBSCRIBE')`);
    const id = await ready('Sending');
    const res = await post(`/api/campaigns/${id}/send`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: SENDING_STARTED });

    const campaign = await get(`/api/campaigns/${id}?job_success_count=true`);
    expect(campaign.body).toMatchObject({ status: 'SENDING', contactCount: 3, jobSuccessCount: 0, deliveryDate: expect.any(String) });
    const links = await t.db.pool.query(
      'SELECT id, href, position FROM campaign_links WHERE campaign_id = $1 AND NOT hidden ORDER BY position',
      [id],
    );
    expect(links.rows.map((l) => [l.href, l.position])).toEqual([
      ['https://example.org/news?a=1&b=2', 0],
      ['https://example.org/events', 1],
    ]);
    const [news, events] = links.rows.map((l) => l.id as number);
    // The hidden link (an addition to the spec): last, to the product's address, first in the body.
    const hidden = await t.db.pool.query('SELECT id, href, position FROM campaign_links WHERE campaign_id = $1 AND hidden', [id]);
    expect(hidden.rows).toEqual([{ id: expect.any(Number), href: `${t.config.publicUrl.replace(/\/+$/, '')}/`, position: 2 }]);
    expect(campaign.body.html).toBe(
      `<html><body><a href="${hidden.rows[0].href}" data-link-id="${hidden.rows[0].id}" data-hidden-link="" aria-hidden="true" tabindex="-1" ` +
        'style="display:block;width:0;height:0;max-height:0;overflow:hidden;font-size:0;line-height:0;mso-hide:all"></a>' +
        '<p>Hello {{firstName}} from {{City}}, {{email}}</p>' +
        `<a data-link-id="${news}" href="https://example.org/news?a=1&amp;b=2">News</a> <a href="mailto:x@example.org">Mail</a> ` +
        `<a data-link-id="${events}" href="https://example.org/events">Events</a></body></html>`,
    );
    const jobs = await t.db.pool.query(`SELECT email, status FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id`, [id]);
    expect(jobs.rows).toEqual([
      { email: 'ann@example.org', status: 'QUEUED' },
      { email: 'bob@example.org', status: 'QUEUED' },
      { email: 'cid@example.org', status: 'QUEUED' },
    ]);
    // jobSuccessCount is the delivered count: jobs SES confirmed (SENT_SUCCESS), not those merely sent.
    await t.db.pool.query(
      `UPDATE campaign_jobs SET status = CASE email WHEN 'ann@example.org' THEN 'SENT_SUCCESS' ELSE 'SENT_WAIT_ACK' END WHERE campaign_id = $1`,
      [id],
    );
    expect((await get(`/api/campaigns/${id}?job_success_count=true`)).body.jobSuccessCount).toBe(1);
    expect((await get(`/api/campaigns/${id}?job_success_count=false`)).body).not.toHaveProperty('jobSuccessCount');

    expect((await post(`/api/campaigns/${id}/send`)).body).toEqual({ message: ONLY_DRAFTS_SENT });
    expect((await post(`/api/campaigns/${id}/send`)).status).toBe(409);
    expect((await put(`/api/campaigns/${id}`, { name: 'Sending', subject: 'Changed' })).body).toEqual({ message: ONLY_DRAFTS_EDITED });
    const renamed = await put(`/api/campaigns/${id}`, { name: 'Renamed while sending' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed while sending', status: 'SENDING' });
    expect((await api().delete(`/api/campaigns/${id}`).set('Authorization', auth)).body).toEqual({ message: NOT_WHILE_SENDING });
  });

  it('continues only from ERROR, to the contacts not sent to yet', async () => {
    const id = await ready('Continue');
    expect((await post(`/api/campaigns/${id}/continue`)).body).toEqual({ message: ONLY_ERRORS_CONTINUED });
    expect((await post(`/api/campaigns/${id}/send`)).status).toBe(202);
    expect((await post(`/api/campaigns/${id}/continue`)).status).toBe(409);
    // A stop by the worker: one job sent, the others still queued.
    await t.db.pool.query(
      `UPDATE campaign_jobs SET status = 'SENT_WAIT_ACK' WHERE id = (SELECT min(id) FROM campaign_jobs WHERE campaign_id = $1)`,
      [id],
    );
    await t.db.pool.query(`UPDATE campaigns SET status = 'ERROR', error_message = 'Daily quota' WHERE id = $1`, [id]);
    const res = await post(`/api/campaigns/${id}/continue`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: CONTINUE_STARTED });
    expect(await row(id)).toMatchObject({ status: 'SENDING', error_message: null, contact_count: 3 });
    expect((await post('/api/campaigns/999999/continue')).status).toBe(404);
  });

  it('replicates a campaign as a new draft with its content', async () => {
    const id = await ready('Original');
    expect((await post(`/api/campaigns/${id}/send`)).status).toBe(202);
    const res = await post(`/api/campaigns/${id}/replicate`);
    expect(res.status).toBe(201);
    const copy = await get(`/api/campaigns/${res.body.id}`);
    expect(copy.body).toMatchObject({
      name: 'Original (copy)',
      status: 'DRAFT',
      audienceId: audience.id,
      templateId,
      fromName: 'Example News',
      fromEmail: 'news@example.org',
      subject: 'Hi {{firstName}}',
      previewText: 'This week',
      html: null,
      contactCount: 0,
      deliveryDate: null,
    });
    const long = await create({ name: 'n'.repeat(200) });
    expect((await get(`/api/campaigns/${(await post(`/api/campaigns/${long}/replicate`)).body.id}`)).body.name).toHaveLength(200);
    expect((await post('/api/campaigns/999999/replicate')).status).toBe(404);
  });

  it('deletes a campaign that is not sending, with its jobs and links', async () => {
    const id = await ready('Deleted');
    expect((await post(`/api/campaigns/${id}/send`)).status).toBe(202);
    await t.db.pool.query(`UPDATE campaigns SET status = 'SENT' WHERE id = $1`, [id]);
    const res = await api().delete(`/api/campaigns/${id}`).set('Authorization', auth);
    expect(res.status).toBe(204);
    expect((await get(`/api/campaigns/${id}`)).status).toBe(404);
    expect((await t.db.pool.query('SELECT 1 FROM campaign_jobs WHERE campaign_id = $1', [id])).rows).toHaveLength(0);
    expect((await api().delete(`/api/campaigns/${id}`).set('Authorization', auth)).status).toBe(404);
    expect((await api().delete('/api/campaigns/abc').set('Authorization', auth)).status).toBe(400);
  });

  it('answers 400 for ids out of range and 404 for unknown ones', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
      expect((await get(`/api/campaigns/${id}`)).status, id).toBe(400);
    }
    expect((await get('/api/campaigns/999999')).status).toBe(404);
    expect((await get('/api/campaigns/1?job_success_count=maybe')).status).toBe(400);
  });
});
