/**
 * The contact import, run by the 'contact-import' consumer for a file the API has spooled.
 *
 * One transaction holds everything: the COPY of every contact and the audience's update (headers,
 * source, counts, isImporting false). A bad file or a crash rolls it all back, so a failed import
 * leaves the audience as it was, and a message redelivered after a worker crash simply runs the
 * import again from the start. The failure is then recorded in its own statement
 * (importErrorMessage, isImporting false).
 *
 * Throughput: the file is read in 64 KB chunks, parsed (csv.ts), turned into COPY text
 * (contact-rows.ts) and piped into `COPY contacts FROM STDIN` with backpressure, so Node parses the
 * next chunk while PostgreSQL stores the previous one: the two cores work in parallel and memory
 * stays flat except for the set of addresses used to flag duplicates (~40 bytes per contact,
 * email-set.ts).
 * A million rows take seconds, far inside RabbitMQ's 30-minute ack timeout; the upload cap
 * (IMPORT_MAX_BYTES) bounds the size of one import, so one message is always one bounded chunk of work.
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Logger } from '../../logger.js';
import { audienceLockArgs } from '../audiences/locks.js';
import { ContactRowWriter, CONTACT_COPY_COLUMNS, headerLayout } from './contact-rows.js';
import { csvRecords, EMPTY_FILE_ERROR, ImportFileError, isBlankRecord, type ImportLimits } from './csv.js';

export type ImportSource = 'CSV' | 'TEXT';

/** The 'contact-import' message: the spooled file is named relative to the import folder. */
export interface ContactImportJob {
  audienceId: number;
  /** File name inside the import folder (IMPORT_DIR); never a path, so a message cannot point elsewhere. */
  path: string;
  source: ImportSource;
}

export type ImportOutcome =
  | { status: 'imported'; contacts: number; contactsWithErrors: number; headers: string[] }
  | { status: 'failed'; message: string }
  | { status: 'skipped'; reason: string };

export const NO_CONTACTS_ERROR = 'The file has no contacts.';
export const FILE_GONE_ERROR = 'The uploaded file is no longer available; please import it again.';
export const INTERRUPTED_ERROR = 'Import was interrupted; please import again.';
export const IMPORT_FAILED_ERROR = 'The import failed; please import again.';

export interface ImporterOptions {
  dir: string;
  limits: ImportLimits;
  logger?: Logger;
}

export function spoolPath(dir: string, file: string): string {
  return join(dir, basename(file));
}

/**
 * Imports one spooled file. Resolves with the outcome; rejects only on an infrastructure error
 * (database, disk) that a later attempt may not meet, leaving the audience importing and the file
 * in place. `finalAttempt`: no later attempt will come, so such an error fails the import instead.
 */
export async function importContacts(
  pool: pg.Pool,
  job: ContactImportJob,
  options: ImporterOptions & { finalAttempt?: boolean },
): Promise<ImportOutcome> {
  const file = spoolPath(options.dir, job.path);
  let outcome: ImportOutcome;
  try {
    outcome = await importInTransaction(pool, job, file, options);
  } catch (error) {
    if (error instanceof ImportFileError) {
      outcome = { status: 'failed', message: error.message };
    } else if (options.finalAttempt) {
      options.logger?.error({ err: error, audienceId: job.audienceId }, 'contact import failed on its last attempt');
      outcome = { status: 'failed', message: IMPORT_FAILED_ERROR };
    } else {
      throw error;
    }
  }
  if (outcome.status === 'failed') await failImport(pool, job.audienceId, outcome.message);
  // Done with the file whatever happened (a thrown error above keeps it for the next attempt).
  await unlink(file).catch(() => {});
  return outcome;
}

/**
 * After an import has committed (the audience is already usable): merges what the trigram index
 * still holds in its pending list, which every email search would otherwise read through, and
 * refreshes the planner's statistics, which choose between the two search plans (repository.ts).
 */
export async function settleAfterImport(pool: pg.Pool): Promise<void> {
  await pool.query(`SELECT gin_clean_pending_list('contacts_email_trgm'::regclass)`);
  await pool.query('ANALYZE contacts');
}

/** Records a failed import; a no-op if the audience is no longer importing. */
export async function failImport(pool: pg.Pool, audienceId: number, message: string): Promise<void> {
  await pool.query(
    `UPDATE audiences SET is_importing = false, import_error_message = $2, import_started_at = NULL, updated_at = now()
      WHERE id = $1 AND is_importing`,
    [audienceId, message],
  );
}

async function importInTransaction(pool: pg.Pool, job: ContactImportJob, file: string, options: ImporterOptions): Promise<ImportOutcome> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    // The trigram index (email search) is most of the COPY's cost: it takes new entries into a
    // pending list and merges that list into the index whenever it passes gin_pending_list_limit,
    // sorting it in work_mem. Fewer, larger merges cost less CPU in total (~7% of the whole COPY at
    // a million rows, measured as the backend's CPU time) and leave at most 16 MB pending, which a
    // search still reads quickly.
    await client.query(`SET LOCAL work_mem = '64MB'`);
    await client.query(`SET LOCAL gin_pending_list_limit = '16MB'`);
    // Waits for a purge or another import of the same audience; then the checks below see its result.
    await client.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [job.audienceId]);
    const { rows } = await client.query<{ is_importing: boolean; deleted: boolean; source: string | null }>(
      'SELECT is_importing, deleted_at IS NOT NULL AS deleted, source FROM audiences WHERE id = $1',
      [job.audienceId],
    );
    const audience = rows[0];
    const skip = !audience
      ? 'audience gone'
      : audience.deleted
        ? 'audience deleted'
        : !audience.is_importing || audience.source !== null
          ? 'no import pending'
          : undefined;
    if (skip) {
      await client.query('ROLLBACK');
      return { status: 'skipped', reason: skip };
    }

    const input = await openSpoolFile(file);
    const state: { writer?: ContactRowWriter } = {};
    const copy = client.query(copyFrom(`COPY contacts ${CONTACT_COPY_COLUMNS} FROM STDIN`));
    await pipeline(Readable.from(copyText(input, job.audienceId, options.limits, state), { highWaterMark: 4 }), copy);
    const writer = state.writer;
    if (!writer) throw new ImportFileError(EMPTY_FILE_ERROR);
    if (writer.count === 0) throw new ImportFileError(NO_CONTACTS_ERROR);

    await client.query(
      `UPDATE audiences
          SET headers = $2::jsonb, source = $3, number_of_contacts = $4, number_of_contacts_with_errors = $5,
              is_importing = false, import_error_message = NULL, import_started_at = NULL, updated_at = now()
        WHERE id = $1`,
      [job.audienceId, JSON.stringify(writer.layout.headers), job.source, writer.count, writer.errorCount],
    );
    await client.query('COMMIT');
    return {
      status: 'imported',
      contacts: writer.count,
      contactsWithErrors: writer.errorCount,
      headers: writer.layout.headers,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

async function openSpoolFile(file: string): Promise<Readable> {
  // 64 KB: what one chunk allocates (text, fields, COPY lines) dies young in V8's new space; with
  // 1 MB chunks it survived into the old generation and the worker measured twice the time and RSS.
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new ImportFileError(FILE_GONE_ERROR) : error));
  });
  return stream;
}

/** COPY text for the whole file, one string per parsed chunk; the first non-blank record is the header. */
async function* copyText(
  input: Readable,
  audienceId: number,
  limits: ImportLimits,
  state: { writer?: ContactRowWriter },
): AsyncGenerator<string> {
  try {
    for await (const { records } of csvRecords(input, limits)) {
      let text = '';
      for (const record of records) {
        if (isBlankRecord(record)) continue;
        if (!state.writer) {
          state.writer = new ContactRowWriter(audienceId, headerLayout(record));
          continue;
        }
        text += state.writer.row(record);
      }
      if (text) yield text;
    }
  } finally {
    input.destroy();
  }
}
