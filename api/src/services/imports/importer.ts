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
 * stays flat except for the hashes of the addresses used to flag duplicates (~10 bytes per contact,
 * email-set.ts), which are confirmed against the stored addresses before the commit (copyContacts).
 * A million rows take seconds, far inside RabbitMQ's 30-minute ack timeout; the upload cap
 * (IMPORT_MAX_BYTES) bounds the size of one import, so one message is always one bounded chunk of work.
 */
import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { z } from 'zod';
import type { Database, Sql, Tx } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { SpoolObjectMissingError, type ImportSpool } from '../../spool/index.js';
import type { contactImportJob } from './queues.js';
import { recordActivity } from '../activity/activity-service.js';
import { audienceLockArgs } from '../audiences/locks.js';
import { ContactRowWriter, CONTACT_COPY_COLUMNS, headerLayout } from './contact-rows.js';
import { csvRecords, EMPTY_FILE_ERROR, ImportFileError, isBlankRecord, type ImportLimits } from './csv.js';
import { unconfirmedDuplicates, validAddressesAfter } from '../contacts/repository.js';

export type ImportSource = 'CSV' | 'TEXT';

/** The 'contact-import' message (schema in queues.ts): the spooled upload is named by its name in the spool. */
export type ContactImportJob = z.infer<typeof contactImportJob>;

export type ImportOutcome =
  | { status: 'imported'; contacts: number; contactsWithErrors: number; headers: string[] }
  | { status: 'failed'; message: string }
  | { status: 'skipped'; reason: string };

export const NO_CONTACTS_ERROR = 'The file has no contacts.';
export const FILE_GONE_ERROR = 'The uploaded file is no longer available; please import it again.';
export const INTERRUPTED_ERROR = 'Import was interrupted; please import again.';
export const IMPORT_FAILED_ERROR = 'The import failed; please import again.';

export interface ImporterOptions {
  /** Where the API put the upload (a folder or an S3 bucket). */
  spool: ImportSpool;
  limits: ImportLimits;
  logger?: Logger;
}

/**
 * Imports one spooled upload. Resolves with the outcome; rejects only on an infrastructure error
 * (database, disk, S3) that a later attempt may not meet, leaving the audience importing and the
 * upload in the spool. `finalAttempt`: no later attempt will come, so such an error fails the import
 * instead.
 */
export async function importContacts(
  db: Database,
  job: ContactImportJob,
  options: ImporterOptions & { finalAttempt?: boolean },
): Promise<ImportOutcome> {
  let outcome: ImportOutcome;
  try {
    outcome = await importInTransaction(db, job, options);
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
  if (outcome.status === 'failed') {
    const { message } = outcome;
    const memberEmail = job.memberEmail;
    // The failure and its entry in the activity log commit together (a message queued before the log has no member: one statement).
    if (!memberEmail) await failImport(db, job.audienceId, message);
    else
      await db.transaction(async (tx) => {
        const name = await failImport(tx, job.audienceId, message);
        if (name === undefined) return;
        await recordActivity(tx, {
          actor: { email: memberEmail },
          kind: 'import-failed',
          object: { type: 'audience', id: job.audienceId, name },
          details: { message },
        });
      });
  }
  // Done with the upload whatever happened (a thrown error above keeps it for the next attempt).
  // Left behind if this fails: the worker's sweep removes it later.
  await options.spool.delete(job.path).catch((err: unknown) => {
    options.logger?.warn({ err, audienceId: job.audienceId, name: job.path }, 'could not remove a spooled upload; the sweep will');
  });
  return outcome;
}

/**
 * After an import has committed (the audience is already usable): merges what the trigram index
 * still holds in its pending list, which every email search would otherwise read through, and
 * refreshes the planner's statistics, which choose between the two search plans (repository.ts).
 */
export async function settleAfterImport(db: Sql): Promise<void> {
  await db.query(`SELECT gin_clean_pending_list('contacts_email_trgm'::regclass)`);
  await db.query('ANALYZE contacts');
}

/** Records a failed import and answers the audience's name; a no-op (undefined) if the audience is no longer importing. */
export async function failImport(db: Sql, audienceId: number, message: string): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>(
    `UPDATE audiences SET is_importing = false, import_error_message = $2, import_started_at = NULL, updated_at = now()
      WHERE id = $1 AND is_importing RETURNING name`,
    [audienceId, message],
  );
  return rows[0]?.name;
}

async function importInTransaction(db: Database, job: ContactImportJob, options: ImporterOptions): Promise<ImportOutcome> {
  return db.transaction(async (tx) => {
    // The trigram index (email search) is most of the COPY's cost: it takes new entries into a
    // pending list and merges that list into the index whenever it passes gin_pending_list_limit,
    // sorting it in work_mem. Fewer, larger merges cost less CPU in total (~7% of the whole COPY at
    // a million rows, measured as the backend's CPU time) and leave at most 16 MB pending, which a
    // search still reads quickly.
    await tx.query(`SET LOCAL work_mem = '64MB'`);
    await tx.query(`SET LOCAL gin_pending_list_limit = '16MB'`);
    // Waits for a purge or another import of the same audience; then the checks below see its result.
    await tx.query(`SELECT pg_advisory_xact_lock(${audienceLockArgs('$1')})`, [job.audienceId]);
    const { rows } = await tx.query<{ is_importing: boolean; deleted: boolean; source: string | null; name: string }>(
      'SELECT is_importing, deleted_at IS NOT NULL AS deleted, source, name FROM audiences WHERE id = $1',
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
    // Nothing written: ending the transaction either way is the same.
    if (skip) return { status: 'skipped', reason: skip };

    const writer = await copyContacts(tx, job.audienceId, () => openSpooled(options.spool, job.path), options.limits);
    if (!writer) throw new ImportFileError(EMPTY_FILE_ERROR);
    if (writer.count === 0) throw new ImportFileError(NO_CONTACTS_ERROR);

    await tx.query(
      `UPDATE audiences
          SET headers = $2::jsonb, source = $3, number_of_contacts = $4, number_of_contacts_with_errors = $5,
              is_importing = false, import_error_message = NULL, import_started_at = NULL, updated_at = now()
        WHERE id = $1`,
      [job.audienceId, JSON.stringify(writer.layout.headers), job.source, writer.count, writer.errorCount],
    );
    if (job.memberEmail) {
      await recordActivity(tx, {
        actor: { email: job.memberEmail },
        kind: 'import-finished',
        object: { type: 'audience', id: job.audienceId, name: audience!.name },
        details: { contacts: writer.count, contactsWithErrors: writer.errorCount },
      });
    }
    return {
      status: 'imported',
      contacts: writer.count,
      contactsWithErrors: writer.errorCount,
      headers: writer.layout.headers,
    };
  });
}

/** A copy whose hashes made a new address a duplicate is done again with others, at most this many times in all. */
const COPY_ATTEMPTS = 3;

/**
 * Copies the file's contacts within the transaction; resolves with the writer (counts, headers),
 * or undefined for a file without a header. The writer finds duplicates by hash (email-set.ts):
 * they are confirmed against the stored addresses and, in the very rare case that a hash collision
 * made a new address a duplicate, the copy is undone and done again with other hashes. Each copy's
 * hashes are seeded at random, so no file can be made to collide on purpose.
 */
async function copyContacts(
  tx: Tx,
  audienceId: number,
  open: () => Promise<Readable>,
  limits: ImportLimits,
): Promise<ContactRowWriter | undefined> {
  for (let attempt = 1; ; attempt++) {
    await tx.query('SAVEPOINT contacts_copy');
    const input = await open();
    const state: { writer?: ContactRowWriter } = {};
    const copy = tx.client.query(copyFrom(`COPY contacts ${CONTACT_COPY_COLUMNS} FROM STDIN`));
    await pipeline(Readable.from(copyText(input, audienceId, limits, state, randomInt(2 ** 31)), { highWaterMark: 4 }), copy);
    const writer = state.writer;
    if (!writer || writer.duplicateCount === 0 || (await duplicatesConfirmed(tx, audienceId))) return writer;
    if (attempt === COPY_ATTEMPTS) throw new Error(`duplicate addresses of audience ${audienceId} not confirmed after ${attempt} copies`);
    await tx.query('ROLLBACK TO SAVEPOINT contacts_copy');
  }
}

/** Duplicates compared at a time, and valid addresses read at a time, when PostgreSQL leaves some. */
const CONFIRM_BATCH = 10_000;

/**
 * Whether every contact marked as a duplicate has a valid contact before it with the same address,
 * lower-cased as the writer does. PostgreSQL confirms nearly all (unconfirmedDuplicates); the rest
 * are compared here, against the valid addresses before them, read in file order.
 */
async function duplicatesConfirmed(tx: Sql, audienceId: number): Promise<boolean> {
  for (let afterErrorSeq = 0; ;) {
    const duplicates = await unconfirmedDuplicates(tx, audienceId, afterErrorSeq, CONFIRM_BATCH);
    if (duplicates.length === 0) return true;
    /** Address -> the first of these duplicates of it: a valid contact before that one confirms them all. */
    const firstDuplicate = new Map<string, number>();
    for (const { seq, email } of duplicates) {
      const address = email.toLowerCase();
      if (!firstDuplicate.has(address)) firstDuplicate.set(address, seq);
    }
    const lastSeq = duplicates[duplicates.length - 1]!.seq;
    for (let validSeq = 0; firstDuplicate.size > 0 && validSeq < lastSeq;) {
      const valid = await validAddressesAfter(tx, audienceId, validSeq, CONFIRM_BATCH);
      if (valid.length === 0) break;
      for (const { seq, email } of valid) {
        const address = email.toLowerCase();
        if ((firstDuplicate.get(address) ?? 0) > seq) firstDuplicate.delete(address);
      }
      validSeq = valid[valid.length - 1]!.seq;
    }
    if (firstDuplicate.size > 0) return false;
    if (duplicates.length < CONFIRM_BATCH) return true;
    afterErrorSeq = duplicates[duplicates.length - 1]!.errorSeq!;
  }
}

async function openSpooled(spool: ImportSpool, name: string): Promise<Readable> {
  try {
    return await spool.get(name);
  } catch (error) {
    throw error instanceof SpoolObjectMissingError ? new ImportFileError(FILE_GONE_ERROR) : error;
  }
}

/** COPY text for the whole file, one string per parsed chunk; the first non-blank record is the header. */
async function* copyText(
  input: Readable,
  audienceId: number,
  limits: ImportLimits,
  state: { writer?: ContactRowWriter },
  seed: number,
): AsyncGenerator<string> {
  try {
    for await (const { records } of csvRecords(input, limits)) {
      let text = '';
      for (const record of records) {
        if (isBlankRecord(record)) continue;
        if (!state.writer) {
          state.writer = new ContactRowWriter(audienceId, headerLayout(record), seed);
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
