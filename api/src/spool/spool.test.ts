/**
 * Both import spools through the same cases: the folder (IMPORT_DIR) and S3 (against the local
 * S3-compatible endpoint, through the real SDK). An upload that passes the cap or stops half-way
 * leaves nothing behind: no file, no object, no multipart upload with parts.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Endpoint, type S3Endpoint } from '../../test/support/s3.js';
import { folderSpool } from './folder-spool.js';
import { s3Spool } from './s3-spool.js';
import { SpoolObjectMissingError, SpoolTooLargeError, type ImportSpool } from './spool.js';

const MB = 1024 * 1024;

/** `total` bytes in 256 KB chunks, as a client sends them; `failAt`: the client hangs up there instead. */
function upload(total: number, { failAt }: { failAt?: number } = {}): { body: Readable; content: Buffer } {
  const content = randomBytes(total);
  let sent = 0;
  const body = new Readable({
    read() {
      if (failAt !== undefined && sent >= failAt) {
        this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
        return;
      }
      if (sent >= total) return void this.push(null);
      const chunk = content.subarray(sent, Math.min(total, sent + 256 * 1024));
      sent += chunk.length;
      // A network's pace: the next chunk comes on a later turn.
      setImmediate(() => this.push(chunk));
    },
  });
  return { body, content };
}

interface Case {
  spool: ImportSpool;
  /** What is stored, and (S3) multipart uploads still open. */
  leftovers(): Promise<string[]>;
  /** Makes every stored object look `ageMs` old. */
  age?(ageMs: number): Promise<void>;
}

let dir: string;
let s3: S3Endpoint;
const cases: Record<'folder' | 's3', () => Case> = {
  folder: () => ({
    spool: folderSpool(dir),
    leftovers: async () => readdir(dir).catch(() => []),
    age: async (ageMs) => {
      const at = new Date(Date.now() - ageMs);
      for (const name of await readdir(dir)) await utimes(join(dir, name), at, at);
    },
  }),
  s3: () => ({
    spool: s3Spool(
      { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true },
      new S3Client({
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID!, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY! },
      }),
    ),
    leftovers: async () => [...(await s3.objects()), ...(await s3.pendingUploads()).map((id) => `upload ${id}`)],
  }),
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailroom-spool-test-'));
  s3 = await startS3Endpoint();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await s3?.close();
});

describe.each(['folder', 's3'] as const)('the %s spool', (kind) => {
  it('stores a streamed upload, gives it back as a stream, and deletes it', async () => {
    const { spool, leftovers } = cases[kind]();
    // Larger than two S3 parts, so S3 takes it as a multipart upload.
    const { body, content } = upload(12 * MB + 123);
    expect(await spool.put('7-upload.csv', body, { maxBytes: 20 * MB })).toEqual({ size: content.length });
    expect((await buffer(await spool.get('7-upload.csv'))).equals(content)).toBe(true);
    expect(await leftovers()).toHaveLength(1);
    await spool.delete('7-upload.csv');
    expect(await leftovers()).toEqual([]);
    // Already gone: nothing to do, and reading it says so.
    await spool.delete('7-upload.csv');
    await expect(spool.get('7-upload.csv')).rejects.toBeInstanceOf(SpoolObjectMissingError);
    spool.close();
  });

  it('refuses an upload past the size cap as it streams, leaving nothing behind', async () => {
    const { spool, leftovers } = cases[kind]();
    const before = s3.requests.get('DELETE uploadId') ?? 0;
    const { body } = upload(16 * MB);
    await expect(spool.put('8-large.csv', body, { maxBytes: 11 * MB })).rejects.toBeInstanceOf(SpoolTooLargeError);
    expect(await leftovers()).toEqual([]);
    // Its parts were on their way: the multipart upload was aborted.
    if (kind === 's3') expect(s3.requests.get('DELETE uploadId') ?? 0).toBe(before + 1);
    spool.close();
  });

  it('aborts an upload whose client hangs up half-way, leaving nothing behind', async () => {
    const { spool, leftovers } = cases[kind]();
    const before = s3.requests.get('DELETE uploadId') ?? 0;
    const { body } = upload(20 * MB, { failAt: 11 * MB });
    await expect(spool.put('9-cut.csv', body, { maxBytes: 100 * MB })).rejects.toThrow('aborted');
    expect(await leftovers()).toEqual([]);
    if (kind === 's3') expect(s3.requests.get('DELETE uploadId') ?? 0).toBe(before + 1);
    spool.close();
  });

  it('removes what was stored longer ago than the stale time, and keeps the rest', async () => {
    const { spool, leftovers, age } = cases[kind]();
    for (const name of ['10-a.csv', '11-b.csv']) await spool.put(name, Readable.from([Buffer.from('email\na@example.org\n')]));
    await age?.(120_000);
    expect(await spool.removeOlderThan(3_600_000)).toBe(0);
    expect(await leftovers()).toHaveLength(2);
    // S3 keeps its own LastModified: a cutoff a little after now covers what was just stored.
    expect(await spool.removeOlderThan(kind === 's3' ? -5_000 : 60_000)).toBe(2);
    expect(await leftovers()).toEqual([]);
    spool.close();
  });

  it('refuses names that are not spool names', async () => {
    const { spool } = cases[kind]();
    await expect(spool.get('../etc/passwd')).rejects.toThrow('not a spool name');
    await expect(spool.put('.hidden', Readable.from([Buffer.from('x')]))).rejects.toThrow('not a spool name');
    spool.close();
  });
});
