/**
 * Segments (issue 26) through the whole API (OpenAPI validation with responses checked, auth, the error handler)
 * against PostgreSQL: every kind of condition counted over a seeded audience whose engagement is written straight
 * into campaign_jobs as the tracking writes it (a machine-only open sets opened_at and must not count), the
 * calls and their activity entries, hostile rules refused with nothing stored, and a campaign sent to a segment:
 * its recipients frozen by the send, its segment's name and rule kept as sent when the segment changes.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeedContact } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { SEGMENT_NOT_IN_AUDIENCE } from '../../services/segments/segment-service.js';

let t: TestApp;
let auth: string;
let audienceId: number;
let otherAudienceId: number;
let templateId: number;
/** Contact ids by the address's local part. */
const ids = new Map<string, number>();
/** The audience's campaigns sent, oldest first; `elsewhere` was sent to the other audience. */
let c1: number, c2: number, c3: number, elsewhere: number;

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);
const post = (path: string, body: object) => api().post(path).set('Authorization', auth).send(body);
const put = (path: string, body: object) => api().put(path).set('Authorization', auth).send(body);
const del = (path: string) => api().delete(path).set('Authorization', auth);
const query = async <R>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows as R[];
const rule = (...rules: object[]) => ({ combinator: 'and', rules });
const segmentCount = async () => Number((await query<{ n: string }>('SELECT count(*) AS n FROM segments'))[0]!.n);

/** The local parts of the contacts a rule counts, through the call (sample on: at most ten, which is all here). */
async function matches(ruleBody: object): Promise<string[]> {
  const res = await post(`/api/audiences/${audienceId}/segment-count?sample=true`, { rule: ruleBody });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const names = (res.body.sample as { email: string }[]).map((contact) => contact.email.split('@')[0]!).sort();
  expect(res.body.count).toBe(names.length);
  return names;
}

async function sentCampaign(name: string, audience: number, daysAgo: number): Promise<number> {
  const [row] = await query<{ id: number }>(
    `INSERT INTO campaigns (name, status, audience_id, delivery_date) VALUES ($1, 'SENT', $2, now() - $3 * interval '1 day') RETURNING id`,
    [name, audience, daysAgo],
  );
  return Number(row!.id);
}

/** A mail of `campaign` to `who`, received, with what the tracking recorded of it. */
async function mail(
  campaign: number,
  who: string,
  seen: { humanOpen?: boolean; machineOpen?: boolean; humanClick?: boolean; softBounce?: boolean } = {},
): Promise<void> {
  const opened = seen.humanOpen || seen.machineOpen;
  await query(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, opened_at, human_opened_at, clicked_at, human_clicked_at, bounce_type)
     SELECT $1, c.id, c.email, 'SENT_SUCCESS',
            CASE WHEN $3 THEN k.delivery_date + interval '1 hour' END, CASE WHEN $4 THEN k.delivery_date + interval '1 hour' END,
            CASE WHEN $5 THEN k.delivery_date + interval '2 hours' END, CASE WHEN $5 THEN k.delivery_date + interval '2 hours' END,
            CASE WHEN $6 THEN 'SOFT' END
       FROM contacts c, campaigns k WHERE c.id = $2 AND k.id = $1`,
    [campaign, ids.get(who), opened === true, seen.humanOpen === true, seen.humanClick === true, seen.softBounce === true],
  );
}

beforeAll(async () => {
  t = await createTestApp({ env: { AUTHORIZED_SENDER_EMAILS: 'newsletter@example.org' } });
  auth = await bearer();
  const recent = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  const people: SeedContact[] = [
    { email: 'ann@alpha.org', data: { city: 'Paris', age: 30, birthday: '1990-05-01', vip: true, plan: 'Pro' } },
    { email: 'bob@beta.org', data: { city: 'Berlin', age: 45, birthday: recent, vip: false, plan: 'Free' } },
    { email: 'cy@alpha.org', data: { city: 'paris' } },
    { email: 'dee@mail.alpha.org', data: { city: 'Rome', age: 20 } },
    { email: 'eve@gamma.org', data: { city: 'Paris' } },
    { email: 'fay@gamma.org', data: { city: 'Paris' } },
    { email: 'gus@beta.org', data: { city: 'Paris' }, error: 'Invalid email address' },
    { email: 'hal@beta.org' },
    { email: 'ivy@alpha.org' },
    { email: 'jo@beta.org' },
  ];
  const seeded = await seedAudience(t.db.pool, {
    name: 'Segmented',
    headers: ['city', 'age', 'birthday', 'vip', 'plan'],
    contacts: people,
  });
  audienceId = seeded.id;
  people.forEach((person, n) => ids.set(person.email.split('@')[0]!, seeded.contactIds[n]!));
  await query(
    `INSERT INTO audience_fields (audience_id, key, label, type, options, position) VALUES
       ($1, 'city', 'City', 'TEXT', NULL, 1), ($1, 'age', 'Age', 'NUMBER', NULL, 2), ($1, 'birthday', 'Birthday', 'DATE', NULL, 3),
       ($1, 'vip', 'VIP', 'YES_NO', NULL, 4), ($1, 'plan', 'Plan', 'CHOICE', '["Free","Pro"]'::jsonb, 5)`,
    [audienceId],
  );
  // eve left the audience; fay's address is suppressed; gus is invalid: no send reaches them.
  await query('UPDATE contacts SET unsubscribed_at = now() WHERE id = $1', [ids.get('eve')]);
  await query(`INSERT INTO suppressions (email_lower, reason) VALUES ('fay@gamma.org', 'HARD_BOUNCE')`);
  // ivy joined by a form, jo was added by hand; the others came by the import.
  await query(
    `INSERT INTO consent_ledger (audience_id, address_key, email, event) VALUES
       ($1, 'ivy@alpha.org', 'ivy@alpha.org', 'SUBSCRIBED'), ($1, 'ivy@alpha.org', 'ivy@alpha.org', 'CONFIRMED'),
       ($1, 'jo@beta.org', 'jo@beta.org', 'ADDED')`,
    [audienceId],
  );
  // hal asked by a form to join again and has not confirmed yet.
  const [form] = await query<{ id: number }>(
    `INSERT INTO signup_forms (audience_id, slug, name, success_message, mail_subject, mail_text, from_name, from_email)
     VALUES ($1, 'news', 'News', 'Thanks', 'Confirm', 'Confirm {{link}}', 'News', 'newsletter@example.org') RETURNING id`,
    [audienceId],
  );
  await query(
    `INSERT INTO pending_signups (form_id, audience_id, email, consent_version, expires_at) VALUES ($1, $2, 'HAL@beta.org', 1, now() + interval '1 day')`,
    [form!.id, audienceId],
  );

  otherAudienceId = (await seedAudience(t.db.pool, { name: 'Other', headers: [], contacts: [{ email: 'zed@example.org' }] })).id;
  c1 = await sentCampaign('First', audienceId, 3);
  c2 = await sentCampaign('Second', audienceId, 2);
  c3 = await sentCampaign('Third', audienceId, 1);
  elsewhere = await sentCampaign('Elsewhere', otherAudienceId, 1);
  for (const campaign of [c1, c2, c3]) await mail(campaign, 'ann', { humanOpen: true, humanClick: campaign === c3 });
  await mail(c1, 'bob');
  await mail(c2, 'bob');
  await mail(c3, 'bob', { machineOpen: true });
  await mail(c3, 'cy', { humanOpen: true });
  await mail(c1, 'dee', { humanOpen: true });
  await mail(c2, 'dee', { softBounce: true });
  await mail(c3, 'dee', { softBounce: true });
  await mail(c3, 'ivy');
  await mail(c3, 'jo');
  templateId = await seedTemplate(t.db.pool, { html: '<p>Hello from {{city}}</p>' });
});
afterAll(async () => {
  await t?.close();
});

const SENDABLE = ['ann', 'bob', 'cy', 'dee', 'hal', 'ivy', 'jo'];

describe('counting a rule', () => {
  it('needs a token and a live audience', async () => {
    expect((await api().post(`/api/audiences/${audienceId}/segment-count`).send({ rule: rule() })).status).toBe(401);
    expect((await post('/api/audiences/999999/segment-count', { rule: rule() })).status).toBe(404);
  });

  it('counts, without a rule, every contact a send reaches: not invalid, left or suppressed', async () => {
    expect(await matches(rule())).toEqual(SENDABLE);
    const res = await post(`/api/audiences/${audienceId}/segment-count`, { rule: rule() });
    expect(res.body).toEqual({ count: 7 });
  });

  it.each([
    ['text equals, without case', { field: 'fields.city', operator: 'equals', value: 'PARIS' }, ['ann', 'cy']],
    [
      'text not equals (no value is not Paris)',
      { field: 'fields.city', operator: 'notEquals', value: 'Paris' },
      ['bob', 'dee', 'hal', 'ivy', 'jo'],
    ],
    ['text contains', { field: 'fields.city', operator: 'contains', value: 'ER' }, ['bob']],
    ['text starts with', { field: 'fields.city', operator: 'startsWith', value: 'r' }, ['dee']],
    ['text one of', { field: 'fields.city', operator: 'oneOf', value: ['Rome', 'berlin'] }, ['bob', 'dee']],
    ['text is empty', { field: 'fields.city', operator: 'isEmpty' }, ['hal', 'ivy', 'jo']],
    ['text is not empty', { field: 'fields.city', operator: 'isNotEmpty', value: '' }, ['ann', 'bob', 'cy', 'dee']],
    ['number greater than', { field: 'fields.age', operator: 'greaterThan', value: 25 }, ['ann', 'bob']],
    ['number less than, written as text', { field: 'fields.age', operator: 'lessThan', value: '25' }, ['dee']],
    ['number equals', { field: 'fields.age', operator: 'equals', value: 45 }, ['bob']],
    ['number not equals', { field: 'fields.age', operator: 'notEquals', value: 45 }, ['ann', 'cy', 'dee', 'hal', 'ivy', 'jo']],
    ['number is empty', { field: 'fields.age', operator: 'isEmpty' }, ['cy', 'hal', 'ivy', 'jo']],
    ['date before', { field: 'fields.birthday', operator: 'before', value: '2000-01-01' }, ['ann']],
    ['date after', { field: 'fields.birthday', operator: 'after', value: '2000-01-01' }, ['bob']],
    ['date within the last days', { field: 'fields.birthday', operator: 'withinLastDays', value: 7 }, ['bob']],
    ['yes', { field: 'fields.vip', operator: 'equals', value: true }, ['ann']],
    ['no', { field: 'fields.vip', operator: 'equals', value: 'false' }, ['bob']],
    ['choice equals, spelt otherwise', { field: 'fields.plan', operator: 'equals', value: 'pro' }, ['ann']],
    ['choice one of', { field: 'fields.plan', operator: 'oneOf', value: ['Free'] }, ['bob']],
    ['domain equals, without case', { field: 'email.domain', operator: 'equals', value: 'ALPHA.org' }, ['ann', 'cy', 'ivy']],
    ['domain not equals', { field: 'email.domain', operator: 'notEquals', value: 'alpha.org' }, ['bob', 'dee', 'hal', 'jo']],
    ['domain ends with', { field: 'email.domain', operator: 'endsWith', value: 'alpha.org' }, ['ann', 'cy', 'dee', 'ivy']],
    ['domain one of', { field: 'email.domain', operator: 'oneOf', value: ['@beta.org'] }, ['bob', 'hal', 'jo']],
    ['subscribed', { field: 'subscription', operator: 'equals', value: 'subscribed' }, SENDABLE],
    ['pending: asked to join again by a form', { field: 'subscription', operator: 'equals', value: 'pending' }, ['hal']],
    ['not pending', { field: 'subscription', operator: 'notEquals', value: 'pending' }, ['ann', 'bob', 'cy', 'dee', 'ivy', 'jo']],
    ['unsubscribed: none a send reaches', { field: 'subscription', operator: 'equals', value: 'unsubscribed' }, []],
    ['suppressed for a reason: none a send reaches', { field: 'subscription', operator: 'equals', value: 'suppressed:HARD_BOUNCE' }, []],
    ['not suppressed', { field: 'subscription', operator: 'notEquals', value: 'suppressed' }, SENDABLE],
    ['joined by a form', { field: 'joined', operator: 'equals', value: 'form' }, ['ivy']],
    ['added by hand', { field: 'joined', operator: 'equals', value: 'added' }, ['jo']],
    ['imported', { field: 'joined', operator: 'equals', value: 'import' }, ['ann', 'bob', 'cy', 'dee', 'hal']],
    ['not imported', { field: 'joined', operator: 'notEquals', value: 'import' }, ['ivy', 'jo']],
    [
      'opened the last campaign (a machine open is not one)',
      { field: 'engagement.opened', operator: 'anyOfLast', value: 1 },
      ['ann', 'cy'],
    ],
    ['opened any of the last 3', { field: 'engagement.opened', operator: 'anyOfLast', value: 3 }, ['ann', 'cy', 'dee']],
    ['opened all of the last 3', { field: 'engagement.opened', operator: 'allOfLast', value: 3 }, ['ann']],
    ['opened none of the last', { field: 'engagement.opened', operator: 'noneOfLast', value: 1 }, ['bob', 'dee', 'hal', 'ivy', 'jo']],
    ['never opened', { field: 'engagement.opened', operator: 'never' }, ['bob', 'hal', 'ivy', 'jo']],
    ['clicked any of the last 3', { field: 'engagement.clicked', operator: 'anyOfLast', value: 3 }, ['ann']],
    ['never clicked', { field: 'engagement.clicked', operator: 'never' }, ['bob', 'cy', 'dee', 'hal', 'ivy', 'jo']],
    ['soft-bounced at least twice', { field: 'softBounces', operator: 'atLeast', value: 2 }, ['dee']],
    ['soft-bounced at least three times', { field: 'softBounces', operator: 'atLeast', value: 3 }, []],
  ])('%s', async (_what, condition, expected) => {
    expect(await matches(rule(condition))).toEqual(expected);
  });

  it('counts opens since a date, a campaign received, opened (by a person) and clicked', async () => {
    const yesterday = (await query<{ d: string }>(`SELECT to_char(current_date - 1, 'YYYY-MM-DD') AS d`))[0]!.d;
    expect(await matches(rule({ field: 'engagement.opened', operator: 'since', value: yesterday }))).toEqual(['ann', 'cy']);
    expect(await matches(rule({ field: 'campaign.received', operator: 'is', value: c1 }))).toEqual(['ann', 'bob', 'dee']);
    expect(await matches(rule({ field: 'campaign.received', operator: 'isNot', value: String(c3) }))).toEqual(['hal']);
    expect(await matches(rule({ field: 'campaign.opened', operator: 'is', value: c3 }))).toEqual(['ann', 'cy']);
    expect(await matches(rule({ field: 'campaign.opened', operator: 'isNot', value: c3 }))).toEqual(['bob', 'dee', 'hal', 'ivy', 'jo']);
    expect(await matches(rule({ field: 'campaign.clicked', operator: 'is', value: c3 }))).toEqual(['ann']);
  });

  it('combines conditions and groups with AND and OR', async () => {
    const paris = { field: 'fields.city', operator: 'equals', value: 'Paris' };
    const older = { field: 'fields.age', operator: 'greaterThan', value: 25 };
    const beta = { field: 'email.domain', operator: 'equals', value: 'beta.org' };
    expect(await matches(rule(paris, older))).toEqual(['ann']);
    expect(await matches({ combinator: 'or', rules: [paris, older] })).toEqual(['ann', 'bob', 'cy']);
    expect(
      await matches({
        combinator: 'or',
        rules: [
          { combinator: 'and', rules: [paris, older] },
          { combinator: 'and', rules: [beta, { field: 'fields.vip', operator: 'equals', value: false }] },
          { combinator: 'and', rules: [{ field: 'softBounces', operator: 'atLeast', value: 2 }] },
        ],
      }),
    ).toEqual(['ann', 'bob', 'dee']);
    expect(await matches(rule({ combinator: 'or', rules: [] }))).toEqual(SENDABLE);
  });

  it('compares a value that looks like SQL as text, and finds nobody', async () => {
    for (const value of ["Paris' OR '1'='1", "x'); DROP TABLE contacts; --", '$1', '%', '\\']) {
      expect(await matches(rule({ field: 'fields.city', operator: 'equals', value }))).toEqual([]);
      expect(await matches(rule({ field: 'fields.city', operator: 'contains', value }))).toEqual([]);
    }
    expect(await matches(rule())).toEqual(SENDABLE);
  });
});

describe('hostile rules', () => {
  const condition = { field: 'fields.city', operator: 'equals', value: 'Paris' };
  const hostile: [string, unknown][] = [
    ['an unknown field', rule({ field: 'fields.nope', operator: 'equals', value: 'x' })],
    ['a field of another kind', rule({ field: 'contacts.email', operator: 'equals', value: 'x' })],
    ['a field name that looks like SQL', rule({ field: "fields.city'; DROP TABLE contacts; --", operator: 'equals', value: 'x' })],
    ['an unknown operator', rule({ field: 'fields.city', operator: 'like', value: 'x' })],
    ['an operator the type does not take', rule({ field: 'fields.age', operator: 'contains', value: '3' })],
    ['a date operator on text', rule({ field: 'fields.city', operator: 'before', value: '2020-01-01' })],
    ['a number that looks like SQL', rule({ field: 'fields.age', operator: 'greaterThan', value: '1; DROP TABLE contacts' })],
    ['a date that is not one', rule({ field: 'fields.birthday', operator: 'before', value: '2020-02-30' })],
    ['a yes/no that is neither', rule({ field: 'fields.vip', operator: 'equals', value: 'maybe' })],
    ['an option the field lacks', rule({ field: 'fields.plan', operator: 'equals', value: 'Gold' })],
    ['a subscription state that looks like SQL', rule({ field: 'subscription', operator: 'equals', value: "subscribed' OR 1=1" })],
    ['a value of 10 KB', rule({ field: 'fields.city', operator: 'equals', value: 'x'.repeat(10_000) })],
    ['a list of 101 values', rule({ field: 'fields.city', operator: 'oneOf', value: Array.from({ length: 101 }, (_, n) => `c${n}`) })],
    ['a value of the wrong shape', rule({ field: 'fields.city', operator: 'equals', value: { $gt: '' } })],
    ['too many campaigns back', rule({ field: 'engagement.opened', operator: 'anyOfLast', value: 51 })],
    ['a campaign of another audience', rule({ field: 'campaign.received', operator: 'is', value: 0 })],
    ['a value for an operator that takes none', rule({ field: 'fields.city', operator: 'isEmpty', value: 'x' })],
    ['groups nested two deep', rule({ combinator: 'and', rules: [{ combinator: 'or', rules: [condition] }] })],
    ['a tree 50 deep', Array.from({ length: 50 }).reduce<object>((inner) => ({ combinator: 'and', rules: [inner] }), condition)],
    ['21 conditions', rule(...Array.from({ length: 21 }, () => condition))],
    ['10,000 conditions', rule(...Array.from({ length: 10_000 }, () => condition))],
    ['a property the contract lacks', { ...rule(condition), sql: 'DROP TABLE contacts' }],
    ['no combinator', { rules: [condition] }],
  ];

  it.each(hostile)('refuses %s with a 4xx, counting and saving nothing', async (_what, hostileRule) => {
    const rules = hostileRule as { rules?: { value?: unknown }[] };
    if (_what === 'a campaign of another audience') rules.rules![0]!.value = elsewhere;
    const before = await segmentCount();
    const counted = await post(`/api/audiences/${audienceId}/segment-count`, { rule: hostileRule });
    // 10,000 conditions are over the body limit (413) before they are read at all.
    const status = _what === '10,000 conditions' ? 413 : 400;
    expect(counted.status, JSON.stringify(counted.body).slice(0, 300)).toBe(status);
    expect(typeof counted.body.message).toBe('string');
    const saved = await post(`/api/audiences/${audienceId}/segments`, { name: 'Hostile', rule: hostileRule });
    expect(saved.status).toBe(status);
    expect(await segmentCount()).toBe(before);
  });

  it('names the condition it refuses', async () => {
    const res = await post(`/api/audiences/${audienceId}/segment-count`, {
      rule: rule(
        { field: 'fields.city', operator: 'equals', value: 'Paris' },
        {
          combinator: 'or',
          rules: [
            { field: 'fields.city', operator: 'isEmpty' },
            { field: 'fields.nope', operator: 'equals', value: 'x' },
          ],
        },
      ),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The rule's condition 2 of group 2 (fields.nope equals) names no field of the audience.");
  });
});

describe('saved segments', () => {
  const paris = rule({ id: 'r1', field: 'fields.city', operator: 'equals', value: 'Paris' });
  const lastActivity = async () =>
    (
      await query<{ kind: string; object_type: string; object_id: number; details: Record<string, unknown> }>(
        'SELECT kind, object_type, object_id, details FROM activity ORDER BY id DESC LIMIT 1',
      )
    )[0]!;

  it('creates, lists, reads, renames and deletes, each change in the activity log under the audience', async () => {
    expect((await api().get(`/api/audiences/${audienceId}/segments`)).status).toBe(401);
    expect((await get('/api/audiences/999999/segments')).status).toBe(404);
    expect((await post('/api/audiences/999999/segments', { name: 'X', rule: paris })).status).toBe(404);

    const created = await post(`/api/audiences/${audienceId}/segments`, { name: ' Parisians ', rule: paris });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ audienceId, name: 'Parisians', rule: paris });
    const id = created.body.id as number;
    expect(await lastActivity()).toMatchObject({
      kind: 'segment-create',
      object_type: 'audience',
      object_id: audienceId,
      details: { segmentId: id, name: 'Parisians' },
    });

    expect((await post(`/api/audiences/${audienceId}/segments`, { name: 'PARISIANS', rule: rule() })).status).toBe(409);
    expect((await post(`/api/audiences/${otherAudienceId}/segments`, { name: 'Parisians', rule: rule() })).status).toBe(201);

    const list = await get(`/api/audiences/${audienceId}/segments`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(['Parisians']);
    expect((await get(`/api/segments/${id}`)).body).toEqual(created.body);
    expect((await get('/api/segments/999999')).status).toBe(404);

    const berlin = rule({ field: 'fields.city', operator: 'equals', value: 'Berlin' });
    const renamed = await put(`/api/segments/${id}`, { name: 'Berliners', rule: berlin });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Berliners', rule: berlin });
    expect(await lastActivity()).toMatchObject({
      kind: 'segment-change',
      details: { segmentId: id, name: 'Berliners', from: 'Parisians', changed: ['name', 'rule'] },
    });
    // The same rule saved again (stored as jsonb, it reads back with its keys reordered) is no change; a new name is.
    const entries = async () => Number((await query<{ n: string }>('SELECT count(*) AS n FROM activity'))[0]!.n);
    const before = await entries();
    expect((await put(`/api/segments/${id}`, { name: 'Berliners', rule: berlin })).status).toBe(200);
    expect(await entries()).toBe(before);
    expect((await put(`/api/segments/${id}`, { name: 'Berlin people', rule: berlin })).status).toBe(200);
    expect(await lastActivity()).toMatchObject({ kind: 'segment-change', details: { changed: ['name'], from: 'Berliners' } });
    expect((await put(`/api/segments/${id}`, { name: 'Berliners', rule: berlin })).status).toBe(200);
    expect((await put(`/api/segments/${id}`, { name: 'B', rule: rule({ field: 'fields.nope', operator: 'isEmpty' }) })).status).toBe(400);
    expect((await get(`/api/segments/${id}`)).body.name).toBe('Berliners');
    expect((await put('/api/segments/999999', { name: 'B', rule: berlin })).status).toBe(404);

    const other = await post(`/api/audiences/${audienceId}/segments`, { name: 'Other', rule: rule() });
    expect((await put(`/api/segments/${other.body.id}`, { name: 'berliners', rule: rule() })).status).toBe(409);

    expect((await del(`/api/segments/${id}`)).status).toBe(204);
    expect(await lastActivity()).toMatchObject({ kind: 'segment-delete', details: { segmentId: id, name: 'Berliners' } });
    expect((await get(`/api/segments/${id}`)).status).toBe(404);
    expect((await del(`/api/segments/${id}`)).status).toBe(404);
  });
});

describe('a campaign sent to a segment', () => {
  async function draft(name: string, body: object = {}): Promise<number> {
    const id = (await post('/api/campaigns', { name, templateId })).body.id as number;
    const res = await put(`/api/campaigns/${id}`, {
      name,
      audienceId,
      templateId,
      fromName: 'News',
      fromEmail: 'newsletter@example.org',
      subject: 'Hello',
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return id;
  }

  it('targets a segment of its own audience only, and loses it with a change of audience', async () => {
    const mine = (
      await post(`/api/audiences/${audienceId}/segments`, {
        name: 'Romans',
        rule: rule({ field: 'fields.city', operator: 'equals', value: 'Rome' }),
      })
    ).body;
    const theirs = (await post(`/api/audiences/${otherAudienceId}/segments`, { name: 'All of them', rule: rule() })).body;
    const id = await draft('Targeted');
    expect((await get(`/api/campaigns/${id}`)).body.segment).toBeNull();

    const refused = await put(`/api/campaigns/${id}`, { name: 'Targeted', segmentId: theirs.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(SEGMENT_NOT_IN_AUDIENCE);
    expect((await put(`/api/campaigns/${id}`, { name: 'Targeted', segmentId: 999999 })).status).toBe(400);

    const saved = await put(`/api/campaigns/${id}`, { name: 'Targeted', segmentId: mine.id });
    expect(saved.status).toBe(200);
    expect(saved.body.segment).toEqual({ id: mine.id, name: 'Romans', rule: mine.rule });
    const listed = (await get('/api/campaigns?limit=100')).body.data.items.find((c: { id: number }) => c.id === id);
    expect(listed.segment).toEqual({ id: mine.id, name: 'Romans', rule: mine.rule });

    // Deleting the segment is refused while the draft targets it, naming the draft.
    const refusedDelete = await del(`/api/segments/${mine.id}`);
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.message).toContain('“Targeted”');

    // Another audience drops it; one of the new audience's may be chosen in the same save.
    const moved = await put(`/api/campaigns/${id}`, { name: 'Targeted', audienceId: otherAudienceId });
    expect(moved.body.segment).toBeNull();
    const both = await put(`/api/campaigns/${id}`, { name: 'Targeted', audienceId: audienceId, segmentId: mine.id });
    expect(both.body.segment?.id).toBe(mine.id);
    const cleared = await put(`/api/campaigns/${id}`, { name: 'Targeted', segmentId: null });
    expect(cleared.body.segment).toBeNull();
    expect((await del(`/api/segments/${mine.id}`)).status).toBe(204);
  });

  it('validates the segment only, freezes its contacts at send and keeps its name and rule as sent', async () => {
    const parisRule = rule({ field: 'fields.city', operator: 'equals', value: 'Paris' });
    const segment = (await post(`/api/audiences/${audienceId}/segments`, { name: 'Paris', rule: parisRule })).body;
    const id = await draft('To Paris', { segmentId: segment.id });

    // {{city}} is missing for hal, ivy and jo, none of whom is in the segment.
    const whole = await post('/api/campaigns/validate-campaign', { templateId, audienceId, subject: 'Hello' });
    expect(whole.body.map((r: { email: string }) => r.email.split('@')[0]).sort()).toEqual(['hal', 'ivy', 'jo']);
    const targeted = await post('/api/campaigns/validate-campaign', { templateId, audienceId, subject: 'Hello', campaignId: id });
    expect(targeted.status).toBe(200);
    expect(targeted.body).toEqual([]);

    const sent = await post(`/api/campaigns/${id}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const recipients = await query<{ email: string }>('SELECT email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY email', [id]);
    expect(recipients.map((r) => r.email)).toEqual(['ann@alpha.org', 'cy@alpha.org']);
    const [snapshot] = await query<{ segment_name: string; segment_rule: unknown }>(
      'SELECT segment_name, segment_rule FROM campaigns WHERE id = $1',
      [id],
    );
    expect(snapshot).toEqual({ segment_name: 'Paris', segment_rule: parisRule });

    // Editing the segment changes nothing that was sent; a draft reads the segment as it is now.
    const berlinRule = rule({ field: 'fields.city', operator: 'equals', value: 'Berlin' });
    expect((await put(`/api/segments/${segment.id}`, { name: 'Berlin', rule: berlinRule })).status).toBe(200);
    expect((await get(`/api/campaigns/${id}`)).body.segment).toEqual({ id: segment.id, name: 'Paris', rule: parisRule });
    const next = await draft('To Berlin', { segmentId: segment.id });
    expect((await get(`/api/campaigns/${next}`)).body.segment).toEqual({ id: segment.id, name: 'Berlin', rule: berlinRule });

    // Sending had started: the sent campaign does not hold the segment back; the draft does.
    expect((await del(`/api/segments/${segment.id}`)).status).toBe(409);
    expect((await put(`/api/campaigns/${next}`, { name: 'To Berlin', segmentId: null })).status).toBe(200);
    expect((await del(`/api/segments/${segment.id}`)).status).toBe(204);
    expect((await get(`/api/campaigns/${id}`)).body.segment).toEqual({ id: null, name: 'Paris', rule: parisRule });
    expect(await query('SELECT email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY email', [id])).toEqual(recipients);
  });

  it('refuses to send to a segment whose rule no longer suits the audience', async () => {
    const segment = (
      await post(`/api/audiences/${audienceId}/segments`, {
        name: 'By plan',
        rule: rule({ field: 'fields.plan', operator: 'equals', value: 'Pro' }),
      })
    ).body;
    const id = await draft('By plan', { segmentId: segment.id });
    await query(`UPDATE audience_fields SET type = 'TEXT', options = NULL WHERE audience_id = $1 AND key = 'plan'`, [audienceId]);
    await query(`UPDATE segments SET rule = $2 WHERE id = $1`, [
      segment.id,
      rule({ field: 'fields.plan', operator: 'greaterThan', value: 1 }),
    ]);
    try {
      const res = await post(`/api/campaigns/${id}/send`, {});
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('cannot use');
      expect((await get(`/api/campaigns/${id}`)).body.status).toBe('DRAFT');
      expect(await query('SELECT 1 FROM campaign_jobs WHERE campaign_id = $1', [id])).toEqual([]);
    } finally {
      await query(`UPDATE audience_fields SET type = 'CHOICE', options = '["Free","Pro"]' WHERE audience_id = $1 AND key = 'plan'`, [
        audienceId,
      ]);
    }
  });
});

describe("a follow-up's recipients", () => {
  it('become a segment written for the member, which its send follows beside the frozen set', async () => {
    await query(
      `UPDATE campaigns SET template_id = $2, from_name = 'News', from_email = 'newsletter@example.org', subject = 'Hi' WHERE id = $1`,
      [c3, templateId],
    );
    const made = await api().post(`/api/campaigns/${c3}/follow-up`).set('Authorization', auth).send({ recipients: 'NOT_OPENED' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const expectedRule = rule(
      { field: 'campaign.received', operator: 'is', value: c3 },
      { field: 'campaign.opened', operator: 'isNot', value: c3 },
    );
    expect(made.body.segment).toEqual({ id: expect.any(Number), name: 'Third – not opened', rule: expectedRule });
    // bob's open was a machine's: he is among them, as in the frozen set.
    expect(await matches(expectedRule)).toEqual(['bob', 'dee', 'ivy', 'jo']);
    const frozen = await query<{ email: string }>(
      'SELECT c.email FROM follow_up_recipients r JOIN contacts c ON c.id = r.contact_id WHERE r.campaign_id = $1 ORDER BY c.email',
      [made.body.id],
    );
    expect(frozen.map((row) => row.email.split('@')[0])).toEqual(['bob', 'dee', 'ivy', 'jo']);
    expect((await get(`/api/segments/${made.body.segment.id}`)).body).toMatchObject({ audienceId, name: 'Third – not opened' });

    // Asked again, the same follow-up and segment.
    const again = await api().post(`/api/campaigns/${c3}/follow-up`).set('Authorization', auth).send({ recipients: 'NOT_OPENED' });
    expect(again.status).toBe(200);
    expect(again.body.segment.id).toBe(made.body.segment.id);

    // dee opened the original since: the send leaves her out (the frozen set's rule and the segment's agree).
    await query('UPDATE campaign_jobs SET opened_at = now(), human_opened_at = now() WHERE campaign_id = $1 AND contact_id = $2', [
      c3,
      ids.get('dee'),
    ]);
    const sent = await api().post(`/api/campaigns/${made.body.id}/send`).set('Authorization', auth);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const jobs = await query<{ email: string }>('SELECT email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY email', [made.body.id]);
    expect(jobs.map((row) => row.email.split('@')[0])).toEqual(['bob', 'ivy', 'jo']);
    const [snapshot] = await query<{ segment_name: string; segment_rule: unknown }>(
      'SELECT segment_name, segment_rule FROM campaigns WHERE id = $1',
      [made.body.id],
    );
    expect(snapshot).toEqual({ segment_name: 'Third – not opened', segment_rule: expectedRule });

    // Once that one is sent, another follow-up of the same rule is made, and reuses the segment.
    const later = await api().post(`/api/campaigns/${c3}/follow-up`).set('Authorization', auth).send({ recipients: 'NOT_OPENED' });
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(made.body.id);
    expect(later.body.segment.id).toBe(made.body.segment.id);

    const clicked = await api().post(`/api/campaigns/${c3}/follow-up`).set('Authorization', auth).send({ recipients: 'NOT_CLICKED' });
    expect(clicked.status).toBe(201);
    expect(clicked.body.segment.name).toBe('Third – not clicked');
  });
});
