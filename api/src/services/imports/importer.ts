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
 * Throughput and memory: the file is read in 64 KB chunks, parsed (csv.ts) into contacts
 * (contact-rows.ts) and written, in segments of at most 5,000 contacts (1 M characters), into a
 * `COPY contacts FROM STDIN` left open: Node reads and parses the next segment while PostgreSQL
 * stores the ones before, so the two cores work in parallel. Duplicates are marked exactly, a segment at a
 * time (duplicates.ts), in a filter of fixed size and the contacts already copied: the worker's
 * memory is the same whatever the size of the file. A million rows take seconds, far inside
 * RabbitMQ's 30-minute ack timeout; the upload cap (IMPORT_MAX_BYTES) bounds the size of one
 * import, so one message is always one bounded chunk of work.
 */
import type { Readable } from 'node:stream';
import type { Tx } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { SpoolObjectMissingError, type ImportSpool } from '../../spool/index.js';
import { recordActivity } from '../activity/activity-service.js';
import { appendImport } from '../consent/repository.js';
import { DomainError } from '../errors.js';
import { ContactRows, plannedLayout, type ContactRow, type HeaderLayout } from './contact-rows.js';
import { csvRecords, EMPTY_FILE_ERROR, ImportFileError, isBlankRecord, type ImportLimits } from './csv.js';
import { DuplicateFinder } from './duplicates.js';
import { resolveImport, type AudienceFieldRule, type NewAudienceField } from './mapping.js';
import type { ContactImportMessage } from './queues.js';
import type { ContactCopy, ImportRepository } from './repository.js';

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
  /** Tests take small segments and a tiny filter, to meet their edges with small files. */
  tuning?: { segmentRows?: number; filterBits?: number };
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

    // Read under the audience's lock: the fields the API made for this import, and any the audience had.
    const fields = await repo.audienceFields(tx, message.audienceId);
    const newFields: NewAudienceField[] = [];
    const layoutOf = (record: string[]) => layoutFor(message, record, fields, newFields);
    const rows = await copyContacts(repo, tx, message.audienceId, await openUpload(options.spool, message.upload), layoutOf, options);
    if (!rows) throw new ImportFileError(EMPTY_FILE_ERROR);
    if (rows.count === 0) throw new ImportFileError(NO_CONTACTS_ERROR);

    await repo.createFields(tx, message.audienceId, newFields);
    const counted = { contacts: rows.count, contactsWithErrors: rows.errorCount };
    const { headers, lastContactId } = await repo.finishImport(tx, message.audienceId, { ...counted, source: message.source });
    const imported = { headers, ...counted };
    // One ledger entry for the whole import, in its transaction: no per-row work (docs/decisions/sign-up.md).
    await appendImport(tx, {
      audienceId: message.audienceId,
      memberEmail: message.memberEmail ?? null,
      lawfulBasis: message.lawfulBasis ?? null,
      contacts: imported.contacts,
      detail: { lastContactId },
    });
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

/**
 * Where the file's columns go, once its header is read: as the API planned (message.plan), or, for a message of
 * the release before, every other column to a TEXT field of its name (those not yet fields go into `newFields`).
 */
function layoutFor(
  message: ContactImportMessage,
  record: string[],
  fields: AudienceFieldRule[],
  newFields: NewAudienceField[],
): HeaderLayout {
  let plan = message.plan;
  const rules = new Map(fields.map((field) => [field.key, field]));
  if (!plan) {
    try {
      const resolved = resolveImport(undefined, record, fields);
      plan = resolved.plan;
      newFields.push(...resolved.newFields);
      for (const field of resolved.newFields) rules.set(field.key, field);
    } catch (error) {
      throw error instanceof DomainError ? new ImportFileError(error.message) : error;
    }
  }
  return plannedLayout(record, plan, rules);
}

/**
 * A segment of the file, checked for duplicates and written at once: at most this many contacts, or
 * about this many characters of them. A segment is held until its duplicates are known, so its size
 * is most of what an import adds to the worker's memory besides the filter: 5,000 contacts added
 * 10 MB at a million rows, 50,000 added 50 MB. Its contacts that the filter cannot rule out end the
 * COPY for their lookup, so a segment is also the most rows a lookup waits for.
 */
const SEGMENT_ROWS = 5_000;
const SEGMENT_CHARS = 1024 * 1024;

/**
 * Copies the file's contacts within the transaction; resolves with the rows (counts, headers), or undefined for a
 * file without a header. The rows stream into one open COPY as they are read, parsed, checked for duplicates
 * (duplicates.ts) and written as COPY text, a segment at a time, so that Node and PostgreSQL work at the same time
 * and PostgreSQL never waits for a statement to start. Only a segment with contacts the duplicate filter cannot
 * rule out ends the COPY: their lookup must see every row before them stored; the next segment opens another.
 */
async function copyContacts(
  repo: ImportRepository,
  tx: Tx,
  audienceId: number,
  input: Readable,
  layoutOf: (header: string[]) => HeaderLayout,
  { limits, tuning = {} }: Pick<ImporterOptions, 'limits' | 'tuning'>,
): Promise<ContactRows | undefined> {
  const state: { rows?: ContactRows } = {};
  const duplicates = new DuplicateFinder((emails) => repo.storedAddresses(tx, audienceId, emails), tuning.filterBits);
  let copy: ContactCopy | undefined;
  try {
    for await (const segment of segmentsOf(input, audienceId, layoutOf, limits, state, tuning.segmentRows ?? SEGMENT_ROWS)) {
      const unsure = duplicates.markWithin(segment);
      if (unsure.length > 0) {
        const stored = copy;
        copy = undefined;
        await stored?.end();
        await duplicates.markStored(unsure);
      }
      copy ??= repo.openContactCopy(tx);
      await copy.write(state.rows!.copyText(segment));
    }
    await copy?.end();
  } catch (error) {
    // A file found bad, or a failed COPY: the transaction rolls back once the COPY has ended.
    await copy?.abort();
    throw error;
  }
  return state.rows;
}

async function openUpload(spool: ImportSpool, name: string): Promise<Readable> {
  try {
    return await spool.get(name);
  } catch (error) {
    throw error instanceof SpoolObjectMissingError ? new ImportFileError(FILE_GONE_ERROR) : error;
  }
}

/** The file's contacts, read, in segments; the first non-blank record is the header (`state.rows`). */
async function* segmentsOf(
  input: Readable,
  audienceId: number,
  layoutOf: (header: string[]) => HeaderLayout,
  limits: ImportLimits,
  state: { rows?: ContactRows },
  segmentRows: number,
): AsyncGenerator<ContactRow[]> {
  let segment: ContactRow[] = [];
  let chars = 0;
  try {
    for await (const { records } of csvRecords(input, limits)) {
      for (const record of records) {
        if (isBlankRecord(record)) continue;
        if (!state.rows) {
          state.rows = new ContactRows(audienceId, layoutOf(record));
          continue;
        }
        const contact = state.rows.read(record);
        segment.push(contact);
        chars += contact.email.length + contact.data.length;
        if (segment.length >= segmentRows || chars >= SEGMENT_CHARS) {
          yield segment;
          segment = [];
          chars = 0;
        }
      }
    }
    if (segment.length > 0) yield segment;
  } finally {
    input.destroy();
  }
}
