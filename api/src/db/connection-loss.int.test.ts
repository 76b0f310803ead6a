/**
 * A database connection lost while it is checked out: the app and its workers reach PostgreSQL
 * through a TCP proxy this test controls (test/support/tcp-proxy.ts), which resets every connection
 * in the middle of an export, of an import's COPY and of a purge, or refuses them all (an outage).
 * The process lives (an error on a connection nobody listens to would end it, and vitest with it),
 * the request fails (503, or a cut download), the job is redelivered, and the next call succeeds
 * once traffic passes again.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.js';
import { bearer } from '../../test/support/tokens.js';
import { audienceWorkers } from '../workers/audiences.js';
import { DATABASE_UNAVAILABLE } from '../errors.js';

const CONTACTS = 150_000;
const csv = (rows: number, prefix: string) =>
  `email,name,city\n${Array.from({ length: rows }, (_, i) => `${prefix}${i}@example.org,Name ${i},City ${i % 97}`).join('\n')}\n`;

interface LogLine {
  level: number;
  msg: string;
  queue?: string;
}

let proxy: TcpProxy;
let t: TestApp;
let server: Server;
let base: string;
let auth: string;
let importDir: string;
const logs: LogLine[] = [];

beforeAll(async () => {
  proxy = await startTcpProxy({ port: 5432 });
  importDir = await mkdtemp(join(tmpdir(), 'mailroom-spool-loss-'));
  const logger = pino({ level: 'warn' }, { write: (line: string) => logs.push(JSON.parse(line) as LogLine) });
  t = await createTestApp({
    queue: 'rabbitmq',
    workers: [audienceWorkers],
    databaseUrl: (url) => proxy.url(url),
    env: { IMPORT_DIR: importDir },
    deps: { logger },
  });
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  auth = await bearer();
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  proxy?.pass();
  await t?.close();
  await proxy?.close();
  await rm(importDir, { recursive: true, force: true });
});

const api = () => request(t.app);

async function createAudience(name: string): Promise<number> {
  const res = await api().post('/api/audiences').set('Authorization', auth).send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function upload(id: number, content: string): Promise<void> {
  const res = await api()
    .post(`/api/audiences/${id}/import/file?type=csv`)
    .set('Authorization', auth)
    .attach('file', Buffer.from(content), 'contacts.csv');
  expect(res.status).toBe(202);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function imported(id: number) {
  return until(`audience ${id} imported`, async () => {
    const res = await api().get(`/api/audiences/${id}`).set('Authorization', auth);
    return res.status === 200 && !res.body.isImporting ? res.body : undefined;
  });
}

/** The export as the browser takes it: status, text, and whether the response ended properly. */
function download(id: number): Promise<{ status: number; text: string; complete: boolean }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}/api/audiences/${id}/download`, { method: 'POST', headers: { authorization: auth } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const done = () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', () => resolve({ status: 0, text: '', complete: false }));
    req.end();
  });
}

const contactsOf = async (id: number) =>
  Number((await t.db.pool.query('SELECT count(*) AS n FROM contacts WHERE audience_id = $1', [id])).rows[0].n);

describe('a database connection lost mid-work', () => {
  let big: number;

  it('a cut in the middle of an import COPY rolls it back; the job is redelivered and imports everything once', async () => {
    big = await createAudience('Big');
    const cut = proxy.cutWhen({ marker: 'COPY contacts', afterBytes: 1_000_000, direction: 'up' });
    const resetsBefore = proxy.resets;
    await upload(big, csv(CONTACTS, 'p'));
    await cut;
    expect(proxy.resets).toBeGreaterThan(resetsBefore);
    const audience = await imported(big);
    expect(audience).toMatchObject({ numberOfContacts: CONTACTS, importErrorMessage: null, source: 'CSV' });
    // No row of the attempt that was cut survived it.
    expect(await contactsOf(big)).toBe(CONTACTS);
    expect(logs.some((line) => line.msg === 'message met an outage; will retry')).toBe(true);
  });

  it('a cut in the middle of an export ends the download short; the next export is whole', async () => {
    const cut = proxy.cutWhen({ marker: 'COPY (', afterBytes: 1_000_000, direction: 'down' });
    const first = await download(big);
    await cut;
    expect(first.status).toBe(200);
    expect(first.complete).toBe(false);
    const rows = first.text.split('\n').length - 1;
    expect(rows).toBeGreaterThan(1);
    expect(rows).toBeLessThan(CONTACTS + 1);

    const again = await download(big);
    expect(again.status).toBe(200);
    expect(again.complete).toBe(true);
    expect(again.text.trimEnd().split('\n')).toHaveLength(CONTACTS + 1);
  });

  it('a cut in the middle of a purge is retried until the audience is gone', async () => {
    const purged = await createAudience('To purge');
    await upload(purged, csv(25_000, 'q'));
    await imported(purged);
    expect(await contactsOf(purged)).toBe(25_000);
    const retriesBefore = logs.filter((line) => line.msg === 'message met an outage; will retry').length;
    const cut = proxy.cutWhen({ marker: 'DELETE FROM contacts' });
    expect((await api().delete(`/api/audiences/${purged}`).set('Authorization', auth)).status).toBe(202);
    await cut;
    await until('the purge', async () => {
      const { rowCount } = await t.db.pool.query('SELECT 1 FROM audiences WHERE id = $1', [purged]);
      return rowCount === 0 ? true : undefined;
    });
    expect(await contactsOf(purged)).toBe(0);
    expect(logs.filter((line) => line.msg === 'message met an outage; will retry').length).toBeGreaterThan(retriesBefore);
  });

  it('an outage answers 503 (readiness says the database is down), and the next call succeeds once it is back', async () => {
    proxy.refuse();
    try {
      const list = await api().get('/api/audiences').set('Authorization', auth);
      expect(list.status).toBe(503);
      expect(list.body).toEqual({ message: DATABASE_UNAVAILABLE });
      const one = await api().get(`/api/audiences/${big}/contacts`).set('Authorization', auth);
      expect(one.status).toBe(503);
      const ready = await api().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.checks).toEqual({ database: 'down', broker: 'up' });
    } finally {
      proxy.pass();
    }
    expect((await api().get('/api/audiences').set('Authorization', auth)).status).toBe(200);
    expect((await api().get('/readyz')).status).toBe(200);
    expect((await api().get(`/api/audiences/${big}`).set('Authorization', auth)).body.numberOfContacts).toBe(CONTACTS);
  });
});
