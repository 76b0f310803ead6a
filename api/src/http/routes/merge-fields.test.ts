/**
 * Merge tags against an audience's typed fields, through the whole API: values written by type in ORG_LOCALE (here
 * de-DE) in a rendered and a test mail, fallbacks, and the pre-send check that refuses a send or a schedule whose
 * template, subject or preview text uses a tag the audience lacks, naming it; the editor's validation lists it.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeededAudience } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { lacksTagsMessage } from '../../services/campaigns/campaign-service.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let audience: SeededAudience;

const SENDER = 'news@example.org';

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 100, max24HourSend: 1000 });
  t = await createTestApp({ env: { AUTHORIZED_SENDER_EMAILS: SENDER, SES_ENDPOINT: ses.endpoint, ORG_LOCALE: 'de-DE' } });
  auth = await bearer();
  const res = await post('/api/audiences', { name: 'Typed' });
  const id = res.body.id as number;
  for (const field of [
    { key: 'firstName', label: 'First name', type: 'TEXT' },
    { key: 'donated', label: 'Donated', type: 'NUMBER' },
    { key: 'joined', label: 'Joined', type: 'DATE' },
    { key: 'member', label: 'Member', type: 'YES_NO' },
  ]) {
    expect((await post(`/api/audiences/${id}/fields`, field)).status).toBe(201);
  }
  // The contacts of that audience, typed as the storage rule has them (the seed writes the rows).
  const seeded = await seedAudience(t.db.pool, {
    headers: [],
    contacts: [
      { email: 'ann@example.org', data: { firstName: 'Ann', donated: 1234.5, joined: '2021-03-04', member: true } },
      { email: 'bob@example.org', data: { donated: 7 } },
    ],
  });
  await t.db.pool.query('UPDATE contacts SET audience_id = $1 WHERE audience_id = $2', [id, seeded.id]);
  await t.db.pool.query('UPDATE audiences SET number_of_contacts = 2, source = $2 WHERE id = $1', [id, 'CSV']);
  audience = { id, contactIds: seeded.contactIds };
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const post = (path: string, body?: object) => api().post(path).set('Authorization', auth).send(body);
const put = (path: string, body: object) => api().put(path).set('Authorization', auth).send(body);

async function draft(html: string, subject = 'Hello', previewText = 'News'): Promise<number> {
  const templateId = await seedTemplate(t.db.pool, { name: 'Typed template', html });
  const created = await post('/api/campaigns', { name: 'Typed', templateId });
  const id = created.body.id as number;
  const saved = await put(`/api/campaigns/${id}`, {
    name: 'Typed',
    audienceId: audience.id,
    templateId,
    fromName: 'News',
    fromEmail: SENDER,
    subject,
    previewText,
  });
  expect(saved.status).toBe(200);
  return id;
}

const status = async (id: number) => (await t.db.pool.query('SELECT status FROM campaigns WHERE id = $1', [id])).rows[0].status as string;

describe('merge tags and typed fields', () => {
  it('writes numbers and dates in the organisation locale, yes/no as words, and fallbacks for the empty', async () => {
    const templateId = await seedTemplate(t.db.pool, {
      html: '<p>{{firstName|Freund}}: {{donated}} € seit {{ joined | immer }}, Mitglied: {{member|?}}</p>',
    });
    const ann = await post('/api/campaigns/test-render-email', {
      templateId,
      contactId: audience.contactIds[0],
      subject: 'Danke {{firstName|Freund}} für {{donated}} €',
      previewText: 'Seit {{joined}}',
    });
    expect(ann.status).toBe(200);
    expect(ann.body.template).toContain('<p>Ann: 1.234,5 € seit 4. März 2021, Mitglied: Yes</p>');
    expect(ann.body.subject).toBe('Danke Ann für 1.234,5 €');
    expect(ann.body.previewText).toBe('Seit 4. März 2021');
    const bob = await post('/api/campaigns/test-render-email', {
      templateId,
      contactId: audience.contactIds[1],
      subject: '{{firstName | Freund}}',
    });
    expect(bob.body.template).toContain('<p>Freund: 7 € seit immer, Mitglied: ?</p>');
    expect(bob.body.subject).toBe('Freund');
  });

  it('sends a test mail the same way: typed values in the locale, fallbacks', async () => {
    const templateId = await seedTemplate(t.db.pool, { html: '<p>{{firstName|Freund}} {{donated}} {{joined}}</p>' });
    const res = await post('/api/campaigns/send-test-email', {
      emails: ['qa@example.org'],
      fromEmail: SENDER,
      fromName: 'News',
      subject: 'Für {{firstName}}: {{donated}}',
      templateId,
      audienceId: audience.id,
    });
    expect(res.status).toBe(200);
    const mail = ses.mails.at(-1)!;
    expect(mail.subject).toBe('[Test] Für Ann: 1.234,5');
    expect(mail.html).toContain('<p>Ann 1.234,5 4. März 2021</p>');
  });

  it('refuses to send or schedule a campaign using a tag the audience lacks, naming the tags; a fallback or the address is no lack', async () => {
    const lacking = await draft(
      '<p>Hi {{nickname}} {{firstName}} {{ email }} {{Grade|none}}</p>',
      'For {{Nickname}} in {{city}}',
      '{{nickname}}',
    );
    const send = await post(`/api/campaigns/${lacking}/send`);
    expect(send.status).toBe(400);
    expect(send.body.message).toBe(lacksTagsMessage(['nickname', 'Nickname', 'city']));
    expect(send.body.message).toMatch(/\{\{nickname\}\}, \{\{Nickname\}\}, \{\{city\}\}/);
    const schedule = await post(`/api/campaigns/${lacking}/schedule`, { at: new Date(Date.now() + 3600_000).toISOString() });
    expect(schedule.status).toBe(400);
    expect(schedule.body.message).toBe(send.body.message);
    expect(await status(lacking)).toBe('DRAFT');

    const withFallbacks = await draft('<p>Hi {{nickname|friend}} {{firstName}} {{EMAIL}}</p>', 'For {{ city | you }}');
    const sent = await post(`/api/campaigns/${withFallbacks}/send`);
    expect(sent.status).toBe(202);
    expect(await status(withFallbacks)).toBe('SENDING');
  });

  it('lists in the validation the tags the audience lacks for every contact, and never a tag with a fallback', async () => {
    const templateId = await seedTemplate(t.db.pool, { html: '<p>{{nickname}} {{firstName}} {{donated|0}} {{joined}}</p>' });
    const res = await post('/api/campaigns/validate-campaign', { templateId, audienceId: audience.id, subject: '{{city|here}}' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { contactId: audience.contactIds[0], email: 'ann@example.org', missingFields: ['nickname'] },
      { contactId: audience.contactIds[1], email: 'bob@example.org', missingFields: ['nickname', 'firstName', 'joined'] },
    ]);
  });
});
