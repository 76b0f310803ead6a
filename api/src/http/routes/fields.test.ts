/**
 * An audience's typed fields through the whole API (OpenAPI validation with responses checked, auth, the error
 * handler) against PostgreSQL, with the in-process queue and the audience consumers clearing removed fields: the
 * types and their refusals, the hostile sweep of keys, labels and options, type changes that convert every value
 * or nothing, removal with the templates that use the tag, and headers kept equal to the fields' keys.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { AUDIENCE_IMPORTING, FIELD_REMOVED, LABEL_CONTROL, LABEL_TOO_LONG, TOO_MANY_OPTIONS } from '../../services/fields/field-service.js';
import { audienceWorkers } from '../../workers/audiences.js';

let t: TestApp;
let auth: string;

beforeAll(async () => {
  t = await createTestApp({ workers: [audienceWorkers] });
  auth = await bearer();
});
afterAll(async () => {
  await t?.close();
});

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);
const post = (path: string, body: object) => api().post(path).set('Authorization', auth).send(body);
const patch = (path: string, body: object) => api().patch(path).set('Authorization', auth).send(body);
const del = (path: string) => api().delete(path).set('Authorization', auth);
const query = async <R>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows as R[];

async function newAudience(name = 'Fields'): Promise<number> {
  const res = await post('/api/audiences', { name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const headers = async (id: number) => (await get(`/api/audiences/${id}`)).body.headers as string[];
const dataOf = async (audienceId: number) =>
  (
    await query<{ email: string; data: Record<string, unknown> }>('SELECT email, data FROM contacts WHERE audience_id = $1 ORDER BY seq', [
      audienceId,
    ])
  ).map((row) => row.data);
const lastActivity = async () =>
  (
    await query<{ kind: string; object_id: number; details: Record<string, unknown> }>(
      'SELECT kind, object_id, details FROM activity ORDER BY id DESC LIMIT 1',
    )
  )[0]!;

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('typed fields', () => {
  it('needs a token, and an audience that exists', async () => {
    expect((await api().get('/api/audiences/1/fields')).status).toBe(401);
    expect((await get('/api/audiences/999999/fields')).status).toBe(404);
    expect((await post('/api/audiences/999999/fields', { key: 'a', label: 'A', type: 'TEXT' })).status).toBe(404);
  });

  it('adds a field of each type, lists them in order, keeps headers equal to the keys and logs each addition', async () => {
    const id = await newAudience();
    expect((await get(`/api/audiences/${id}/fields`)).body).toEqual([]);
    const added = [
      { key: 'firstName', label: 'First name', type: 'TEXT' },
      { key: 'age', label: 'Age', type: 'NUMBER', required: true },
      { key: 'birthday', label: ' Birthday ', type: 'DATE', editableByPerson: true },
      { key: 'member', label: 'Member', type: 'YES_NO' },
      { key: 'plan', label: 'Plan', type: 'CHOICE', options: [' Gold ', 'Silver'] },
    ];
    for (const field of added) {
      const res = await post(`/api/audiences/${id}/fields`, field);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(await lastActivity()).toMatchObject({ kind: 'field-add', object_id: id, details: { key: field.key, type: field.type } });
    }
    const list = (await get(`/api/audiences/${id}/fields`)).body;
    expect(list).toEqual([
      { key: 'firstName', label: 'First name', type: 'TEXT', options: null, required: false, editableByPerson: false, position: 1 },
      { key: 'age', label: 'Age', type: 'NUMBER', options: null, required: true, editableByPerson: false, position: 2 },
      { key: 'birthday', label: 'Birthday', type: 'DATE', options: null, required: false, editableByPerson: true, position: 3 },
      { key: 'member', label: 'Member', type: 'YES_NO', options: null, required: false, editableByPerson: false, position: 4 },
      { key: 'plan', label: 'Plan', type: 'CHOICE', options: ['Gold', 'Silver'], required: false, editableByPerson: false, position: 5 },
    ]);
    expect(await headers(id)).toEqual(['firstName', 'age', 'birthday', 'member', 'plan']);
  });

  it('refuses hostile keys: the address in any case, SQL, unicode, NUL, too long, and a key differing only in case', async () => {
    const id = await newAudience();
    expect((await post(`/api/audiences/${id}/fields`, { key: 'plan', label: 'Plan', type: 'TEXT' })).status).toBe(201);
    const refusals: [string, number, RegExp][] = [
      ['email', 400, /contact's address/],
      ['Email', 400, /contact's address/],
      ['EMAIL', 400, /contact's address/],
      ['"; drop table contacts; --', 400, /starts with a letter/],
      ["x' OR '1'='1", 400, /starts with a letter/],
      ['größe', 400, /starts with a letter/],
      ['名前', 400, /starts with a letter/],
      ['a\u0000b', 400, /./],
      ['a'.repeat(65), 400, /at most 64/],
      ['', 400, /needs a key/],
      ['Plan', 409, /already has a field 'plan'/],
      ['PLAN', 409, /already has a field 'plan'/],
    ];
    for (const [key, status, message] of refusals) {
      const res = await post(`/api/audiences/${id}/fields`, { key, label: 'Label', type: 'TEXT' });
      expect([key, res.status]).toEqual([key, status]);
      expect(res.body.message).toMatch(message);
    }
    // SQL words are names like any other: bound as values, they cannot reach the statement.
    for (const key of ['select', 'drop', 'from_', 'table1']) {
      expect((await post(`/api/audiences/${id}/fields`, { key, label: `"; drop table contacts; --`, type: 'TEXT' })).status).toBe(201);
    }
    expect(await query("SELECT to_regclass('contacts') IS NOT NULL AS there")).toEqual([{ there: true }]);
    expect((await get(`/api/audiences/${id}/fields`)).body.map((f: { key: string }) => f.key)).toEqual([
      'plan',
      'select',
      'drop',
      'from_',
      'table1',
    ]);
    expect((await get(`/api/audiences/${id}/fields`)).body[1].label).toBe('"; drop table contacts; --');
  });

  it('refuses hostile labels and options: 10 KB, control characters, blank, 101 options, duplicates, options off a choice', async () => {
    const id = await newAudience();
    const add = (body: object) => post(`/api/audiences/${id}/fields`, { key: 'f', label: 'F', type: 'TEXT', ...body });
    const cases: [object, string | RegExp][] = [
      [{ label: 'x'.repeat(10 * 1024) }, LABEL_TOO_LONG],
      [{ label: 'x'.repeat(101) }, LABEL_TOO_LONG],
      // A NUL is refused by the contract itself, as in every string the API takes.
      [{ label: 'a\u0000b' }, /^The field "label" is not written in the form it takes/],
      [{ label: 'line\nbreak' }, LABEL_CONTROL],
      [{ label: '   ' }, /needs a label/],
      [{ type: 'CHOICE' }, /at least one option/],
      [{ type: 'CHOICE', options: [] }, /at least one option/],
      [{ type: 'CHOICE', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }, TOO_MANY_OPTIONS],
      [{ type: 'CHOICE', options: ['Gold', 'gold'] }, /listed twice/],
      [{ type: 'CHOICE', options: ['Gold', ' '] }, /must not be blank/],
      [{ type: 'CHOICE', options: ['x'.repeat(101)] }, /at most 100 characters/],
      [{ type: 'CHOICE', options: ['a\u0000'] }, /is not written in the form it takes/],
      [{ type: 'CHOICE', options: ['a\u0007'] }, /control characters/],
      [{ type: 'NUMBER', options: ['1'] }, /Only a choice field/],
      [{ type: 'MONEY' }, /./],
    ];
    for (const [body, message] of cases) {
      const res = await add(body);
      expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    // 100 options, unicode and emoji are fine.
    const many = await add({ key: 'many', type: 'CHOICE', options: Array.from({ length: 100 }, (_, i) => `Größe ${i} 🎉`) });
    expect(many.status).toBe(201);
    const unicode = await add({ key: 'u', label: 'Größe 名前 🎉 עברית' });
    expect(unicode.status).toBe(201);
    expect(unicode.body.label).toBe('Größe 名前 🎉 עברית');
    expect((await get(`/api/audiences/${id}/fields`)).body).toHaveLength(2);
  });

  it('renames a field (the key stays), changes its flags, and logs what changed', async () => {
    const id = await newAudience();
    await post(`/api/audiences/${id}/fields`, { key: 'nick', label: 'Nick', type: 'TEXT' });
    const res = await patch(`/api/audiences/${id}/fields/nick`, { label: 'Nickname', editableByPerson: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'nick', label: 'Nickname', editableByPerson: true, required: false });
    expect(await lastActivity()).toMatchObject({ kind: 'field-change', details: { key: 'nick', from: 'Nick', label: 'Nickname' } });
    expect(await headers(id)).toEqual(['nick']);
    expect((await patch(`/api/audiences/${id}/fields/nick`, { label: 'x'.repeat(10_240) })).status).toBe(400);
    expect((await patch(`/api/audiences/${id}/fields/other`, { label: 'X' })).status).toBe(404);
    expect((await patch(`/api/audiences/${id}/fields/nick`, {})).status).toBe(400);
  });

  it('changes a type only when every stored value converts: values that overflow or do not fit refuse it and change nothing', async () => {
    const audience = await seedAudience(t.db.pool, {
      headers: ['score', 'since', 'vip'],
      contacts: [
        { email: 'a@example.org', data: { score: '1,200', since: '2024-02-29', vip: 'yes' } },
        { email: 'b@example.org', data: { score: '12abc', since: '2024-02-30', vip: 'maybe' } },
        { email: 'c@example.org', data: { score: '9'.repeat(400), since: '31/12/2024', vip: 'no' } },
        { email: 'd@example.org', data: { score: '7' } },
      ],
    });
    const id = audience.id;
    // The legacy headers became TEXT fields on the first look.
    const before = await dataOf(id);
    const overflow = await patch(`/api/audiences/${id}/fields/score`, { type: 'NUMBER' });
    expect(overflow.status).toBe(409);
    expect(overflow.body.message).toMatch(/^2 contacts hold a value of score that does not fit the new type .*nothing was changed/);
    const date = await patch(`/api/audiences/${id}/fields/since`, { type: 'DATE' });
    expect(date.status).toBe(409);
    expect(date.body.message).toMatch(/^2 contacts hold/);
    const choice = await patch(`/api/audiences/${id}/fields/vip`, { type: 'CHOICE', options: ['Yes', 'No'] });
    expect(choice.status).toBe(409);
    expect(choice.body.message).toMatch(/^1 contact holds .*'maybe'/);
    expect(await dataOf(id)).toEqual(before);
    expect((await get(`/api/audiences/${id}/fields`)).body.map((f: { type: string }) => f.type)).toEqual(['TEXT', 'TEXT', 'TEXT']);

    // Fixed values convert, all in one go; and back to TEXT every value converts.
    await t.db.pool.query(
      `UPDATE contacts SET data = data || '{"score":"-3","since":"2024-12-31","vip":"No"}' WHERE audience_id = $1 AND email <> 'a@example.org' AND email <> 'd@example.org'`,
      [id],
    );
    expect((await patch(`/api/audiences/${id}/fields/score`, { type: 'NUMBER' })).status).toBe(200);
    expect((await patch(`/api/audiences/${id}/fields/since`, { type: 'DATE' })).status).toBe(200);
    expect((await patch(`/api/audiences/${id}/fields/vip`, { type: 'YES_NO' })).status).toBe(200);
    expect(await lastActivity()).toMatchObject({ kind: 'field-change', details: { key: 'vip', fromType: 'TEXT', type: 'YES_NO' } });
    expect(await dataOf(id)).toEqual([
      { score: 1200, since: '2024-02-29', vip: true },
      { score: -3, since: '2024-12-31', vip: false },
      { score: -3, since: '2024-12-31', vip: false },
      { score: 7 },
    ]);
    expect((await patch(`/api/audiences/${id}/fields/score`, { type: 'TEXT' })).status).toBe(200);
    expect((await dataOf(id)).map((data) => data.score)).toEqual(['1200', '-3', '-3', '7']);
    // A choice's options shrinking below its values is a change the values must fit too.
    expect((await patch(`/api/audiences/${id}/fields/vip`, { type: 'CHOICE', options: ['Yes', 'No'] })).status).toBe(200);
    expect((await dataOf(id)).map((data) => data.vip)).toEqual(['Yes', 'No', 'No', undefined]);
    const shrink = await patch(`/api/audiences/${id}/fields/vip`, { options: ['Yes'] });
    expect(shrink.status).toBe(409);
    expect(shrink.body.message).toMatch(/^2 contacts hold/);
    expect(await headers(id)).toEqual(['score', 'since', 'vip']);
  });

  it('refuses every field change while the audience imports', async () => {
    const id = await newAudience();
    await post(`/api/audiences/${id}/fields`, { key: 'a', label: 'A', type: 'TEXT' });
    await t.db.pool.query('UPDATE audiences SET is_importing = true WHERE id = $1', [id]);
    for (const res of [
      await post(`/api/audiences/${id}/fields`, { key: 'b', label: 'B', type: 'TEXT' }),
      await patch(`/api/audiences/${id}/fields/a`, { label: 'A2' }),
      await del(`/api/audiences/${id}/fields/a?confirm=true`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(AUDIENCE_IMPORTING);
    }
    await t.db.pool.query('UPDATE audiences SET is_importing = false WHERE id = $1', [id]);
    expect((await get(`/api/audiences/${id}/fields`)).body.map((f: { label: string }) => f.label)).toEqual(['A']);
  });

  it('keeps the columns an import wrote without fields when the fields change', async () => {
    const audience = await seedAudience(t.db.pool, {
      headers: ['Full Name', 'city'],
      contacts: [{ email: 'a@example.org', data: { 'Full Name': 'Ann', city: 'Oslo' } }],
    });
    expect((await post(`/api/audiences/${audience.id}/fields`, { key: 'age', label: 'Age', type: 'NUMBER' })).status).toBe(201);
    expect(await headers(audience.id)).toEqual(['Full Name', 'city', 'age']);
    // A legacy key (with a space) is kept, and can be renamed and removed by its key.
    expect((await patch(`/api/audiences/${audience.id}/fields/${encodeURIComponent('Full Name')}`, { label: 'Name' })).status).toBe(200);
    expect((await del(`/api/audiences/${audience.id}/fields/${encodeURIComponent('Full Name')}`)).status).toBe(200);
    expect(await headers(audience.id)).toEqual(['city', 'age']);
  });

  it('names the templates that use a field as a merge tag and removes it only once confirmed; its values go in the background', async () => {
    const audience = await seedAudience(t.db.pool, {
      headers: ['nickname', 'city'],
      contacts: [
        { email: 'a@example.org', data: { nickname: 'Annie', city: 'Oslo' } },
        { email: 'b@example.org', data: { nickname: 'Bobby' } },
      ],
    });
    const id = audience.id;
    const exact = await seedTemplate(t.db.pool, { name: 'Exact', html: '<p>Hi {{nickname}}</p>' });
    const folded = await seedTemplate(t.db.pool, { name: 'Any case, fallback', html: '<p>Hi {{ NickName | friend }}</p>' });
    const plain = await seedTemplate(t.db.pool, { name: 'Plain text', html: '<p>Hi</p>', plainText: 'Hi {{nickname|you}}' });
    await seedTemplate(t.db.pool, { name: 'Mentions it only', html: '<p>nickname {{nicknames}} {{nick}}</p>' });

    const refused = await del(`/api/audiences/${id}/fields/nickname`);
    expect(refused.status).toBe(409);
    expect(refused.body.templates).toEqual([
      { id: exact, name: 'Exact' },
      { id: folded, name: 'Any case, fallback' },
      { id: plain, name: 'Plain text' },
    ]);
    expect(refused.body.message).toMatch(/\{\{nickname\}\} is used by 3 templates: “Exact”, “Any case, fallback”, “Plain text”/);
    expect(await headers(id)).toEqual(['nickname', 'city']);
    expect((await dataOf(id))[0]).toEqual({ nickname: 'Annie', city: 'Oslo' });

    const removed = await del(`/api/audiences/${id}/fields/nickname?confirm=true`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(FIELD_REMOVED);
    expect(await lastActivity()).toMatchObject({ kind: 'field-remove', details: { key: 'nickname', templates: 3 } });
    expect(await headers(id)).toEqual(['city']);
    await eventually(
      async () => (await query('SELECT 1 FROM audience_field_removals WHERE audience_id = $1', [id])).length === 0,
      'the clearing',
    );
    expect(await dataOf(id)).toEqual([{ city: 'Oslo' }, {}]);
    // Added again, the field starts empty.
    expect((await post(`/api/audiences/${id}/fields`, { key: 'Nickname', label: 'Nickname', type: 'TEXT' })).status).toBe(201);
    expect(await dataOf(id)).toEqual([{ city: 'Oslo' }, {}]);
    // A field no template uses goes without asking.
    expect((await del(`/api/audiences/${id}/fields/city`)).status).toBe(200);
    expect((await del(`/api/audiences/${id}/fields/city`)).status).toBe(404);
  });

  it('refuses a field of a removed key while its values are still being cleared, so old values never show again', async () => {
    const audience = await seedAudience(t.db.pool, { headers: ['code'], contacts: [{ email: 'a@example.org', data: { code: 'old' } }] });
    // A removal whose clearing has not run yet (its message lost): the sweep queues it again.
    await post(`/api/audiences/${audience.id}/fields`, { key: 'other', label: 'Other', type: 'TEXT' });
    await t.db.pool.query(`DELETE FROM audience_fields WHERE audience_id = $1 AND key = 'code'`, [audience.id]);
    await t.db.pool.query(`UPDATE audiences SET headers = '["other"]' WHERE id = $1`, [audience.id]);
    await t.db.pool.query(
      `INSERT INTO audience_field_removals (audience_id, key, removed_at) VALUES ($1, 'code', now() - interval '1 hour')`,
      [audience.id],
    );
    const again = await post(`/api/audiences/${audience.id}/fields`, { key: 'CODE', label: 'Code', type: 'TEXT' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/still being cleared/);
    expect(await t.deps.services.fields.sweep()).toEqual({ requeuedRemovals: 1 });
    await eventually(
      async () => (await query('SELECT 1 FROM audience_field_removals WHERE audience_id = $1', [audience.id])).length === 0,
      'the clearing',
    );
    expect(await dataOf(audience.id)).toEqual([{}]);
    expect((await post(`/api/audiences/${audience.id}/fields`, { key: 'code', label: 'Code', type: 'TEXT' })).status).toBe(201);
  });

  it('clears a removed field from many contacts in batches', async () => {
    const { rows } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO audiences (name, headers, source, number_of_contacts) VALUES ('Big', '["tag","keep"]', 'CSV', 25000) RETURNING id`,
    );
    const id = Number(rows[0]!.id);
    await t.db.pool.query(
      `INSERT INTO contacts (audience_id, seq, valid_seq, email, data)
       SELECT $1, n, n, 'u' || n || '@example.org', jsonb_build_object('tag', 'x' || n, 'keep', n) FROM generate_series(1, 25000) n`,
      [id],
    );
    expect((await del(`/api/audiences/${id}/fields/tag`)).status).toBe(200);
    await eventually(
      async () => (await query('SELECT 1 FROM audience_field_removals WHERE audience_id = $1', [id])).length === 0,
      'the clearing',
      30_000,
    );
    expect(await query(`SELECT count(*)::int AS n FROM contacts WHERE audience_id = $1 AND data ? 'tag'`, [id])).toEqual([{ n: 0 }]);
    expect(await query(`SELECT count(*)::int AS n FROM contacts WHERE audience_id = $1 AND data ? 'keep'`, [id])).toEqual([{ n: 25000 }]);
  });
});
