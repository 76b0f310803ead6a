/**
 * The S3 spool with keys of its own (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY): an S3-compatible store
 * such as MinIO has its own accounts, while SES takes the AWS credentials of the environment. The
 * local stand-in checks every request's signature against its one account, so only the spool's own
 * keys get in.
 */
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Endpoint, type S3Endpoint } from '../../test/support/s3.js';
import { loadConfig } from '../config.js';
import { createImportSpool } from './index.js';

let s3: S3Endpoint;
beforeAll(async () => {
  s3 = await startS3Endpoint();
});
afterAll(async () => {
  await s3?.close();
});

describe('the S3 spool with keys of its own', () => {
  const sesKeys = { AWS_ACCESS_KEY_ID: 'AKIASESONLYKEY000000', AWS_SECRET_ACCESS_KEY: 'the-ses-secret/with+slash' };
  const spoolOf = (env: Record<string, string>) => {
    const config = loadConfig({ ...s3.env, ...sesKeys, ...env });
    return createImportSpool(config.import.spool);
  };

  it('reaches the store with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY while the environment holds the SES keys', async () => {
    const spool = spoolOf({ S3_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID!, S3_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY! });
    await spool.put('1-own-keys.csv', Readable.from([Buffer.from('email\na@example.org\n')]));
    expect((await buffer(await spool.get('1-own-keys.csv'))).toString()).toBe('email\na@example.org\n');
    await spool.delete('1-own-keys.csv');
    spool.close();
  });

  it('without them signs with the SES keys, which the store refuses', async () => {
    const spool = spoolOf({});
    await expect(spool.put('2-ses-keys.csv', Readable.from([Buffer.from('email\n')]))).rejects.toThrow();
    expect(await s3.objects()).toEqual([]);
    spool.close();
  });

  it('refuses half a key pair, or keys without a bucket, at start', () => {
    expect(() => loadConfig({ ...s3.env, S3_ACCESS_KEY_ID: 'minio' })).toThrow(/S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/);
    expect(() => loadConfig({ S3_ACCESS_KEY_ID: 'minio', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(/S3_ACCESS_KEY_ID: set S3_BUCKET too/);
  });
});
