/**
 * One contact (issue 24) through the whole API (auth, OpenAPI validation with responses checked, the
 * error handler) on the real PostgreSQL: the drawer's read (fields, consent, mails with outcomes,
 * suppression), an edit checked by type and taking effect for the next mail, an addition by hand
 * (duplicate, erased, suppressed, importing, and the audience's first import after it), a deletion
 * keeping the numbers dense, and a hostile sweep of the four calls.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDetail } from '@mailroom/api-client';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { placesHolding } from '../../../test/support/people.js';
import { seedAudience } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { ADDRESS_IN_AUDIENCE, CONTACT_NOT_FOUND, UNKNOWN_FIELD } from '../../services/contacts/contact-service.js';
import { ALREADY_HAS_SOURCE } from '../../services/imports/import-service.js';
import { claimRepository } from '../../services/sending/claim-repository.js';
import { dispatchRepository } from '../../services/sending/dispatch-repository.js';

let t: TestApp;
let auth: string;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
});
afterAll(() => t?.close());

const q = <R extends Record<string, unknown>>(text: string, params: unknown[] = []) => t.db.pool.query<R>(text, params).then((r) => r.rows);
const get = (path: string) => request(t.app).get(path).set('Authorization', auth);
const patch = (path: string, body: unknown) =>
  request(t.app)
    .patch(path)
    .set('Authorization', auth)
    .send(body as object);
const post = (path: string, body: unknown) =>
  request(t.app)
    .post(path)
    .set('Authorization', auth)
    .send(body as object);
const del = (path: string) => request(t.app).delete(path).set('Authorization', auth);

/** An audience with typed fields (name TEXT, age NUMBER, born DATE, vip YES_NO, plan CHOICE) and its contacts. */
async function audienceWithFields(contacts: { email: string; data?: Record<string, string>; error?: string }[], source = true) {
  const audience = await seedAudience(t.db.pool, { headers: ['name', 'age', 'born', 'vip', 'plan'], contacts });
  if (!source) await q(`UPDATE audiences SET source = NULL WHERE id = $1`, [audience.id]);
  await q(
    `INSERT INTO audience_fields (audience_id, key, label, type, options, required, position) VALUES
       ($1, 'name', 'Name', 'TEXT', NULL, true, 1), ($1, 'age', 'Age', 'NUMBER', NULL, false, 2),
       ($1, 'born', 'Born', 'DATE', NULL, false, 3), ($1, 'vip', 'VIP', 'YES_NO', NULL, false, 4),
       ($1, 'plan', 'Plan', 'CHOICE', '["Free", "Pro"]'::jsonb, false, 5)`,
    [audience.id],
  );
  return audience;
}

/** The audience's three numberings, each as its sorted numbers, and its stored counts. */
async function numbering(audienceId: number) {
  const [row] = await q<{ seq: number[]; valid: number[]; errors: number[]; contacts: number; withErrors: number }>(
    `SELECT coalesce((SELECT array_agg(seq ORDER BY seq) FROM contacts WHERE audience_id = $1), '{}') AS seq,
            coalesce((SELECT array_agg(valid_seq ORDER BY valid_seq) FROM contacts WHERE audience_id = $1 AND valid_seq IS NOT NULL), '{}') AS valid,
            coalesce((SELECT array_agg(error_seq ORDER BY error_seq) FROM contacts WHERE audience_id = $1 AND error_seq IS NOT NULL), '{}') AS errors,
            number_of_contacts AS contacts, number_of_contacts_with_errors AS "withErrors"
       FROM audiences WHERE id = $1`,
    [audienceId],
  );
  return row!;
}
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** Dense: each numbering is 1..n, and the counts are its lengths. */
async function expectDense(audienceId: number, contacts: number, errors: number) {
  expect(await numbering(audienceId)).toEqual({
    seq: upTo(contacts),
    valid: upTo(contacts - errors),
    errors: upTo(errors),
    contacts,
    withErrors: errors,
  });
}

const activity = (audienceId: number, kind: string) =>
  q<{ details: Record<string, unknown>; member_email: string }>(
    `SELECT details, member_email FROM activity WHERE object_type = 'audience' AND object_id = $1 AND kind = $2 ORDER BY id`,
    [audienceId, kind],
  );

describe("a contact's drawer", () => {
  it('answers the contact, its fields, how it came in, its mails with their outcomes and its suppression', async () => {
    const audience = await audienceWithFields([
      { email: 'ann@example.org', data: { name: 'Ann', age: '41' } },
      { email: 'bob@example.org', data: { name: 'Bob' } },
    ]);
    const [annId, bobId] = audience.contactIds as [number, number];
    await q(
      `INSERT INTO activity (member_email, kind, object_type, object_id, object_name) VALUES ('kim@example.org', 'import-finished', 'audience', $1, 'x')`,
      [audience.id],
    );
    const [campaign] = await q<{ id: number }>(
      `INSERT INTO campaigns (name, status, audience_id, subject) VALUES ('Spring', 'SENT', $1, 'Hello') RETURNING id`,
      [audience.id],
    );
    const [job] = await q<{ id: number }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, sent_at, bounce_type, bounce_time)
       VALUES ($1, $2, 'ann@example.org', 'SENT_SUCCESS', now(), 'SOFT', now()) RETURNING id`,
      [campaign!.id, annId],
    );
    // Two opens, by a person and by a privacy proxy, as the tracking recorder's own function records them.
    await q(
      `SELECT record_tracking_hits(ARRAY[$1::bigint, $1::bigint], ARRAY[NULL, NULL]::bigint[], ARRAY['Mozilla/5.0', 'Thunderbird/128.0'],
                                   ARRAY[now() + interval '1 minute', now() + interval '30 minutes'],
                                   ARRAY['17.58.0.9'::inet, '203.0.113.77'::inet], ARRAY['apple-privacy-proxy', NULL], 10000, 5000, 3)`,
      [job!.id],
    );
    await q(`INSERT INTO suppressions (email_lower, reason, campaign_id) VALUES ('ann@example.org', 'UNSUBSCRIBE', $1)`, [campaign!.id]);

    expect((await request(t.app).get(`/api/audiences/${audience.id}/contacts/${annId}`)).status).toBe(401);
    const res = await get(`/api/audiences/${audience.id}/contacts/${annId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ann = res.body as ContactDetail;
    expect(ann).toMatchObject({
      id: annId,
      audienceId: audience.id,
      email: 'ann@example.org',
      errorMessage: null,
      data: { name: 'Ann', age: '41' },
    });
    expect(ann.fields.map((field) => [field.key, field.type])).toEqual([
      ['name', 'TEXT'],
      ['age', 'NUMBER'],
      ['born', 'DATE'],
      ['vip', 'YES_NO'],
      ['plan', 'CHOICE'],
    ]);
    expect(ann.fields[4]!.options).toEqual(['Free', 'Pro']);
    expect(ann.consent).toEqual([expect.objectContaining({ kind: 'import', by: 'kim@example.org', audienceId: audience.id })]);
    expect(ann.totalMails).toBe(1);
    expect(ann.mails[0]).toMatchObject({ campaignId: campaign!.id, campaignName: 'Spring', status: 'SENT_SUCCESS', bounceType: 'SOFT' });
    expect(ann.mails[0]!.opens).toEqual({ people: 1, machines: 1 });
    expect(ann.suppression).toMatchObject({ reason: 'UNSUBSCRIBE', campaignId: campaign!.id, campaignName: 'Spring' });

    const bob = (await get(`/api/audiences/${audience.id}/contacts/${bobId}`)).body as ContactDetail;
    expect(bob).toMatchObject({ mails: [], totalMails: 0, suppression: null });
  });
});

describe('editing a contact', () => {
  it('checks each value by its type, refuses unknown keys, and stores nothing on a refusal', async () => {
    const audience = await audienceWithFields([{ email: 'cat@example.org', data: { name: 'Cat' } }]);
    const path = `/api/audiences/${audience.id}/contacts/${audience.contactIds[0]}`;
    for (const [data, says] of [
      [{ age: 'forty' }, "Age: 'forty' is not a number"],
      [{ born: '2024-02-30' }, 'Born'],
      [{ vip: 'maybe' }, 'VIP'],
      [{ plan: 'Gold' }, "Plan: 'Gold' is not one of 'Free', 'Pro'"],
      [{ name: '' }, 'Name is required.'],
      [{ age: 1e20 }, 'Age: the number is too large.'],
      [{ name: 'ok', shoeSize: '42' }, UNKNOWN_FIELD('shoeSize')],
      [{ vip: 3 }, 'VIP takes yes or no.'],
    ] as const) {
      const res = await patch(path, { data });
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body.message, JSON.stringify(data)).toContain(says);
    }
    expect((await q(`SELECT data FROM contacts WHERE id = $1`, [audience.contactIds[0]]))[0]).toEqual({ data: { name: 'Cat' } });
    expect(await activity(audience.id, 'contact-edit')).toEqual([]);
  });

  it('stores typed values, logs which fields changed (never the values), and the next mail uses them', async () => {
    const audience = await audienceWithFields([
      { email: 'dan@example.org', data: { name: 'Dan' } },
      { email: 'eve@example.org', data: { name: 'Eve' } },
    ]);
    const [danId] = audience.contactIds as [number];
    // A send whose mails are created but not yet handed to SES.
    const [campaign] = await q<{ id: number }>(
      `INSERT INTO campaigns (name, status, audience_id, subject, html) VALUES ('Queued', 'SENDING', $1, 'Hi {{name}}', '<p>Hi</p>') RETURNING id`,
      [audience.id],
    );
    await t.deps.db.transaction((tx) => dispatchRepository(t.deps.db).createJobs(tx, campaign!.id, audience.id, { contacts: 'all' }));

    const res = await patch(`/api/audiences/${audience.id}/contacts/${danId}`, {
      data: { name: 'Daniel', age: '1,234.5', born: '1990-04-01', vip: 'yes', plan: 'pro' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = { name: 'Daniel', age: 1234.5, born: '1990-04-01', vip: true, plan: 'Pro' };
    expect((res.body as ContactDetail).data).toEqual(stored);
    expect((await q(`SELECT data FROM contacts WHERE id = $1`, [danId]))[0]).toEqual({ data: stored });
    const [entry] = await activity(audience.id, 'contact-edit');
    expect(entry!.details).toEqual({ contactId: danId, fields: ['name', 'age', 'born', 'vip', 'plan'] });
    expect(JSON.stringify(entry)).not.toContain('Daniel');
    expect(JSON.stringify(entry)).not.toContain('dan@example.org');

    // null clears a value; a field left out keeps its own.
    const cleared = await patch(`/api/audiences/${audience.id}/contacts/${danId}`, { data: { age: null } });
    expect((cleared.body as ContactDetail).data).toEqual({ name: 'Daniel', born: '1990-04-01', vip: true, plan: 'Pro' });

    const jobs = (await q<{ id: number }>(`SELECT id FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id`, [campaign!.id])).map(
      (j) => j.id,
    );
    const claimed = await claimRepository(t.deps.db).claim(campaign!.id, jobs, randomUUID());
    expect(claimed.find((job) => job.email === 'dan@example.org')!.data).toMatchObject({ name: 'Daniel', plan: 'Pro' });
  });

  it('re-checks a new address as the import would: invalid, already in the audience, erased', async () => {
    const audience = await audienceWithFields([
      { email: 'fay@example.org', data: { name: 'Fay' } },
      { email: 'gus@example.org', data: { name: 'Gus' } },
    ]);
    const path = `/api/audiences/${audience.id}/contacts/${audience.contactIds[0]}`;
    expect((await patch(path, { email: 'not an address' })).body.message).toBe('Invalid email address');
    const taken = await patch(path, { email: 'GUS@example.org' });
    expect([taken.status, taken.body.message]).toEqual([409, ADDRESS_IN_AUDIENCE]);
    expect((await request(t.app).post('/api/people/erase').set('Authorization', auth).send({ email: 'hal@example.org' })).status).toBe(200);
    const erased = await patch(path, { email: 'hal@example.org' });
    expect(erased.status).toBe(400);
    expect(erased.body.message).toMatch(/^This address was erased on \d{4}-\d{2}-\d{2}: it can be added again only with fresh consent\.$/);
    const moved = await patch(path, { email: ' fay.new@example.org ' });
    expect(moved.status).toBe(200);
    expect(moved.body.email).toBe('fay.new@example.org');
    expect((await activity(audience.id, 'contact-edit')).map((e) => e.details.fields)).toEqual([['email']]);
  });

  it('makes an error contact valid once its address is fixed, keeping every numbering dense', async () => {
    const audience = await audienceWithFields([
      { email: 'ida@example.org', data: { name: 'Ida' } },
      { email: 'bad one', data: { name: 'Bad' }, error: 'Invalid email address' },
      { email: 'jon@example.org', data: { name: 'Jon' } },
      { email: 'worse one', data: { name: 'Worse' }, error: 'Invalid email address' },
    ]);
    const badId = audience.contactIds[1]!;
    const fixed = await patch(`/api/audiences/${audience.id}/contacts/${badId}`, { email: 'bad.fixed@example.org' });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.errorMessage).toBeNull();
    await expectDense(audience.id, 4, 1);
    expect((await q(`SELECT valid_seq, error_seq FROM contacts WHERE id = $1`, [badId]))[0]).toEqual({ valid_seq: 3, error_seq: null });
  });
});

describe('adding a contact by hand', () => {
  it('appends it valid, typed and logged; refuses a duplicate, an erased address without fresh consent, and while importing', async () => {
    const audience = await audienceWithFields([
      { email: 'kai@example.org', data: { name: 'Kai' } },
      { email: 'oops', data: { name: 'Oops' }, error: 'Invalid email address' },
    ]);
    const path = `/api/audiences/${audience.id}/contacts`;
    const added = await post(path, { email: 'lea@example.org', data: { name: 'Lea', age: 30 } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ email: 'lea@example.org', data: { name: 'Lea', age: 30 }, errorMessage: null });
    expect((added.body as ContactDetail).consent).toEqual([expect.objectContaining({ kind: 'hand', by: 'mia@example.org' })]);
    await expectDense(audience.id, 3, 1);
    expect((await activity(audience.id, 'contact-add'))[0]!.details).toEqual({ contactId: added.body.id, fields: ['name', 'age'] });

    expect((await post(path, { email: 'LEA@example.org', data: { name: 'Lea' } })).status).toBe(409);
    expect((await post(path, { email: 'max@example.org', data: {} })).body.message).toBe('Name is required.');

    // Suppressed: added, and shown as suppressed.
    await q(`INSERT INTO suppressions (email_lower, reason) VALUES ('ned@example.org', 'MEMBER')`);
    const suppressed = await post(path, { email: 'ned@example.org', data: { name: 'Ned' } });
    expect([suppressed.status, suppressed.body.suppression?.reason]).toEqual([201, 'MEMBER']);

    // Erased: only with fresh consent, which takes the erased key off the list.
    expect((await request(t.app).post('/api/people/erase').set('Authorization', auth).send({ email: 'ola@example.org' })).status).toBe(200);
    const refused = await post(path, { email: 'ola@example.org', data: { name: 'Ola' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^This address was erased on \d{4}-\d{2}-\d{2}: it can be added again only with fresh consent\.$/);
    const consented = await post(path, { email: 'ola@example.org', data: { name: 'Ola' }, freshConsent: true });
    expect([consented.status, consented.body.suppression]).toEqual([201, null]);
    expect((await activity(audience.id, 'contact-add')).at(-1)!.details).toMatchObject({ freshConsent: true });
    await expectDense(audience.id, 5, 1);

    await q(`UPDATE audiences SET is_importing = true WHERE id = $1`, [audience.id]);
    expect((await post(path, { email: 'pia@example.org', data: { name: 'Pia' } })).status).toBe(409);
    expect((await del(`${path}/${audience.contactIds[0]}`)).status).toBe(409);
  });

  it('records each addition in the consent ledger with the member and the lawful basis, and a refused one not at all', async () => {
    const audience = await audienceWithFields([{ email: 'kai@example.org', data: { name: 'Kai' } }]);
    const path = `/api/audiences/${audience.id}/contacts`;
    const ledger = () =>
      q(`SELECT event, audience_id, email, member_email, lawful_basis, detail FROM consent_ledger WHERE audience_id = $1 ORDER BY id`, [
        audience.id,
      ]);
    const added = await post(path, { email: 'Sam@example.org', data: { name: 'Sam' }, lawfulBasis: 'CONTRACT' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const entry = { event: 'ADDED', audience_id: audience.id, email: 'Sam@example.org', member_email: 'mia@example.org' };
    expect(await ledger()).toEqual([{ ...entry, lawful_basis: 'CONTRACT', detail: null }]);
    // The drawer's history shows it; the consent events say how it came in.
    const history = (added.body as ContactDetail).consentHistory;
    expect(history).toEqual([
      expect.objectContaining({
        event: 'ADDED',
        audienceId: audience.id,
        memberEmail: 'mia@example.org',
        lawfulBasis: 'CONTRACT',
        formName: null,
      }),
    ]);
    expect((added.body as ContactDetail).consent).toEqual([expect.objectContaining({ kind: 'hand', by: 'mia@example.org' })]);

    // Refused (a duplicate, a required field missing, a basis not offered): nothing recorded.
    expect((await post(path, { email: 'sam@EXAMPLE.org', data: { name: 'Sam' }, lawfulBasis: 'CONSENT' })).status).toBe(409);
    expect((await post(path, { email: 'tom@example.org', data: {}, lawfulBasis: 'CONSENT' })).status).toBe(400);
    expect((await post(path, { email: 'tom@example.org', data: { name: 'Tom' }, lawfulBasis: 'WHIM' })).status).toBe(400);
    expect(await ledger()).toHaveLength(1);

    // Without a basis (the call before issue 25): not stated. An erased address re-added with fresh consent: ADDED too.
    expect((await post(path, { email: 'uma@example.org', data: { name: 'Uma' } })).status).toBe(201);
    expect((await request(t.app).post('/api/people/erase').set('Authorization', auth).send({ email: 'vic@example.org' })).status).toBe(200);
    const back = await post(path, { email: 'vic@example.org', data: { name: 'Vic' }, freshConsent: true, lawfulBasis: 'CONSENT' });
    expect(back.status).toBe(201);
    expect((await ledger()).slice(1)).toEqual([
      { ...entry, email: 'uma@example.org', lawful_basis: null, detail: null },
      { ...entry, email: 'vic@example.org', lawful_basis: 'CONSENT', detail: { freshConsent: true } },
    ]);
  });

  it('leaves an empty audience without a source, and its first import is then refused', async () => {
    const audience = await audienceWithFields([], false);
    const added = await post(`/api/audiences/${audience.id}/contacts`, { email: 'quin@example.org', data: { name: 'Quin' } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await get(`/api/audiences/${audience.id}`)).body).toMatchObject({ source: null, numberOfContacts: 1 });
    const imported = await request(t.app)
      .post(`/api/audiences/${audience.id}/import/file?type=text`)
      .set('Authorization', auth)
      .field('file', 'email\nrae@example.org\n');
    expect([imported.status, imported.body.message]).toEqual([409, ALREADY_HAS_SOURCE]);
  });
});

describe('deleting a contact', () => {
  it('fills the hole with the last contacts, keeps the counts, logs it by id and answers 404 after', async () => {
    const audience = await audienceWithFields([
      { email: 'ray@example.org', data: { name: 'Ray' } },
      { email: 'err1', error: 'Invalid email address' },
      { email: 'sue@example.org', data: { name: 'Sue' } },
      { email: 'tom@example.org', data: { name: 'Tom' } },
      { email: 'err2', error: 'Invalid email address' },
      { email: 'uma@example.org', data: { name: 'Uma' } },
    ]);
    const path = (i: number) => `/api/audiences/${audience.id}/contacts/${audience.contactIds[i]}`;
    expect((await del(path(0))).status).toBe(204);
    await expectDense(audience.id, 5, 2);
    expect((await del(path(1))).status).toBe(204);
    await expectDense(audience.id, 4, 1);
    expect((await del(path(1))).status).toBe(404);
    expect((await get(path(1))).body.message).toBe(CONTACT_NOT_FOUND);
    expect((await activity(audience.id, 'contact-delete')).map((e) => e.details)).toEqual([
      { contactId: audience.contactIds[0] },
      { contactId: audience.contactIds[1] },
    ]);
    // The pages are ranges again: the last page holds the last contacts.
    const page = await get(`/api/audiences/${audience.id}/contacts?page=2&limit=3`);
    expect(page.body.items).toHaveLength(1);
  });
});

describe('a hostile sweep of the contact calls', () => {
  it('refuses huge bodies, unknown properties, wrong types, NUL bytes, ids that are not numbers and other audiences’ contacts', async () => {
    const mine = await audienceWithFields([{ email: 'val@example.org', data: { name: 'Val' } }]);
    const theirs = await audienceWithFields([{ email: 'wes@example.org', data: { name: 'Wes' } }]);
    const path = `/api/audiences/${mine.id}/contacts/${mine.contactIds[0]}`;
    const huge = await patch(path, { data: { name: 'x'.repeat(3_000_000) } });
    expect([400, 413]).toContain(huge.status);
    expect((await patch(path, { data: { name: 'x'.repeat(4001) } })).status).toBe(400);
    expect((await patch(path, { nickname: 'V' })).status).toBe(400);
    expect((await patch(path, {})).status).toBe(400);
    expect((await patch(path, { data: { name: { nested: true } } })).status).toBe(400);
    expect((await patch(path, { data: { name: ['V'] } })).status).toBe(400);
    expect((await patch(path, { email: 42 })).status).toBe(400);
    expect((await patch(path, { email: 'val\u0000@example.org' })).status).toBe(400);
    expect((await patch(path, { data: { name: 'Va\u0000l' } })).status).toBe(400);
    expect((await post(`/api/audiences/${mine.id}/contacts`, { data: { name: 'No address' } })).status).toBe(400);
    expect((await post(`/api/audiences/${mine.id}/contacts`, { email: '', data: {} })).status).toBe(400);
    for (const bad of ['abc', '1.5', '-1', '0', '99999999999999999999', '1%00']) {
      expect((await get(`/api/audiences/${mine.id}/contacts/${bad}`)).status, bad).toBe(400);
      expect((await del(`/api/audiences/${bad}/contacts/${mine.contactIds[0]}`)).status, bad).toBe(400);
    }
    const other = `/api/audiences/${mine.id}/contacts/${theirs.contactIds[0]}`;
    expect((await get(other)).status).toBe(404);
    expect((await patch(other, { data: { name: 'Mine now' } })).status).toBe(404);
    expect((await del(other)).status).toBe(404);
    expect((await get(`/api/audiences/999999999/contacts/${mine.contactIds[0]}`)).status).toBe(404);
    expect((await q(`SELECT data FROM contacts WHERE id = $1`, [theirs.contactIds[0]]))[0]).toEqual({ data: { name: 'Wes' } });
    expect((await q(`SELECT data FROM contacts WHERE id = $1`, [mine.contactIds[0]]))[0]).toEqual({ data: { name: 'Val' } });
  });
});

describe('erasing a person added and edited by hand', () => {
  it('leaves neither the address nor their typed values in any table, nor any hole in the numbering', async () => {
    const audience = await audienceWithFields([{ email: 'xia@example.org', data: { name: 'Xia' } }]);
    const added = await post(`/api/audiences/${audience.id}/contacts`, {
      email: 'yannick.quellenberg@example.org',
      data: { name: 'Yannick Quellenberg', born: '1977-07-07', plan: 'Pro' },
    });
    expect(added.status).toBe(201);
    expect(
      (await patch(`/api/audiences/${audience.id}/contacts/${added.body.id}`, { data: { name: 'Yannick Q. Quellenberg' } })).status,
    ).toBe(200);
    expect(
      (await request(t.app).post('/api/people/erase').set('Authorization', auth).send({ email: 'Yannick.Quellenberg@example.org' })).status,
    ).toBe(200);
    expect(await placesHolding(t.db.pool, 'yannick.quellenberg@example.org')).toEqual([]);
    expect(await placesHolding(t.db.pool, 'Quellenberg')).toEqual([]);
    await expectDense(audience.id, 1, 0);
  });
});
