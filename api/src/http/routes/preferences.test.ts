/**
 * The preference centre (issue 25): `/preferences/{token}` with the unsubscribe link's token, through the
 * whole API with responses validated. A person on two audiences with public names (and one without, which
 * stays hidden) sees a switch for each and the fields those audiences let them edit; a save sets or clears
 * contacts.unsubscribed_at, writes the changed values and appends the ledger; a value that does not fit its
 * field saves nothing; only the page's own form is taken; leaving everything is the unsubscribe link's POST; a
 * bad token and an erased address see the same "not valid" page. Also the audience's public name (PATCH).
 */
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { createTrackingTokens, type TrackingTokens } from '../../mail/tracking-tokens.js';

let t: TestApp;
let tokens: TrackingTokens;
let auth: string;
let news: number;
let events: number;
let internal: number;
/** Ann's mail of the news audience's campaign, and Bob's. */
let annJob: number;
let bobJob: number;

const api = () => request(t.app);
const page = (jobId: number) => `/preferences/${tokens.unsubscribe(jobId)}`;

async function field(audienceId: number, position: number, key: string, type: string, options: string[] | null, editable: boolean) {
  await t.db.pool.query(
    `INSERT INTO audience_fields (audience_id, key, label, type, options, editable_by_person, position) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [audienceId, key, key[0]!.toUpperCase() + key.slice(1), type, options && JSON.stringify(options), editable, position],
  );
}

async function job(audienceId: number, email: string): Promise<number> {
  const campaign = await t.db.pool.query<{ id: string }>(
    `INSERT INTO campaigns (name, status, audience_id) VALUES ('Mailed', 'SENT', $1) RETURNING id`,
    [audienceId],
  );
  const { rows } = await t.db.pool.query<{ id: string }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status)
     SELECT $1, id, email, 'SENT_SUCCESS' FROM contacts WHERE audience_id = $2 AND email = $3 RETURNING id`,
    [Number(campaign.rows[0]!.id), audienceId, email],
  );
  return Number(rows[0]!.id);
}

/** The hidden signed value of the page's form. */
async function formValue(jobId: number): Promise<string> {
  const { text } = await api().get(page(jobId));
  return /name="form" value="([^"]+)"/.exec(text)![1]!;
}

const post = (jobId: number, fields: Record<string, string>, origin?: string) => {
  const req = api().post(page(jobId)).type('form');
  if (origin) req.set('Origin', origin);
  return req.send(new URLSearchParams(fields).toString());
};

const contacts = async (audienceId: number) =>
  (
    await t.db.pool.query<{ email: string; left: boolean; data: Record<string, unknown> }>(
      'SELECT email, unsubscribed_at IS NOT NULL AS left, data FROM contacts WHERE audience_id = $1 ORDER BY id',
      [audienceId],
    )
  ).rows;

const ledger = async () =>
  (
    await t.db.pool.query<{ audience_id: string | null; event: string; detail: unknown; email: string }>(
      `SELECT audience_id, event, detail, email FROM consent_ledger WHERE event IN ('UNSUBSCRIBED', 'RESUBSCRIBED', 'PREFERENCES') ORDER BY id`,
    )
  ).rows.map((row) => ({ ...row, audience_id: row.audience_id === null ? null : Number(row.audience_id) }));

beforeAll(async () => {
  t = await createTestApp();
  tokens = createTrackingTokens(t.config.trackingSecret);
  auth = await bearer();
  news = (
    await seedAudience(t.db.pool, {
      name: 'News (internal name)',
      headers: ['city', 'secret'],
      contacts: [
        { email: 'Ann@Example.org', data: { city: 'Lyon', secret: 'VIP' } },
        { email: 'bob@example.org', data: { city: 'Oslo' } },
      ],
    })
  ).id;
  events = (
    await seedAudience(t.db.pool, {
      name: 'Events (internal name)',
      headers: ['age', 'birthday', 'member', 'tier'],
      contacts: [{ email: 'ann@example.org', data: { age: 41, member: true, tier: 'Gold' } }],
    })
  ).id;
  internal = (await seedAudience(t.db.pool, { name: 'Internal', headers: [], contacts: [{ email: 'ANN@example.org' }] })).id;
  await field(news, 1, 'city', 'TEXT', null, true);
  await field(news, 2, 'secret', 'TEXT', null, false);
  await field(events, 1, 'age', 'NUMBER', null, true);
  await field(events, 2, 'birthday', 'DATE', null, true);
  await field(events, 3, 'member', 'YES_NO', null, true);
  await field(events, 4, 'tier', 'CHOICE', ['Gold', 'Silver'], true);
  for (const [id, publicName] of [
    [news, ' Tree news '],
    [events, 'Events near you'],
  ] as const) {
    const res = await api().patch(`/api/audiences/${id}`).set('Authorization', auth).send({ publicName });
    expect(res.status).toBe(200);
  }
  annJob = await job(news, 'Ann@Example.org');
  bobJob = await job(news, 'bob@example.org');
});
afterAll(() => t?.close());

describe("an audience's public name", () => {
  it('is trimmed, returned with the audience, at most 100 characters, and cleared by null or blank', async () => {
    const patch = (id: number, publicName: unknown) => api().patch(`/api/audiences/${id}`).set('Authorization', auth).send({ publicName });
    expect((await api().get(`/api/audiences/${news}`).set('Authorization', auth)).body.publicName).toBe('Tree news');
    const long = await patch(internal, 'x'.repeat(101));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('A public name is at most 100 characters.');
    expect((await patch(internal, 'Staff')).body.publicName).toBe('Staff');
    expect((await patch(internal, '  ')).body.publicName).toBeNull();
    await patch(internal, 'Staff');
    expect((await patch(internal, null)).body.publicName).toBeNull();
    expect((await patch(internal, 'Two\nlines')).status).toBe(400);
    expect((await patch(999999, 'X')).status).toBe(404);
  });
});

describe('the preference centre', () => {
  beforeEach(async () => {
    await t.db.pool.query('UPDATE contacts SET unsubscribed_at = NULL');
    await t.db.pool.query('DELETE FROM suppressions');
  });

  it('is linked from the unsubscribe page with the same token', async () => {
    const { text } = await api().get(`/unsubscribe/${tokens.unsubscribe(annJob)}`);
    expect(text).toContain(`<a href="/preferences/${tokens.unsubscribe(annJob)}">Manage your preferences</a>`);
  });

  it("shows the person's audiences with a public name, a switch each, and only the fields they may edit", async () => {
    const res = await api().get(page(annJob));
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<legend>Events near you</legend>');
    expect(res.text).toContain('<legend>Tree news</legend>');
    // Audiences by public name; the one without a public name is not shown, nor any internal name.
    expect(res.text.indexOf('Events near you')).toBeLessThan(res.text.indexOf('Tree news'));
    expect(res.text).not.toContain('internal name');
    expect(res.text).not.toContain('Internal');
    expect(res.text).toContain(`name="audience-${news}" type="checkbox" value="on" checked`);
    expect(res.text).toContain(`name="audience-${events}" type="checkbox" value="on" checked`);
    expect(res.text).toContain(`name="field-${news}-city" type="text" value="Lyon"`);
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('VIP');
    expect(res.text).toContain(`name="field-${events}-age" type="text" value="41" inputmode="decimal"`);
    expect(res.text).toContain(`name="field-${events}-birthday" type="date" value=""`);
    expect(res.text).toMatch(new RegExp(`name="field-${events}-member">.*<option selected>Yes</option>`));
    expect(res.text).toMatch(new RegExp(`name="field-${events}-tier">.*<option selected>Gold</option><option>Silver</option>`));
    expect(res.text).toContain('Unsubscribe from everything');
    // Bob is on the news audience only.
    const bob = await api().get(page(bobJob));
    expect(bob.text).toContain('Tree news');
    expect(bob.text).not.toContain('Events near you');
  });

  it('saves: an audience switched off, fields written by type, the ledger naming the changed keys only', async () => {
    const before = (await ledger()).length;
    const res = await post(annJob, {
      form: await formValue(annJob),
      action: 'save',
      [`audience-${news}`]: 'on',
      [`field-${news}-city`]: ' Paris ',
      [`field-${events}-age`]: '1,234.5',
      [`field-${events}-birthday`]: '1990-02-28',
      [`field-${events}-member`]: 'No',
      [`field-${events}-tier`]: 'silver',
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Your preferences are saved</title>');
    expect(res.text).toContain('You will no longer receive Events near you.');
    expect(res.text).toContain('Your details for Tree news are updated: City.');
    expect(res.text).toContain('Your details for Events near you are updated: Age, Birthday, Member, Tier.');
    expect(await contacts(news)).toEqual([
      { email: 'Ann@Example.org', left: false, data: { city: 'Paris', secret: 'VIP' } },
      { email: 'bob@example.org', left: false, data: { city: 'Oslo' } },
    ]);
    expect(await contacts(events)).toEqual([
      { email: 'ann@example.org', left: true, data: { age: 1234.5, birthday: '1990-02-28', member: false, tier: 'Silver' } },
    ]);
    expect(await contacts(internal)).toEqual([{ email: 'ANN@example.org', left: false, data: {} }]);
    const entries = (await ledger()).slice(before);
    expect(entries).toEqual([
      { audience_id: events, event: 'UNSUBSCRIBED', detail: null, email: 'Ann@Example.org' },
      { audience_id: events, event: 'PREFERENCES', detail: { fields: ['age', 'birthday', 'member', 'tier'] }, email: 'Ann@Example.org' },
      { audience_id: news, event: 'PREFERENCES', detail: { fields: ['city'] }, email: 'Ann@Example.org' },
    ]);
    expect(JSON.stringify(entries)).not.toContain('Paris');

    // The page shows the switch off; switching it on again is a RESUBSCRIBED entry; the same form again changes nothing.
    expect((await api().get(page(annJob))).text).toContain(`name="audience-${events}" type="checkbox" value="on">`);
    const again = {
      form: await formValue(annJob),
      action: 'save',
      [`audience-${news}`]: 'on',
      [`audience-${events}`]: 'on',
      [`field-${news}-city`]: 'Paris',
    };
    // The switch of the beforeEach's reset is on again: turn it off first, as a person would have.
    await t.db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE audience_id = $1', [events]);
    expect((await post(annJob, again)).text).toContain('You will receive Events near you again.');
    expect((await ledger()).slice(before + 3).map((entry) => [entry.audience_id, entry.event])).toEqual([[events, 'RESUBSCRIBED']]);
    const same = await post(annJob, again);
    expect(same.text).toContain('<title>Nothing was changed</title>');
    expect((await ledger()).length).toBe(before + 4);
  });

  it('refuses values that do not fit their fields, saving nothing and showing what was posted', async () => {
    const before = await contacts(events);
    const res = await post(annJob, {
      form: await formValue(annJob),
      action: 'save',
      [`field-${news}-city`]: 'Rome',
      [`field-${events}-age`]: 'forty',
      [`field-${events}-birthday`]: '2026-02-30',
      [`field-${events}-tier`]: 'Bronze',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Nothing was saved');
    expect(res.text).toContain('Events near you: Age: &#39;forty&#39; is not a number');
    expect(res.text).toContain('Events near you: Birthday: &#39;2026-02-30&#39; is not a date');
    expect(res.text).toContain('Events near you: Tier: &#39;Bronze&#39; is not one of');
    expect(res.text).toContain(`name="field-${news}-city" type="text" value="Rome"`);
    // Both switches were off in the post: shown off again, nothing left.
    expect(res.text).toContain(`name="audience-${news}" type="checkbox" value="on">`);
    expect(await contacts(events)).toEqual(before);
    expect((await contacts(news))[0]!.left).toBe(false);
    expect((await contacts(news))[0]!.data).toEqual({ city: 'Paris', secret: 'VIP' });
  });

  it("takes only its own form: no signed value, another token's, or another site's origin is refused", async () => {
    const fields = { action: 'save', [`audience-${news}`]: 'on', [`audience-${events}`]: 'on', [`field-${news}-city`]: 'Evil' };
    expect((await post(annJob, { ...fields, form: 'zz.aaaaaaaaaaaaaaaaaaaaaa' })).status).toBe(403);
    expect((await post(annJob, { ...fields, form: await formValue(bobJob) })).status).toBe(403);
    const crossSite = await post(annJob, { ...fields, form: await formValue(annJob) }, 'https://evil.example');
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toContain('Your preferences were not saved');
    const leave = await post(annJob, { action: 'leave', form: await formValue(annJob) }, 'https://evil.example');
    expect(leave.status).toBe(403);
    expect((await contacts(news))[0]!.data).toEqual({ city: 'Paris', secret: 'VIP' });
    expect((await t.db.pool.query('SELECT 1 FROM suppressions')).rows).toEqual([]);
    // The API's own origin is the page's.
    expect((await post(annJob, { ...fields, form: await formValue(annJob) }, new URL(t.config.publicUrl).origin)).status).toBe(200);
    expect((await contacts(news))[0]!.data).toEqual({ city: 'Evil', secret: 'VIP' });
    await post(annJob, { ...fields, [`field-${news}-city`]: 'Paris', form: await formValue(annJob) });
  });

  it('leaves everything as the unsubscribe link does, and says so on the next visit', async () => {
    const res = await post(bobJob, { action: 'leave', form: await formValue(bobJob) });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are unsubscribed');
    const { rows } = await t.db.pool.query(`SELECT email_lower, reason FROM suppressions`);
    expect(rows).toEqual([{ email_lower: 'bob@example.org', reason: 'UNSUBSCRIBE' }]);
    expect((await api().get(`/unsubscribe/${tokens.unsubscribe(bobJob)}`)).text).toContain('You are already unsubscribed');
    const next = await api().get(page(bobJob));
    expect(next.text).toContain('You unsubscribed from every email of');
    expect(next.text).not.toContain('Unsubscribe from everything');
  });

  it("shows a contact that left as 'Unsubscribed from this audience': the contacts page and the report's NOT_SENT rows", async () => {
    await post(annJob, { form: await formValue(annJob), action: 'save', [`audience-${news}`]: 'on' });
    const list = await api().get(`/api/audiences/${events}/contacts`).set('Authorization', auth);
    expect(list.status).toBe(200);
    expect(list.body.items[0].unsubscribedAt).toEqual(expect.any(String));
    const newsList = await api().get(`/api/audiences/${news}/contacts`).set('Authorization', auth);
    expect(newsList.body.items.map((item: { unsubscribedAt?: string }) => item.unsubscribedAt)).toEqual([undefined, undefined]);
    // A campaign of the events audience that has not mailed Ann: her row is NOT_SENT, and says why.
    const campaign = await t.db.pool.query<{ id: string }>(
      `INSERT INTO campaigns (name, status, audience_id) VALUES ('Events mail', 'SENT', $1) RETURNING id`,
      [events],
    );
    const report = await api().get(`/api/reports/${campaign.rows[0]!.id}/email-performance?sendStatus=NOT_SENT`).set('Authorization', auth);
    expect(report.status).toBe(200);
    // "Send to contact" says why it sends nothing.
    const send = await api()
      .post(`/api/reports/${campaign.rows[0]!.id}/send-to-contact/${report.body.items[0].contactId}`)
      .set('Authorization', auth);
    expect(send.status).toBe(409);
    expect(send.body.message).toBe('This person unsubscribed from this audience: it is not sent to.');
    expect(report.body.items).toEqual([
      expect.objectContaining({ email: 'ann@example.org', status: 'NOT_SENT', leftAudience: true, suppressionReason: null }),
    ]);
  });

  it('answers a bad token, a token of another kind and an erased address with the same page', async () => {
    const erased = await job(news, 'bob@example.org');
    await t.db.pool.query(`UPDATE campaign_jobs SET email = erased_job_email(email, email) WHERE id = $1`, [erased]);
    for (const url of [
      `/preferences/${tokens.open(annJob)}`,
      `/preferences/${tokens.unsubscribe(annJob).slice(0, -1)}A`,
      `/preferences/${tokens.unsubscribe(987654)}`,
      page(erased),
    ]) {
      const res = await api().get(url);
      expect(res.status, url).toBe(404);
      expect(res.text).toContain('<title>This link is not valid</title>');
    }
    // The page's own signed value does not help an erased address either.
    const erasedPost = await post(erased, { action: 'save', form: t.deps.services.preferences.formValue(tokens.unsubscribe(erased)) });
    expect(erasedPost.status).toBe(404);
    expect(erasedPost.text).toContain('<title>This link is not valid</title>');
  });
});
