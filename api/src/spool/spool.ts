/**
 * The import spool: where the API puts an accepted upload and the worker reads it from. Two
 * implementations behind one small interface, chosen in config (`import.spool`):
 *  - a folder (IMPORT_DIR, the embedded default): the API and the workers must share it;
 *  - an S3 bucket (S3_BUCKET): nothing shared but the bucket, so the API and the workers may run on
 *    any number of hosts.
 * Objects are named by the API (`<audience id>-<uuid>.csv`), never by the member.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';

export interface ImportSpool {
  /** What it is, for logs and the start-up line. */
  readonly description: string;
  /**
   * Streams `body` into a new object `name`, at most `maxBytes` of it. Resolves with the size once
   * the whole object is stored; rejects when `body` fails (a client that hung up) or passes the cap
   * (SpoolTooLargeError), and then leaves nothing behind (the S3 multipart upload is aborted).
   */
  put(name: string, body: Readable, options?: { maxBytes?: number }): Promise<{ size: number }>;
  /** The object as a stream; rejects with SpoolObjectMissingError when it is not there. */
  get(name: string): Promise<Readable>;
  /** Removes the object; nothing happens when it is already gone. */
  delete(name: string): Promise<void>;
  /** Removes objects stored longer ago than this (the import they were for is over one way or another). */
  removeOlderThan(ageMs: number): Promise<number>;
  close(): void;
}

export class SpoolTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The upload is larger than ${maxBytes} bytes`);
    this.name = 'SpoolTooLargeError';
  }
}

export class SpoolObjectMissingError extends Error {
  constructor(name: string) {
    super(`The spooled object ${name} is not there`);
    this.name = 'SpoolObjectMissingError';
  }
}

/** Spool names are ours; this refuses anything else (a message cannot point at another object or folder). */
export const SPOOL_NAME = /^[\w.-]{1,200}$/;

export function checkedName(name: string): string {
  if (!SPOOL_NAME.test(name) || name.startsWith('.')) throw new Error(`not a spool name: ${name}`);
  return name;
}

/** Passes bytes through, counting them; fails with SpoolTooLargeError past `maxBytes`. */
export class ByteCounter extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) done(new SpoolTooLargeError(this.maxBytes));
    else done(null, chunk);
  }
}
