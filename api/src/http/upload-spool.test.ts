/**
 * Contact-import uploads through the whole app into the S3 spool (the local S3-compatible endpoint,
 * through the real SDK): stored as a multipart upload as they arrive; past IMPORT_MAX_BYTES (413), or
 * cut off by the client, the multipart upload is aborted and nothing stays in the bucket; a file
 * whose start fails the header check stops being stored; a file sent to any other route is refused.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { startS3Endpoint, type S3Endpoint } from '../../test/support/s3.js';
import { waitFor } from '../../test/support/processes.js';
import { bearer } from '../../test/support/tokens.js';

const MB = 1024 * 1024;
const MAX_BYTES = 12 * MB;

let s3: S3Endpoint;
let t: TestApp;
let server: Server;
let auth: string;

beforeAll(async () => {
  s3 = await startS3Endpoint();
  // The SDK's default credential chain reads them from this process's environment (this file's own process).
  process.env.AWS_ACCESS_KEY_ID = s3.env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = s3.env.AWS_SECRET_ACCESS_KEY;
  t = await createTestApp({ queue: 'rabbitmq', env: { ...s3.env, IMPORT_MAX_BYTES: String(MAX_BYTES) } });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  auth = await bearer();
});

afterAll(async () => {
  server?.close();
  await t?.close();
  await s3?.close();
});

async function audience(): Promise<number> {
  const created = await request(t.app)
    .post('/api/audiences')
    .set('Authorization', auth)
    .send({ name: `Upload ${randomBytes(3).toString('hex')}` });
  return created.body.id as number;
}

/** A CSV of about `bytes` bytes with an email column. */
function csv(bytes: number): Buffer {
  const row = 'someone@example.org,A name that takes some room,City\n';
  return Buffer.from(`email,name,city\n${row.repeat(Math.ceil(bytes / row.length))}`);
}

const nothingLeft = () =>
  waitFor(
    'the bucket to hold nothing',
    async () => ((await s3.objects()).length + (await s3.pendingUploads()).length === 0 ? true : undefined),
    {
      timeoutMs: 10_000,
    },
  );

const aborted = () => s3.requests.get('DELETE uploadId') ?? 0;

describe('import uploads into the S3 spool', () => {
  it('stores an accepted upload as a multipart upload, under a name of its own', async () => {
    const id = await audience();
    const parts = s3.requests.get('PUT uploadId') ?? 0;
    const res = await request(t.app)
      .post(`/api/audiences/${id}/import/file?type=csv`)
      .set('Authorization', auth)
      .attach('file', csv(11 * MB), 'contacts.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await s3.objects()).toEqual([expect.stringMatching(new RegExp(`^imports/${id}-[0-9a-f-]{36}\\.csv$`))]);
    expect((s3.requests.get('PUT uploadId') ?? 0) - parts).toBe(3);
    expect(await s3.pendingUploads()).toEqual([]);
    await t.deps.spool.delete((await s3.objects())[0]!.slice('imports/'.length));
  });

  it('answers 413 past IMPORT_MAX_BYTES and aborts the multipart upload', async () => {
    const id = await audience();
    const before = aborted();
    const res = await request(t.app)
      .post(`/api/audiences/${id}/import/file?type=csv`)
      .set('Authorization', auth)
      .attach('file', csv(16 * MB), 'contacts.csv');
    expect(res.status).toBe(413);
    await nothingLeft();
    expect(aborted()).toBe(before + 1);
    expect((await request(t.app).get(`/api/audiences/${id}`).set('Authorization', auth)).body).toMatchObject({
      isImporting: false,
      source: null,
    });
  });

  it('aborts the multipart upload of a client that hangs up half-way', async () => {
    const id = await audience();
    const before = aborted();
    const boundary = 'mailroom-boundary';
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/audiences/${id}/import/file?type=csv`,
      headers: { authorization: auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(20 * MB) },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    const body = csv(11 * MB);
    for (let at = 0; at < body.length; at += MB) {
      if (!req.write(body.subarray(at, at + MB))) await new Promise((resolve) => req.once('drain', resolve));
    }
    // Parts are on their way to the bucket: then the client is gone.
    await waitFor('a part to be stored', async () => ((await s3.pendingUploads()).length > 0 ? true : undefined), { timeoutMs: 10_000 });
    req.destroy();
    await nothingLeft();
    expect(aborted()).toBe(before + 1);
  });

  it('stops storing a file whose start fails the header check, and answers 400 with its message', async () => {
    const id = await audience();
    const puts = (s3.requests.get('PUT uploadId') ?? 0) + (s3.requests.get('PUT object') ?? 0);
    const noEmail = Buffer.from(`name,city\n${'A name,City\n'.repeat(800_000)}`);
    const res = await request(t.app)
      .post(`/api/audiences/${id}/import/file?type=csv`)
      .set('Authorization', auth)
      .attach('file', noEmail, 'contacts.csv');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/email/i);
    await nothingLeft();
    // Refused before its first part was full: nothing of it reached the bucket.
    expect((s3.requests.get('PUT uploadId') ?? 0) + (s3.requests.get('PUT object') ?? 0)).toBe(puts);
  });

  it('takes the file of the import operation by any path the contract matches to it', async () => {
    // The operation comes from the contract's match, not from a copy of its route: a copy refused these.
    for (const pathOf of [(id: number) => `/api/audiences/${id}/import/file/`, (id: number) => `/API/audiences/${id}/import/file`]) {
      const id = await audience();
      const res = await request(t.app)
        .post(`${pathOf(id)}?type=csv`)
        .set('Authorization', auth)
        .attach('file', Buffer.from('email\na@example.org\n'), 'contacts.csv');
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const [stored] = await s3.objects();
      expect(stored).toMatch(new RegExp(`^imports/${id}-`));
      await t.deps.spool.delete(stored!.slice('imports/'.length));
    }
  });

  it('refuses a file sent to another route that takes a form, storing nothing', async () => {
    const res = await request(t.app).post('/unsubscribe/some-token').attach('file', Buffer.from('email\na@example.org\n'), 'x.csv');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await nothingLeft();
  });
});
