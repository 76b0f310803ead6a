/**
 * The import wizard's mapping through the whole API (issue 24): the upload's `mapping` field checked strictly,
 * typed values and their error rows, the fields made and the headers kept, the mapping remembered, and the
 * import without a mapping, against PostgreSQL and RabbitMQ with the audience consumers running.
 */
import type { ImportMapping } from '@mailroom/api-client/fields';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';
import { startWorkers, type Workers } from '../../workers/index.js';
import { audienceWorkers } from '../../workers/audiences.js';

let t: TestApp;
let workers: Workers | undefined;
let auth: string;
let importDir: string;

beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'mailroom-mapping-test-'));
  t = await createTestApp({ queue: 'rabbitmq', env: { IMPORT_DIR: importDir } });
  workers = await startWorkers(t.deps, [audienceWorkers]);
  auth = await bearer();
});
afterAll(async () => {
  await workers?.close();
  await t?.close();
  await rm(importDir, { recursive: true, force: true });
});

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);

async function createAudience(name: string): Promise<number> {
  const res = await api().post('/api/audiences').set('Authorization', auth).send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** An upload with its mapping sent first, as the wizard sends it (the file's start is checked for its address column). */
function upload(id: number, content: string, mapping?: ImportMapping | string, { mappingAfterFile = false } = {}) {
  const req = api().post(`/api/audiences/${id}/import/file?type=csv`).set('Authorization', auth);
  const text = typeof mapping === 'string' ? mapping : JSON.stringify(mapping);
  if (mapping !== undefined && !mappingAfterFile) req.field('mapping', text);
  req.attach('file', Buffer.from(content), 'contacts.csv');
  if (mapping !== undefined && mappingAfterFile) req.field('mapping', text);
  return req;
}

async function imported(id: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await get(`/api/audiences/${id}`);
    if (!res.body.isImporting) return res.body;
    if (Date.now() > deadline) throw new Error(`audience ${id} still importing`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function fieldsOf(id: number) {
  const { rows } = await t.db.pool.query(
    'SELECT key, label, type, options, required, position FROM audience_fields WHERE audience_id = $1 ORDER BY position',
    [id],
  );
  return rows;
}

const contactsOf = async (id: number) => (await get(`/api/audiences/${id}/contacts?page=1&limit=100`)).body.items;

const TYPED_CSV = [
  'Mail,Age,Joined,Member,Tier,Notes',
  'ann@example.org,34,2024-02-29,yes,gold,left out',
  'bob@example.org,thirty,2024-02-30,maybe,Gold,',
  'cid@example.org,1,234.5',
  'dee@example.org,,,no,Silver,x',
  'not an address,12,2024-01-01,yes,Gold,',
].join('\n');

const TYPED_MAPPING: ImportMapping = {
  emailColumn: 'Mail',
  columns: [
    { column: 'Age', to: 'new', key: 'age', label: 'Age', type: 'NUMBER' },
    { column: 'Joined', to: 'new', key: 'joined', label: 'Joined on', type: 'DATE' },
    { column: 'Member', to: 'new', key: 'member', label: 'Member', type: 'YES_NO' },
    { column: 'Tier', to: 'new', key: 'tier', label: 'Tier', type: 'CHOICE', options: ['Gold', 'Silver'], required: true },
    { column: 'Notes', to: 'none' },
  ],
};

describe('an import with a mapping', () => {
  it('types each mapped value, makes error rows with their reasons, drops unmapped columns, and makes the fields', async () => {
    const id = await createAudience('Typed');
    const res = await upload(id, TYPED_CSV, TYPED_MAPPING);
    expect(res.status).toBe(202);
    const audience = await imported(id);
    expect(audience).toMatchObject({
      importErrorMessage: null,
      headers: ['age', 'joined', 'member', 'tier'],
      numberOfContacts: 5,
      numberOfContactsWithErrors: 3,
    });
    expect(await fieldsOf(id)).toEqual([
      { key: 'age', label: 'Age', type: 'NUMBER', options: null, required: false, position: 1 },
      { key: 'joined', label: 'Joined on', type: 'DATE', options: null, required: false, position: 2 },
      { key: 'member', label: 'Member', type: 'YES_NO', options: null, required: false, position: 3 },
      { key: 'tier', label: 'Tier', type: 'CHOICE', options: ['Gold', 'Silver'], required: true, position: 4 },
    ]);
    const contacts = await contactsOf(id);
    expect(contacts.map((c: { email: string; data: unknown; errorMessage?: string }) => [c.email, c.data, c.errorMessage])).toEqual([
      ['ann@example.org', { age: 34, joined: '2024-02-29', member: true, tier: 'Gold' }, null],
      [
        'bob@example.org',
        { tier: 'Gold' },
        "Age: 'thirty' is not a number (write it like 1234.5). Joined on: '2024-02-30' is not a date (write it as YYYY-MM-DD). " +
          "Member: 'maybe' is not yes or no.",
      ],
      // A comma splits '1,234.5' into two columns: 1 and a date of '234.5'; Tier is required.
      ['cid@example.org', { age: 1 }, "Joined on: '234.5' is not a date (write it as YYYY-MM-DD). Tier is required."],
      ['dee@example.org', { member: false, tier: 'Silver' }, null],
      // The address's problem comes first.
      ['not an address', { age: 12, joined: '2024-01-01', member: true, tier: 'Gold' }, 'Invalid email address'],
    ]);
    expect(contacts.filter((c: { errorMessage?: string }) => c.errorMessage).length).toBe(3);
  });

  it('remembers the mapping for the next import, and the wizard reads it with the fields', async () => {
    const id = await createAudience('Remembered');
    expect((await get(`/api/audiences/${id}/import-mapping`)).body).toEqual({ fields: [], remembered: null });
    // A file the worker fails: the mapping is remembered all the same, and the fields stay.
    expect((await upload(id, 'Mail,Age\n\n', { emailColumn: 'Mail', columns: [TYPED_MAPPING.columns[0]!] })).status).toBe(202);
    expect((await imported(id)).importErrorMessage).toBe('The file has no contacts.');
    const view = (await get(`/api/audiences/${id}/import-mapping`)).body;
    expect(view).toEqual({
      fields: [{ key: 'age', label: 'Age', type: 'NUMBER', options: null, required: false }],
      remembered: { emailColumn: 'Mail', columns: [{ column: 'Age', key: 'age' }] },
    });
    // The next import maps to the field the first one made.
    const next = await upload(id, 'Mail,Age\nann@example.org,7\n', {
      emailColumn: 'Mail',
      columns: [{ column: 'Age', to: 'field', key: 'age' }],
    });
    expect(next.status).toBe(202);
    expect(await imported(id)).toMatchObject({ importErrorMessage: null, headers: ['age'], numberOfContacts: 1 });
    expect((await contactsOf(id))[0].data).toEqual({ age: 7 });
    expect((await get('/api/audiences/999999/import-mapping')).status).toBe(404);
  });

  it('finds the address column the mapping names even when it is not named like one, if the mapping comes first', async () => {
    const id = await createAudience('Address column');
    const mapping: ImportMapping = { emailColumn: 'Who', columns: [] };
    const after = await upload(id, 'Who,Name\nann@example.org,Ann\n', mapping, { mappingAfterFile: true });
    expect(after.status).toBe(400);
    expect(after.body.message).toBe('The file has no email column.');
    const first = await upload(id, 'Who,Name\nann@example.org,Ann\n', mapping);
    expect(first.status).toBe(202);
    expect(await imported(id)).toMatchObject({ headers: [], numberOfContacts: 1 });
    expect((await contactsOf(id))[0]).toMatchObject({ email: 'ann@example.org', data: {} });
  });
});

describe('a hostile mapping', () => {
  let other: number;
  beforeAll(async () => {
    other = await createAudience('Other');
    expect(
      (
        await upload(other, 'email,notes\na@example.org,x\n', {
          emailColumn: 'email',
          columns: [{ column: 'notes', to: 'new', key: 'notes', label: 'Notes', type: 'TEXT' }],
        })
      ).status,
    ).toBe(202);
    await imported(other);
  });

  const CSV = 'Mail,Age,Joined\nann@example.org,1,2024-01-01\n';
  it.each<[string, () => ImportMapping | string, string]>([
    ['not JSON', () => '{"emailColumn":', 'The mapping is refused: it is not JSON.'],
    [
      'an unknown column',
      () => ({ emailColumn: 'Mail', columns: [{ column: 'Phone', to: 'none' }] }),
      "The mapping is refused: the file has no column 'Phone'.",
    ],
    [
      'an address column the file lacks',
      () => ({ emailColumn: 'Email', columns: [] }),
      "The mapping is refused: the file has no column 'Email' for the address.",
    ],
    [
      'a field twice',
      () => ({
        emailColumn: 'Mail',
        columns: [
          { column: 'Age', to: 'new', key: 'n', label: 'N', type: 'NUMBER' },
          { column: 'Joined', to: 'field', key: 'n' },
        ],
      }),
      "The mapping is refused: the audience has no field 'n'.",
    ],
    [
      'a bad key',
      () => ({
        emailColumn: 'Mail',
        columns: [
          { column: 'Age', to: 'new', key: 'select', label: 'Age', type: 'NUMBER' },
          { column: 'Joined', to: 'new', key: '1st', label: 'J', type: 'DATE' },
        ],
      }),
      "The mapping is refused: the new field of column 'Joined': A key starts with a letter and holds only letters, digits and _.",
    ],
    [
      'a bad type',
      () => JSON.stringify({ emailColumn: 'Mail', columns: [{ column: 'Age', to: 'new', key: 'age', label: 'Age', type: 'MONEY' }] }),
      'The mapping is refused: columns.0.type: Invalid option: expected one of "TEXT"|"NUMBER"|"DATE"|"YES_NO"|"CHOICE".',
    ],
    [
      'a field another audience has',
      () => ({ emailColumn: 'Mail', columns: [{ column: 'Age', to: 'field', key: 'notes' }] }),
      "The mapping is refused: the audience has no field 'notes'.",
    ],
    [
      'a huge mapping',
      () =>
        JSON.stringify({
          emailColumn: 'Mail',
          columns: Array.from({ length: 3000 }, (_, i) => ({ column: `column number ${i} of many`, to: 'none' })),
        }),
      'The field "mapping" must have at most 131072 characters.',
    ],
  ])('refuses %s with a 400, storing nothing', async (_, mapping, message) => {
    const id = await createAudience('Hostile');
    const res = await upload(id, CSV, mapping());
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await readdir(importDir)).toEqual([]);
    expect(await fieldsOf(id)).toEqual([]);
    expect((await get(`/api/audiences/${id}`)).body).toMatchObject({ isImporting: false, source: null, headers: [] });
    expect((await get(`/api/audiences/${id}/import-mapping`)).body.remembered).toBeNull();
  });
});

describe('an import without a mapping', () => {
  it('sends every other column to a TEXT field of its own name, and makes those fields', async () => {
    const id = await createAudience('Plain');
    expect((await upload(id, 'First Name,Email,City\nAnn,ann@example.org,\n')).status).toBe(202);
    expect(await imported(id)).toMatchObject({ headers: ['First Name', 'City'], numberOfContacts: 1, numberOfContactsWithErrors: 0 });
    expect(await fieldsOf(id)).toEqual([
      { key: 'First Name', label: 'First Name', type: 'TEXT', options: null, required: false, position: 1 },
      { key: 'City', label: 'City', type: 'TEXT', options: null, required: false, position: 2 },
    ]);
    // A blank value is absent.
    expect((await contactsOf(id))[0].data).toEqual({ 'First Name': 'Ann' });
    expect((await get(`/api/audiences/${id}/import-mapping`)).body.remembered).toEqual({
      emailColumn: 'Email',
      columns: [
        { column: 'First Name', key: 'First Name' },
        { column: 'City', key: 'City' },
      ],
    });
  });
});
