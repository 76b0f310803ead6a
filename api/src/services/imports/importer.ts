/**
 * The contact import, the worker's half: imports one upload the API has put in the spool (import-service.ts
 * runs it for each 'contact-import' message).
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
import type { Sql, Tx } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { SpoolObjectMissingError, type ImportSpool } from '../../spool/index.js';
import { recordActivity } from '../activity/activity-service.js';
import { unconfirmedDuplicates, validAddressesAfter } from '../contacts/repository.js';
import { ContactRowWriter, headerLayout } from './contact-rows.js';
import { csvRecords, EMPTY_FILE_ERROR, ImportFileError, isBlankRecord, type ImportLimits } from './csv.js';
import type { ContactImportMessage } from './queues.js';
import type { ImportRepository } from './repository.js';

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
 * Imports one upload. Resolves with the outcome; rejects only on an infrastructure error
 * (database, disk, S3) that a later attempt may not meet, leaving the audience importing and the
 * upload in the spool. `finalAttempt`: no later attempt will come, so such an error fails the import
 * instead.
 */
export async function importContacts(
  repo: ImportRepository,
  message: ContactImportMessage,
  options: ImporterOptions & { finalAttempt?: boolean },
): Promise<ImportOutcome> {
  let outcome: ImportOutcome;
  try {
    outcome = await importInTransaction(repo, message, options);
  } catch (error) {
    if (error instanceof ImportFileError) {
      outcome = { status: 'failed', message: error.message };
    } else if (options.finalAttempt) {
      options.logger?.error({ err: error, audienceId: message.audienceId }, 'contact import failed on its last attempt');
      outcome = { status: 'failed', message: IMPORT_FAILED_ERROR };
    } else {
      throw error;
    }
  }
  if (outcome.status === 'failed') await recordFailure(repo, message, outcome.message);
  // Done with the upload whatever happened (a thrown error above keeps it for the next attempt).
  // Left behind if this fails: the worker's sweep removes it later.
  await options.spool.delete(message.upload).catch((err: unknown) => {
    options.logger?.warn({ err, audienceId: message.audienceId, upload: message.upload }, 'could not remove an upload; the sweep will');
  });
  return outcome;
}

/** The failure and its entry in the activity log commit together (a message queued before the log has no member: one statement). */
async function recordFailure(repo: ImportRepository, { audienceId, memberEmail }: ContactImportMessage, message: string): Promise<void> {
  if (!memberEmail) {
    await repo.failImport(audienceId, message);
    return;
  }
  await repo.transaction(async (tx) => {
    const name = await repo.failImport(audienceId, message, tx);
    if (name === undefined) return;
    await recordActivity(tx, {
      actor: { email: memberEmail },
      kind: 'import-failed',
      object: { type: 'audience', id: audienceId, name },
      details: { message },
    });
  });
}

async function importInTransaction(
  repo: ImportRepository,
  message: ContactImportMessage,
  options: ImporterOptions,
): Promise<ImportOutcome> {
  return repo.transaction(async (tx) => {
    const audience = await repo.startImport(tx, message.audienceId);
    // Nothing written: ending the transaction either way is the same.
    if ('skip' in audience) return { status: 'skipped', reason: audience.skip };

    const writer = await copyContacts(repo, tx, message.audienceId, () => openUpload(options.spool, message.upload), options.limits);
    if (!writer) throw new ImportFileError(EMPTY_FILE_ERROR);
    if (writer.count === 0) throw new ImportFileError(NO_CONTACTS_ERROR);

    const imported = { headers: writer.layout.headers, contacts: writer.count, contactsWithErrors: writer.errorCount };
    await repo.finishImport(tx, message.audienceId, { ...imported, source: message.source });
    if (message.memberEmail) {
      await recordActivity(tx, {
        actor: { email: message.memberEmail },
        kind: 'import-finished',
        object: { type: 'audience', id: message.audienceId, name: audience.name },
        details: { contacts: imported.contacts, contactsWithErrors: imported.contactsWithErrors },
      });
    }
    return { status: 'imported', ...imported };
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
  repo: ImportRepository,
  tx: Tx,
  audienceId: number,
  open: () => Promise<Readable>,
  limits: ImportLimits,
): Promise<ContactRowWriter | undefined> {
  for (let attempt = 1; ; attempt++) {
    await tx.query('SAVEPOINT contacts_copy');
    const input = await open();
    const state: { writer?: ContactRowWriter } = {};
    await repo.copyContacts(tx, Readable.from(copyRows(input, audienceId, limits, state, randomInt(2 ** 31)), { highWaterMark: 4 }));
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

async function openUpload(spool: ImportSpool, name: string): Promise<Readable> {
  try {
    return await spool.get(name);
  } catch (error) {
    throw error instanceof SpoolObjectMissingError ? new ImportFileError(FILE_GONE_ERROR) : error;
  }
}

/** COPY text for the whole file, one string per parsed chunk; the first non-blank record is the header. */
async function* copyRows(
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
