/**
 * An upload: the file of an import request, streamed into the import spool (a folder or an S3
 * bucket, shared with the workers) as it arrives, under a name of ours and the size cap, its start
 * checked on the way (UTF-8, the limits, a header row with an email column). A file whose start
 * fails the check stops being stored at once: the rest of it is read and dropped.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ImportSettings } from '../../config.js';
import type { ImportSpool } from '../../spool/index.js';
import { fileColumnNames } from '@mailroom/api-client/fields';
import { headerLayout } from './contact-rows.js';
import { ImportFileError, readHeaderRecord } from './csv.js';

/** An upload as storeUpload left it: in the spool under `name`, or refused by its start (`problem`; nothing stored). */
export interface Upload {
  name: string | undefined;
  size: number;
  problem: string | undefined;
  /** The file's header record, as read (the mapping is checked against it). */
  header?: string[] | undefined;
}

export const EMPTY_CONTENT = 'Empty content';

/** The header check reads at most this much of an upload. */
export const HEADER_PEEK_BYTES = 256 * 1024;
const HEADER_CHUNK_BYTES = 64 * 1024;

/** The spool name of an upload: ours, so the member's file name never reaches the file system or the bucket. */
export function uploadName(audienceId: number): string {
  return `${audienceId}-${randomUUID()}.csv`;
}

/**
 * Streams `body` into the spool (at most `settings.maxBytes`: a larger one rejects with
 * SpoolTooLargeError and leaves nothing), checking its start on the way. `audienceId` only names
 * the object; `emailColumn` is the column the mapping names for the address, when the mapping came
 * before the file (else the address's column is found by its name).
 */
export async function storeUpload(
  spool: ImportSpool,
  settings: ImportSettings,
  audienceId: number,
  body: Readable,
  emailColumn?: string,
): Promise<Upload> {
  const name = uploadName(audienceId);
  const tap = new HeadTap(HEADER_PEEK_BYTES);
  let problem: string | undefined;
  let header: string[] | undefined;
  // The spool's write reads the tap's errors while it runs; one that comes after (a form cut short
  // once the file was stored, a refused header) must not become the process's uncaught exception.
  tap.on('error', () => undefined);
  body.on('error', (error) => tap.destroy(error));
  body.pipe(tap);
  const checked = tap.head.then(async (head) => {
    try {
      ({ problem, header } = await readUploadHeader(head, settings, emailColumn));
    } catch (error) {
      tap.destroy(error as Error);
      throw error;
    }
    // Stop storing it: the spool aborts the write, and the rest of the body is drained.
    if (problem !== undefined) {
      body.unpipe(tap);
      tap.destroy(new HeaderRefused());
      body.resume();
    }
  });
  let size = 0;
  try {
    [{ size }] = await Promise.all([spool.put(name, tap, { maxBytes: settings.maxBytes }), checked]);
  } catch (error) {
    if (problem === undefined) throw error;
  }
  if (problem === undefined) return { name, size, problem, header };
  // Refused by its start (which may have come after the whole of a small file was stored).
  await spool.delete(name).catch(() => undefined);
  return { name: undefined, size: tap.bytes, problem };
}

/** The header check of an upload's start: the message of what is wrong with it (encoding, limits, no email column), if anything. */
export async function headerProblem(head: Buffer, settings: ImportSettings, emailColumn?: string): Promise<string | undefined> {
  return (await readUploadHeader(head, settings, emailColumn)).problem;
}

/** An upload's header record, or what is wrong with its start (encoding, limits, no column for the address). */
export async function readUploadHeader(
  head: Buffer,
  settings: ImportSettings,
  emailColumn?: string,
): Promise<{ problem?: string; header?: string[] }> {
  try {
    // Read as a file is, a chunk at a time: the header record ends the read, so a problem further on
    // is the worker's to find (the importer reads 64 KB chunks too).
    const chunks = Array.from({ length: Math.ceil(head.length / HEADER_CHUNK_BYTES) }, (_, i) =>
      head.subarray(i * HEADER_CHUNK_BYTES, (i + 1) * HEADER_CHUNK_BYTES),
    );
    const header = await readHeaderRecord(Readable.from(chunks), settings);
    if (!header) return { problem: EMPTY_CONTENT };
    if (emailColumn === undefined) headerLayout(header);
    else if (!fileColumnNames(header).includes(emailColumn)) return { problem: noAddressColumn(emailColumn) };
    return { header };
  } catch (error) {
    if (error instanceof ImportFileError) return { problem: error.message };
    throw error;
  }
}

export const noAddressColumn = (column: string) => `The mapping is refused: the file has no column '${column}' for the address.`;

/** Why storeUpload stopped storing an upload. */
class HeaderRefused extends Error {}

/** Passes an upload through, keeping a copy of its first `limit` bytes (`head`, once they or the end have come) and counting it. */
class HeadTap extends Transform {
  readonly head: Promise<Buffer>;
  bytes = 0;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private settle!: (head: Buffer) => void;
  private settled = false;

  constructor(private readonly limit: number) {
    super();
    this.head = new Promise((resolve) => (this.settle = resolve));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (!this.settled) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
      if (this.kept >= this.limit) this.finishHead();
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.finishHead();
    done();
  }

  private finishHead(): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(Buffer.concat(this.chunks));
    this.chunks.length = 0;
  }
}
