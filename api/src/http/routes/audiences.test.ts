/**
 * The audience and contact calls through the whole API (OpenAPI validation, auth, error handler)
 * against PostgreSQL and RabbitMQ, with the audience consumers doing the background work.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
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
const MAX_BYTES = 200_000;

beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'mailroom-spool-test-'));
  // Consumers started by the tests themselves, so an import can be seen before a worker takes it.
  t = await createTestApp({ queue: 'rabbitmq', env: { IMPORT_MAX_BYTES: String(MAX_BYTES), IMPORT_DIR: importDir } });
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

function upload(id: number, content: string | Buffer, fileName = 'contacts.csv', type = 'csv') {
  return api()
    .post(`/api/audiences/${id}/import/file?type=${type}`)
    .set('Authorization', auth)
    .attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content), fileName);
}

async function startConsumers(): Promise<void> {
  workers ??= await startWorkers(t.deps, [audienceWorkers]);
}

async function imported(id: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await get(`/api/audiences/${id}`);
    expect(res.status).toBe(200);
    if (!res.body.isImporting) return res.body;
    if (Date.now() > deadline) throw new Error(`audience ${id} still importing`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const CSV = [
  '\uFEFFFirst Name,Email,City',
  'Ann,ann@example.org,"Paris, France"',
  'Bob,,Lyon',
  'Cid,cid@example.org,=HYPERLINK("x")',
  'Ann again,ANN@EXAMPLE.ORG,Nice',
  'Dee,dee@example.org,Metz',
].join('\r\n');

describe('audiences', () => {
  it('needs a token', async () => {
    expect((await api().get('/api/audiences')).status).toBe(401);
  });

  it('creates (name trimmed), gets, renames and lists audiences', async () => {
    const id = await createAudience('  Volunteers 2025  ');
    const audience = (await get(`/api/audiences/${id}`)).body;
    expect(audience).toEqual({
      id,
      name: 'Volunteers 2025',
      headers: [],
      source: null,
      numberOfContacts: 0,
      numberOfContactsWithErrors: 0,
      isImporting: false,
      importErrorMessage: null,
      createdAt: expect.any(String),
      pendingCount: 0,
      // An addition (issue 25): the name shown in the preference centre; none until a member sets it.
      publicName: null,
    });
    // The spec writes the create path with a trailing slash.
    const other = await api().post('/api/audiences/').set('Authorization', auth).send({ name: 'Donors' });
    expect(other.status).toBe(201);

    const renamed = await api().put(`/api/audiences/${id}`).set('Authorization', auth).send({ name: ' Helpers ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Helpers' });

    const list = await get('/api/audiences?page=1&limit=1&name=HELP');
    expect(list.status).toBe(200);
    expect(list.body.items.map((a: { id: number }) => a.id)).toEqual([id]);
    expect(list.body.meta).toEqual({ currentPage: 1, itemCount: 1, itemsPerPage: 1, totalItems: 1, totalPages: 1 });

    const all = await get('/api/audiences');
    expect(all.body.meta).toMatchObject({ currentPage: 1, itemsPerPage: 10 });
    // Newest first.
    expect(all.body.items[0].id).toBe(other.body.id);
    expect((await get('/api/audiences?name=%25')).body.items).toEqual([]);
  });

  it('refuses a blank name, and unknown audiences', async () => {
    for (const name of ['   ', '']) {
      const res = await api().post('/api/audiences').set('Authorization', auth).send({ name });
      expect(res.status).toBe(400);
      if (name) expect(res.body).toEqual({ message: 'Fill your audience name' });
    }
    const id = await createAudience('x');
    expect((await api().put(`/api/audiences/${id}`).set('Authorization', auth).send({ name: ' ' })).body).toEqual({
      message: 'Fill your audience name',
    });
    expect((await get('/api/audiences/999999')).status).toBe(404);
    expect((await api().put('/api/audiences/999999').set('Authorization', auth).send({ name: 'y' })).status).toBe(404);
    expect((await api().delete('/api/audiences/999999').set('Authorization', auth)).status).toBe(404);
    expect((await get('/api/audiences/999999/contacts')).status).toBe(404);
    expect((await api().post('/api/audiences/999999/download').set('Authorization', auth)).status).toBe(404);
    expect((await upload(999999, CSV)).status).toBe(404);
  });
});

describe('import, contacts and export', () => {
  let id: number;

  it('accepts a CSV upload (202), marks the audience importing and refuses a second one (409)', async () => {
    id = await createAudience('Imported');
    const res = await upload(id, CSV);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: 'Contacts are being imported in the background.' });
    expect((await get(`/api/audiences/${id}`)).body).toMatchObject({ isImporting: true, importErrorMessage: null });
    expect(await readdir(importDir)).toHaveLength(1);
    const again = await upload(id, CSV);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'An import is already running for this audience.' });
  });

  it('imports in the background: contacts, errors, headers, source, exact counts', async () => {
    await startConsumers();
    const audience = await imported(id);
    expect(audience).toMatchObject({
      headers: ['First Name', 'City'],
      source: 'CSV',
      numberOfContacts: 5,
      numberOfContactsWithErrors: 2,
      isImporting: false,
      importErrorMessage: null,
    });
    expect(await readdir(importDir)).toEqual([]);
    const res = await upload(id, CSV);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This audience already has contacts; create a new audience to import more.');
  });

  it('pages contacts, with the email and status filters', async () => {
    const page = await get(`/api/audiences/${id}/contacts?page=1&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      items: [
        {
          id: expect.any(Number),
          email: 'ann@example.org',
          errorMessage: null,
          data: { 'First Name': 'Ann', City: 'Paris, France' },
          suppressionReason: null,
        },
        {
          id: expect.any(Number),
          email: '',
          errorMessage: 'Missing email address',
          data: { 'First Name': 'Bob', City: 'Lyon' },
          suppressionReason: null,
        },
      ],
      meta: { currentPage: 1, itemCount: 2, itemsPerPage: 2, totalItems: 5, totalPages: 3 },
    });
    const last = await get(`/api/audiences/${id}/contacts?page=3&limit=2`);
    expect(last.body.items.map((c: { email: string }) => c.email)).toEqual(['dee@example.org']);

    const errors = await get(`/api/audiences/${id}/contacts?page=1&limit=10&hasError=true`);
    expect(errors.body.items.map((c: { errorMessage: string }) => c.errorMessage)).toEqual([
      'Missing email address',
      'Duplicate email address in this audience',
    ]);
    expect(errors.body.meta.totalItems).toBe(2);
    const valid = await get(`/api/audiences/${id}/contacts?page=1&limit=10&hasError=false`);
    expect(valid.body.items.map((c: { email: string }) => c.email)).toEqual(['ann@example.org', 'cid@example.org', 'dee@example.org']);

    const search = await get(`/api/audiences/${id}/contacts?page=1&limit=10&email=${encodeURIComponent(' ANN@ ')}`);
    expect(search.body.items.map((c: { email: string }) => c.email)).toEqual(['ann@example.org', 'ANN@EXAMPLE.ORG']);
    expect(search.body.meta.totalItems).toBe(2);
    const both = await get(`/api/audiences/${id}/contacts?email=ann&hasError=true`);
    expect(both.body.items.map((c: { email: string }) => c.email)).toEqual(['ANN@EXAMPLE.ORG']);
    // Blank after trimming: no filter.
    expect((await get(`/api/audiences/${id}/contacts?email=%20%20`)).body.meta.totalItems).toBe(5);
  });

  it('exports the contacts as a CSV download, formula cells made inert', async () => {
    const res = await api()
      .post(`/api/audiences/${id}/download`)
      .set('Authorization', auth)
      .buffer(true)
      .parse((response, callback) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => callback(null, body));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Imported-contacts.csv"; filename*=UTF-8''Imported-contacts.csv`);
    const rows = Papa.parse<string[]>((res.body as string).trimEnd(), { newline: '\n' }).data;
    // The last column is each contact's latest consent: here the import that brought every one in (issue 25).
    expect(rows.map((row) => row.slice(0, -1))).toEqual([
      ['email', 'First Name', 'City'],
      ['ann@example.org', 'Ann', 'Paris, France'],
      ['', 'Bob', 'Lyon'],
      ['cid@example.org', 'Cid', `'=HYPERLINK("x")`],
      ['ANN@EXAMPLE.ORG', 'Ann again', 'Nice'],
      ['dee@example.org', 'Dee', 'Metz'],
    ]);
    expect(rows[0]!.at(-1)).toBe('Latest consent');
    for (const row of rows.slice(1)) expect(row.at(-1)).toMatch(/^Imported by [^,]+@[^,]+, \d{4}-\d{2}-\d{2}$/);
  });

  it('takes pasted text (type=text), as a file or as a form field', async () => {
    const pasted = await createAudience('Pasted');
    const res = await upload(pasted, 'Email\tUsername\tFull Name\njo@example.org\tjo\tJo Doe\n', 'contactsInText.csv', 'text');
    expect(res.status).toBe(202);
    await startConsumers();
    expect(await imported(pasted)).toMatchObject({ source: 'TEXT', headers: ['Username', 'Full Name'], numberOfContacts: 1 });

    const field = await createAudience('Pasted as field');
    const fieldRes = await api()
      .post(`/api/audiences/${field}/import/file?type=text`)
      .set('Authorization', auth)
      .field('file', 'email;name\nx@example.org;X\n');
    expect(fieldRes.status).toBe(202);
    expect(await imported(field)).toMatchObject({ source: 'TEXT', headers: ['name'], numberOfContacts: 1 });
  });

  it('refuses bad uploads with the spec messages, leaving the audience untouched', async () => {
    const a = await createAudience('Refusals');
    const expectError = async (res: request.Response, status: number, message?: string) => {
      expect(res.status).toBe(status);
      if (message) expect(res.body).toEqual({ message });
    };
    await expectError(await upload(a, CSV, 'contacts.txt'), 400, 'Only CSV file allowed');
    await expectError(await upload(a, '', 'contacts.csv'), 400, 'Empty content');
    await expectError(await upload(a, ' \n ', 'contactsInText.csv', 'text'), 400, 'Empty content');
    await expectError(await upload(a, '\n\n', 'contacts.csv'), 400, 'Empty content');
    await expectError(await upload(a, 'Name,City\nAnn,Paris\n', 'contacts.csv'), 400, 'The file has no email column.');
    await expectError(await upload(a, Buffer.from('Email\nJos\xe9@example.org\n', 'latin1')), 400);
    await expectError(await upload(a, 'email,name\na@example.org,"open\n'), 400, 'Row 2 has a quote that is never closed.');
    // No file at all, and an unknown method.
    await expectError(
      await api()
        .post(`/api/audiences/${a}/import/file?type=csv`)
        .set('Authorization', auth)
        .set('Content-Type', 'multipart/form-data; boundary=empty')
        .send('--empty--\r\n'),
      400,
      'No CSV file found',
    );
    await expectError(await upload(a, CSV, 'contacts.csv', 'bigquery'), 400, 'Input error');
    // Above the configured size.
    const big = `email\n${'x@example.org\n'.repeat(Math.ceil(MAX_BYTES / 14) + 10)}`;
    await expectError(await upload(a, big), 413);

    expect((await get(`/api/audiences/${a}`)).body).toMatchObject({ isImporting: false, source: null, numberOfContacts: 0 });
    expect(await readdir(importDir)).toEqual([]);
  });

  it('ends a file that turns out bad in the worker with importErrorMessage, and allows another import', async () => {
    await startConsumers();
    const a = await createAudience('Bad late');
    // The upload check reads the start only; the bad byte is further on.
    const good = `email,n\n${Array.from({ length: 8000 }, (_, i) => `p${i}@example.org,${i}`).join('\n')}\n`;
    const bad = Buffer.concat([Buffer.from(good), Buffer.from('Jos\xe9@example.org,1\n', 'latin1')]);
    expect((await upload(a, bad)).status).toBe(202);
    expect(await imported(a)).toMatchObject({
      isImporting: false,
      importErrorMessage: 'The file is not UTF-8 text. Save it as "CSV UTF-8" and import it again.',
      numberOfContacts: 0,
      source: null,
    });
    expect((await get(`/api/audiences/${a}/contacts`)).body.meta.totalItems).toBe(0);
    expect((await upload(a, good)).status).toBe(202);
    expect(await imported(a)).toMatchObject({ importErrorMessage: null, numberOfContacts: 8000, source: 'CSV' });
  });

  it('deletes an audience at once and purges its contacts in the background', async () => {
    await startConsumers();
    const a = await createAudience('To delete');
    expect((await upload(a, CSV)).status).toBe(202);
    await imported(a);
    const res = await api().delete(`/api/audiences/${a}`).set('Authorization', auth);
    expect(res.status).toBe(202);
    expect(res.body.message).toEqual(expect.any(String));
    expect((await get(`/api/audiences/${a}`)).status).toBe(404);
    expect((await get('/api/audiences?limit=100')).body.items.map((x: { id: number }) => x.id)).not.toContain(a);
    expect((await get(`/api/audiences/${a}/contacts`)).status).toBe(404);
    expect((await api().delete(`/api/audiences/${a}`).set('Authorization', auth)).status).toBe(404);

    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await t.db.pool.query(
        'SELECT (SELECT count(*) FROM contacts WHERE audience_id = $1)::int AS contacts, (SELECT count(*) FROM audiences WHERE id = $1)::int AS audiences',
        [a],
      );
      if (rows[0].contacts === 0 && rows[0].audiences === 0) break;
      if (Date.now() > deadline) throw new Error('audience not purged');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('fails an import that was interrupted with no message left, at the next sweep', async () => {
    const a = await createAudience('Stuck');
    await t.db.pool.query(`UPDATE audiences SET is_importing = true, import_started_at = now() - interval '2 hours' WHERE id = $1`, [a]);
    // A new worker sweeps at start.
    const more = await startWorkers(t.deps, [audienceWorkers]);
    await more.close();
    expect((await get(`/api/audiences/${a}`)).body).toMatchObject({
      isImporting: false,
      importErrorMessage: 'Import was interrupted; please import again.',
    });
  });
});
