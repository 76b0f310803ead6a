/**
 * The spool as an S3 bucket (S3_BUCKET): the API and the workers share nothing else, so each may run
 * on its own host. Uploads are streamed as multipart uploads (@aws-sdk/lib-storage): at most
 * QUEUE_SIZE parts of PART_BYTES are held in memory, whatever the size of the file, and an upload
 * that stops half-way (the client hung up, the size cap) is aborted so that no part is left behind.
 * Objects live under `imports/` in the bucket. S3_ENDPOINT and S3_FORCE_PATH_STYLE reach
 * S3-compatible stores (MinIO, the tests' local stand-in); credentials come from the SDK's default
 * provider chain (environment, profile, instance or task role), or S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY when the store has keys of its own.
 */
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteCounter, checkedName, SpoolObjectMissingError, type ImportSpool } from './spool.js';

export interface S3SpoolSettings {
  bucket: string;
  region: string;
  /** Unset: the region's S3 endpoint. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Unset: the SDK's default provider chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** S3's smallest part; two in flight keep the network busy while the next one fills. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;
const PREFIX = 'imports/';

export function s3Spool(settings: S3SpoolSettings, client?: S3Client): ImportSpool {
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      // A copy: the SDK marks the object it is given, and the configuration is frozen.
      credentials: settings.credentials && { ...settings.credentials },
    });
  const Bucket = settings.bucket;
  const key = (name: string) => PREFIX + checkedName(name);

  return {
    description: `S3 bucket ${Bucket}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`,

    async put(name, body, { maxBytes } = {}) {
      const counter = new ByteCounter(maxBytes);
      // The counter fails the stream past the cap, or with the body's own error; the upload then
      // aborts its multipart upload before done() rejects (leavePartsOnError false).
      const counted = pipeline(body, counter).catch((error: unknown) => {
        counter.destroy(error as Error);
      });
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key: key(name), Body: counter, ContentType: 'text/csv' },
        partSize: PART_BYTES,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // S3 failed first: stop reading the body (its sender gets the error, not a stalled request).
        counter.destroy();
        body.destroy();
        throw error;
      }
      await counted;
      return { size: counter.bytes };
    },

    async get(name) {
      try {
        const { Body } = await s3.send(new GetObjectCommand({ Bucket, Key: key(name) }));
        return Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw new SpoolObjectMissingError(name);
        throw error;
      }
    },

    async delete(name) {
      // S3 answers 204 for a key that is not there.
      await s3.send(new DeleteObjectCommand({ Bucket, Key: key(name) }));
    },

    async removeOlderThan(ageMs) {
      const cutoff = Date.now() - ageMs;
      let removed = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key && object.LastModified && object.LastModified.getTime() < cutoff) {
            await s3.send(new DeleteObjectCommand({ Bucket, Key: object.Key }));
            removed++;
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return removed;
    },

    close() {
      if (!client) s3.destroy();
    },
  };
}
