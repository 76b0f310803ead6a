/**
 * A local S3-compatible endpoint for tests and benchmarks: s3rver (pure JavaScript, its objects in
 * a temporary folder), plus the one call the import spool needs that s3rver does not answer,
 * AbortMultipartUpload. The spool reaches it through the real SDK with S3_ENDPOINT and path-style
 * addressing (`env`); nothing in the code knows.
 *
 *   const s3 = await startS3Endpoint();
 *   ... { ...s3.env } ...
 *   expect(await s3.objects()).toEqual([]);
 *   expect(await s3.pendingUploads()).toEqual([]);
 *
 * Erasable TypeScript only: the benchmarks (plain Node) import it as it is.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3Endpoint {
  endpoint: string;
  bucket: string;
  /** What a Mailroom process needs to spool imports here. */
  env: Record<string, string>;
  /** Keys of the objects stored in the bucket. */
  objects(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted. */
  pendingUploads(): Promise<string[]>;
  /** Requests seen, by kind (`PUT object`, `POST uploads`, `DELETE uploadId`...). */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/** s3rver's own account: it checks request signatures against this key. */
const ACCESS_KEY = 'S3RVER';
/** Where s3rver keeps a bucket's objects and its multipart uploads, under its folder. */
const OBJECT_SUFFIX = '._S3rver_object';
const UPLOADS_FOLDER = '._S3rver_uploads';

/** `directory`: where the objects go (default a new temporary folder); removed by close(). */
export async function startS3Endpoint({
  bucket = 'mailroom-spool',
  directory: inside,
}: { bucket?: string; directory?: string } = {}): Promise<S3Endpoint> {
  const directory = inside ?? (await mkdtemp(join(tmpdir(), 'mailroom-s3-')));
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3rver.configureBuckets();
  const handle = s3rver.getMiddleware();
  const uploads = join(directory, bucket, UPLOADS_FOLDER);
  const requests = new Map<string, number>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const kind = `${req.method} ${['uploadId', 'uploads', 'list-type'].find((p) => url.searchParams.has(p)) ?? 'object'}`;
    requests.set(kind, (requests.get(kind) ?? 0) + 1);
    const uploadId = url.searchParams.get('uploadId');
    if (req.method === 'DELETE' && uploadId !== null) {
      // AbortMultipartUpload: its parts go. s3rver's ids are 32 hex digits.
      if (!/^[0-9a-f]{32}$/.test(uploadId)) {
        res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchUpload</Code></Error>');
        return;
      }
      req.resume();
      void rm(join(uploads, uploadId), { recursive: true, force: true }).then(
        () => res.writeHead(204).end(),
        () => res.writeHead(500).end(),
      );
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const walk = async (folder: string, prefix: string): Promise<string[]> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    const keys: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== UPLOADS_FOLDER)
        keys.push(...(await walk(join(folder, entry.name), `${prefix}${entry.name}/`)));
      else if (entry.isFile() && entry.name.endsWith(OBJECT_SUFFIX)) keys.push(prefix + entry.name.slice(0, -OBJECT_SUFFIX.length));
    }
    return keys.sort();
  };

  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
    },
    objects: () => walk(join(directory, bucket), ''),
    pendingUploads: async () => (await readdir(uploads).catch(() => [])).sort(),
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
