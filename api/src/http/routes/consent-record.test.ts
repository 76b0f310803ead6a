/**
 * The consent record (issue 25) through the whole API on the real PostgreSQL and RabbitMQ: the import's lawful basis
 * (absent, valid, refused) and its one ledger entry written by the worker, the contact drawer's history (the import's
 * entry for the contacts it brought, not for one added after; the entries of every audience), and both exports (the
 * contacts' "Latest consent" column and the consent export, with formulas made inert).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDetail } from '@mailroom/api-client';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';
import { appendConsent } from '../../services/consent/repository.js';
import { startWorkers, type Workers } from '../../workers/index.js';
import { audienceWorkers } from '../../workers/audiences.js';

let t: TestApp;
let workers: Workers | undefined;
let auth: string;
let importDir: string;

beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'mailroom-consent-test-'));
  t = await createTestApp({ queue: 'rabbitmq', env: { IMPORT_DIR: importDir } });
  auth = await bearer();
  workers = await startWorkers(t.deps, [audienceWorkers]);
});
afterAll(async () => {
  await workers?.close();
  await t?.close();
  await rm(importDir, { recursive: true, force: true });
});

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);
const q = <R extends Record<string, unknown>>(text: string, params: unknown[] = []) => t.db.pool.query<R>(text, params).then((r) => r.rows);

async function createAudience(name: string): Promise<number> {
  const res = await api().post('/api/audiences').set('Authorization', auth).send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

function upload(id: number, content: string, lawfulBasis?: string) {
  const req = api().post(`/api/audiences/${id}/import/file?type=csv`).set('Authorization', auth);
  if (lawfulBasis !== undefined) req.field('lawfulBasis', lawfulBasis);
  return req.attach('file', Buffer.from(content), 'contacts.csv');
}

async function imported(id: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await get(`/api/audiences/${id}`);
    if (!res.body.isImporting) return res.body as { numberOfContacts: number; source: string | null };
    if (Date.now() > deadline) throw new Error(`audience ${id} still importing`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const imports = (audienceId: number) =>
  q(`SELECT event, email, member_email, lawful_basis, contacts FROM consent_ledger WHERE audience_id = $1 AND event = 'IMPORTED'`, [
    audienceId,
  ]);

const csvOf = (text: string) => Papa.parse<string[]>(text.trimEnd(), { newline: '\n' }).data;
const download = (req: request.Test) =>
  req.buffer(true).parse((response, callback) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (body += chunk));
    response.on('end', () => callback(null, body));
  });

describe("the import's lawful basis", () => {
  it('records one IMPORTED entry with the basis chosen, the member and the count, whatever the number of rows', async () => {
    const id = await createAudience('Chosen basis');
    const rows = Array.from({ length: 50 }, (_, i) => `p${i}@example.org`);
    expect((await upload(id, ['email', ...rows].join('\n'), 'LEGITIMATE_INTEREST')).status).toBe(202);
    expect(await imported(id)).toMatchObject({ numberOfContacts: 50 });
    expect(await imports(id)).toEqual([
      { event: 'IMPORTED', email: null, member_email: 'mia@example.org', lawful_basis: 'LEGITIMATE_INTEREST', contacts: 50 },
    ]);
  });

  it('takes the call without it (not stated), as the spec makes it', async () => {
    const id = await createAudience('No basis');
    expect((await upload(id, 'email\nann@example.org\n')).status).toBe(202);
    await imported(id);
    expect(await imports(id)).toEqual([
      { event: 'IMPORTED', email: null, member_email: 'mia@example.org', lawful_basis: null, contacts: 1 },
    ]);
  });

  it('refuses a basis not offered with a 400, storing nothing: no upload, no claim, no entry', async () => {
    const id = await createAudience('Bad basis');
    for (const basis of ['WHIM', 'consent', '', 'CONSENT\u0000']) {
      const res = await upload(id, 'email\nann@example.org\n', basis);
      expect(res.status, `${JSON.stringify(basis)}: ${JSON.stringify(res.body)}`).toBe(400);
    }
    // The file sent before the field is refused too.
    const late = await api()
      .post(`/api/audiences/${id}/import/file?type=csv`)
      .set('Authorization', auth)
      .attach('file', Buffer.from('email\nann@example.org\n'), 'contacts.csv')
      .field('lawfulBasis', 'WHIM');
    expect(late.status).toBe(400);
    expect(await get(`/api/audiences/${id}`).then((r) => r.body)).toMatchObject({ source: null, isImporting: false, numberOfContacts: 0 });
    expect(await imports(id)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await readdir(importDir)).filter((name) => name.startsWith(`${id}-`))).toEqual([]);
  });
});

describe("the contact's consent history and the exports", () => {
  let audienceId: number;
  let annId: number;
  let addedId: number;

  beforeAll(async () => {
    audienceId = await createAudience('History');
    expect((await upload(audienceId, 'email,name\nAnn@example.org,Ann\nbob@example.org,=HYPERLINK("x")\n', 'CONTRACT')).status).toBe(202);
    await imported(audienceId);
    const contacts = await q<{ id: string; email: string }>(`SELECT id, email FROM contacts WHERE audience_id = $1 ORDER BY seq`, [
      audienceId,
    ]);
    annId = Number(contacts[0]!.id);
    const added = await api()
      .post(`/api/audiences/${audienceId}/contacts`)
      .set('Authorization', auth)
      .send({ email: 'cid@example.org', data: { name: 'Cid' }, lawfulBasis: 'CONSENT' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    addedId = added.body.id as number;
    // Ann signs up through a form of another audience (not hers here), then of this one, and later leaves everything.
    await appendConsent(t.db.pool, { event: 'SUBSCRIBED', audienceId: audienceId + 1000, email: 'ann@example.org', formName: 'Elsewhere' });
    await appendConsent(t.db.pool, {
      event: 'CONFIRMED',
      audienceId,
      email: 'ann@EXAMPLE.org',
      formId: 7,
      formName: '=Newsletter',
      consentVersion: 2,
      wording: '=1+2 I agree',
      clientAddress: '192.0.2.1',
      userAgent: '@SUM(A1)',
    });
    await appendConsent(t.db.pool, { event: 'UNSUBSCRIBED', audienceId: null, email: 'Ann@example.org', clientAddress: '-192.0.2.9' });
  });

  it("lists the import's entry, then the audience's and every audience's entries of the address, oldest first", async () => {
    const ann = (await get(`/api/audiences/${audienceId}/contacts/${annId}`).expect(200)).body as ContactDetail;
    expect(ann.consentHistory.map((entry) => [entry.event, entry.audienceId])).toEqual([
      ['IMPORTED', audienceId],
      ['CONFIRMED', audienceId],
      ['UNSUBSCRIBED', null],
    ]);
    expect(ann.consentHistory[0]).toMatchObject({ memberEmail: 'mia@example.org', lawfulBasis: 'CONTRACT', contacts: 2 });
    expect(ann.consentHistory[1]).toMatchObject({
      formName: '=Newsletter',
      consentVersion: 2,
      wording: '=1+2 I agree',
      clientAddress: '192.0.2.1',
    });
    // Signed up through a form after the import: that is now how the person came (the people page says it alike).
    expect(ann.consent).toEqual([expect.objectContaining({ kind: 'form', by: '=Newsletter' })]);
    const found = await get('/api/people?email=ANN%40example.org');
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const person = found.body as { consent: unknown[] };
    // Ann is on two audiences: here, and in 'No basis', imported with nothing else recorded.
    expect(person.consent).toEqual(
      expect.arrayContaining([
        ann.consent[0],
        expect.objectContaining({ kind: 'import', by: 'mia@example.org', audienceName: 'No basis' }),
      ]),
    );

    // Added by hand after the import: its own entry only, never the import's.
    const cid = (await get(`/api/audiences/${audienceId}/contacts/${addedId}`).expect(200)).body as ContactDetail;
    expect(cid.consentHistory.map((entry) => [entry.event, entry.lawfulBasis])).toEqual([['ADDED', 'CONSENT']]);
  });

  it('exports the latest consent as the last column, in words and with its date, every cell inert', async () => {
    const res = await download(api().post(`/api/audiences/${audienceId}/download`).set('Authorization', auth));
    expect(res.status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(csvOf(res.body as string)).toEqual([
      ['email', 'name', 'Latest consent'],
      ['Ann@example.org', 'Ann', `Unsubscribed, ${day}`],
      ['bob@example.org', `'=HYPERLINK("x")`, `Imported by mia@example.org, ${day}`],
      ['cid@example.org', 'Cid', `Added by mia@example.org, ${day}`],
    ]);
  });

  it('exports every ledger event of the audience and its addresses as CSV, in words, formulas made inert', async () => {
    expect((await api().get(`/api/audiences/${audienceId}/consent-export`)).status).toBe(401);
    expect((await get(`/api/audiences/999999/consent-export`)).status).toBe(404);
    const res = await download(get(`/api/audiences/${audienceId}/consent-export`));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="History-consent.csv"; filename*=UTF-8''History-consent.csv`);
    const rows = csvOf(res.body as string);
    expect(rows[0]).toEqual([
      'time',
      'address',
      'event',
      'form',
      'wording version',
      'wording',
      'member',
      'lawful basis',
      'client address',
      'agent',
      'detail',
    ]);
    for (const row of rows.slice(1)) expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
      ['', 'Imported', '', '', '', 'mia@example.org', 'Contract', '', '', '2 contacts'],
      ['cid@example.org', 'Added', '', '', '', 'mia@example.org', 'Consent collected elsewhere', '', '', ''],
      ['ann@EXAMPLE.org', 'Confirmed', `'=Newsletter`, '2', `'=1+2 I agree`, '', '', '192.0.2.1', `'@SUM(A1)`, ''],
      ['Ann@example.org', 'Unsubscribed', '', '', '', '', '', `'-192.0.2.9`, '', ''],
    ]);
    // The download is in the activity log.
    const [entry] = await q(`SELECT details FROM activity WHERE kind = 'export' AND object_id = $1 ORDER BY id DESC LIMIT 1`, [audienceId]);
    expect(entry).toEqual({ details: { what: 'consent' } });
  });
});
