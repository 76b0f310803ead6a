/**
 * Audiences: the rules behind the audience and contact calls (docs/product.md) and the
 * background work they queue. No HTTP, AMQP or SQL here: errors are DomainErrors (the HTTP layer
 * maps their kinds to statuses), work goes through the typed queues, data through the repositories.
 *
 * Import, the API half: the upload is streamed into the spool (a folder or an S3 bucket, shared with
 * the workers) as it arrives, with the size cap, and its start is checked on the way (UTF-8, limits,
 * a header row with an email column): a file that fails stops being stored at once. Then the cheap
 * checks (type, file name, not empty), the audience is claimed (isImporting) with a conditional
 * update, and the job is published with the broker's confirm before the 202; a refused upload is
 * removed from the spool. The worker half is services/imports/importer.ts.
 *
 * Delete: the audience is hidden at once (deleted_at), then a consumer purges its contacts in
 * batches and removes the row.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ImportSettings } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { Queues } from '../../queue/registry.js';
import type { ImportSpool } from '../../spool/index.js';
import { headerLayout } from '../imports/contact-rows.js';
import { ImportFileError, readHeaderRecord } from '../imports/csv.js';
import { exportContactsCsv } from '../contacts/export.js';
import { INTERRUPTED_ERROR, type ImportSource } from '../imports/importer.js';
import { createSearchCache } from '../search-index.js';
import { deleteContactBatch, findContactPage, type ContactItem, type ContactPageQuery } from '../contacts/repository.js';
import { recordActivity, type ActivityService, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { toPage, type Page, type PageQuery } from '../paging.js';
import { suppressionRepository, type SuppressedContacts } from '../suppressions/repository.js';
import { audienceRepository, type Audience } from './repository.js';

export type { Audience };

export const NAME_REQUIRED = 'Fill your audience name';
export const AUDIENCE_NOT_FOUND = 'Audience not found';
export const NO_CSV_FILE = 'No CSV file found';
export const ONLY_CSV = 'Only CSV file allowed';
export const EMPTY_CONTENT = 'Empty content';
export const INPUT_ERROR = 'Input error';
export const ALREADY_HAS_SOURCE = 'This audience already has contacts; create a new audience to import more.';
export const IMPORT_RUNNING = 'An import is already running for this audience.';
export const IMPORT_QUEUED = 'Contacts are being imported in the background.';
export const DELETE_QUEUED = 'The audience was deleted; its contacts are removed in the background.';

/** Contacts removed per statement by the purge: each batch is a short transaction. */
const PURGE_BATCH = 10_000;
/** The header check reads at most this much of an upload. */
const HEADER_PEEK_BYTES = 256 * 1024;
const HEADER_CHUNK_BYTES = 64 * 1024;

/**
 * A multipart file as receiveUpload left it: stored in the spool under `name`, or refused by the
 * header check (`problem`; nothing stored).
 */
export interface SpooledUpload {
  name: string | undefined;
  size: number;
  problem: string | undefined;
}

/** What the import call received: a spooled multipart file, or the pasted text as a plain field. */
export type ImportUpload = ({ kind: 'file'; originalName: string } & SpooledUpload) | { kind: 'text'; text: string } | undefined;

export interface AudienceServiceDeps {
  db: Database;
  /** The activity log, for what is recorded outside a change of its own (downloads). */
  activityLog: Pick<ActivityService, 'record'>;
  queue: Queues;
  spool: ImportSpool;
  importSettings: ImportSettings;
  logger: Logger;
}

export function createAudienceService({ db, activityLog, queue, spool, importSettings, logger }: AudienceServiceDeps) {
  const repo = audienceRepository(db);
  /** The indexes of recent contact searches (search-index.ts), for their next pages. */
  const searches = createSearchCache();
  const suppressions = suppressionRepository(db);

  const live = async (id: number): Promise<Audience> => {
    const audience = await repo.find(id);
    if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
    return audience;
  };

  const validName = (name: unknown): string => {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed) throw new DomainError('invalid', NAME_REQUIRED);
    return trimmed;
  };

  return {
    async list(query: PageQuery & { name?: string | undefined }): Promise<Page<Audience>> {
      const { items, totalItems } = await repo.list({ ...query, name: query.name?.trim() || undefined });
      return toPage(items, totalItems, query);
    },

    get: live,

    async create(name: unknown, actor: Actor): Promise<{ id: number }> {
      const valid = validName(name);
      return db.transaction(async (tx) => {
        const id = await repo.insert(tx, valid, actor.email);
        await recordActivity(tx, { actor, kind: 'create', object: { type: 'audience', id, name: valid } });
        return { id };
      });
    },

    async rename(id: number, name: unknown, actor: Actor): Promise<Audience> {
      const valid = validName(name);
      return db.transaction(async (tx) => {
        const renamed = await repo.rename(tx, id, valid);
        if (!renamed) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
        await recordActivity(tx, {
          actor,
          kind: 'rename',
          object: { type: 'audience', id, name: valid },
          details: { from: renamed.formerName },
        });
        return renamed.audience;
      });
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const name = await repo.markDeleted(tx, id);
        if (name === undefined) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
        await recordActivity(tx, { actor, kind: 'delete', object: { type: 'audience', id, name } });
      });
      // Already hidden: if the message cannot be queued now, the worker's sweep purges it later.
      await queue.publish('audience-delete', { audienceId: id }).catch((err: unknown) => {
        logger.error({ err, audienceId: id }, 'could not queue the purge of a deleted audience; the sweep will');
      });
    },

    /** How many of the valid contacts are suppressed: every send skips them (see suppressions/repository.ts). */
    async suppressedContacts(id: number): Promise<SuppressedContacts> {
      const audience = await live(id);
      const validContacts = Math.max(0, audience.numberOfContacts - audience.numberOfContactsWithErrors);
      if (validContacts === 0) return { suppressedContacts: 0, unsubscribed: 0, hardBounced: 0, complained: 0 };
      return suppressions.countSuppressedContacts({ audienceId: id, validContacts });
    },

    async contacts(id: number, query: ContactPageQuery): Promise<Page<ContactItem>> {
      const audience = await live(id);
      const { items, totalItems } = await findContactPage(db, audience, query, searches);
      return toPage(items, totalItems, query);
    },

    /**
     * The contacts as CSV. The download is recorded before the rows are read: one cut short by a lost
     * database has still taken rows out (and the record cannot be lost to the same cut).
     */
    async exportCsv(id: number, actor: Actor) {
      const audience = await live(id);
      await activityLog.record({
        actor,
        kind: 'export',
        object: { type: 'audience', id, name: audience.name },
        details: { what: 'contacts' },
      });
      const stream = await exportContactsCsv(db, audience);
      return { audience, stream };
    },

    /**
     * Streams an uploaded file into the spool as it arrives (at most IMPORT_MAX_BYTES: a larger one
     * rejects with SpoolTooLargeError and leaves nothing), checking its start on the way: a file whose
     * start fails the header check is not stored (the rest of it is read and dropped), and the
     * problem is handed to acceptImport. `audienceId` only names the object.
     */
    async receiveUpload(audienceId: number, body: Readable): Promise<SpooledUpload> {
      const name = spoolName(audienceId);
      const tap = new HeadTap(HEADER_PEEK_BYTES);
      let problem: string | undefined;
      // The spool's write reads the tap's errors while it runs; one that comes after (a form cut short
      // once the file was stored, a refused header) must not become the process's uncaught exception.
      tap.on('error', () => undefined);
      body.on('error', (error) => tap.destroy(error));
      body.pipe(tap);
      const checked = tap.head.then(async (head) => {
        try {
          problem = await headerProblem(head, importSettings);
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
        [{ size }] = await Promise.all([spool.put(name, tap, { maxBytes: importSettings.maxBytes }), checked]);
      } catch (error) {
        if (problem === undefined) throw error;
      }
      if (problem === undefined) return { name, size, problem };
      // Refused by its start (which may have come after the whole of a small file was stored).
      await spool.delete(name).catch(() => undefined);
      return { name: undefined, size: tap.bytes, problem };
    },

    /** Checks, spools (pasted text) and queues an import; resolves with the 202 message. A refused file is removed from the spool. */
    async acceptImport(id: number, type: string | undefined, upload: ImportUpload, actor: Actor): Promise<string> {
      let spooled = upload?.kind === 'file' ? upload.name : undefined;
      try {
        const source: ImportSource | undefined = type === 'csv' ? 'CSV' : type === 'text' ? 'TEXT' : undefined;
        if (!source) throw new DomainError('invalid', INPUT_ERROR);
        const audience = await live(id);
        if (audience.source !== null) throw new DomainError('conflict', ALREADY_HAS_SOURCE);
        if (audience.isImporting) throw new DomainError('conflict', IMPORT_RUNNING);

        if (source === 'CSV') {
          if (upload?.kind !== 'file') throw new DomainError('invalid', NO_CSV_FILE);
          if (!upload.originalName.toLowerCase().endsWith('.csv')) throw new DomainError('invalid', ONLY_CSV);
          if (upload.size === 0) throw new DomainError('invalid', EMPTY_CONTENT);
        } else if (!upload || (upload.kind === 'text' ? upload.text.trim() === '' : upload.size === 0)) {
          throw new DomainError('invalid', EMPTY_CONTENT);
        }

        if (upload.kind === 'text') {
          const problem = await headerProblem(Buffer.from(upload.text.slice(0, HEADER_PEEK_BYTES), 'utf8'), importSettings);
          if (problem !== undefined) throw new DomainError('invalid', problem);
          spooled = spoolName(id);
          await spool.put(spooled, Readable.from([upload.text]), { maxBytes: importSettings.maxBytes });
        } else if (upload.problem !== undefined || !spooled) {
          throw new DomainError('invalid', upload.problem ?? EMPTY_CONTENT);
        }

        const path = spooled;
        // The claim, its record and the message go together: a message the broker refuses rolls the
        // claim and the record back; an importer that gets the message first waits for the commit.
        await db.transaction(async (tx) => {
          if (!(await repo.claimImport(tx, id))) {
            const now = await repo.find(id);
            throw now
              ? new DomainError('conflict', now.isImporting ? IMPORT_RUNNING : ALREADY_HAS_SOURCE)
              : new DomainError('not-found', AUDIENCE_NOT_FOUND);
          }
          await recordActivity(tx, { actor, kind: 'import', object: { type: 'audience', id, name: audience.name }, details: { source } });
          await queue.publish('contact-import', { audienceId: id, path, source, memberEmail: actor.email });
        });
      } catch (error) {
        if (spooled) await spool.delete(spooled).catch(() => {});
        throw error;
      }
      return IMPORT_QUEUED;
    },

    /**
     * The 'audience-delete' consumer: contacts in batches, then the row. Idempotent. Each batch is
     * one short transaction holding the audience's lock, so an import of this audience waits for
     * it, then sees the audience deleted.
     */
    async purge(id: number): Promise<{ contactsDeleted: number }> {
      let contactsDeleted = 0;
      for (;;) {
        const deleted = await db.transaction(async (tx) => {
          if (!(await repo.lockDeleted(tx, id))) return undefined;
          const count = await deleteContactBatch(tx, id, PURGE_BATCH);
          // Campaigns that used it keep their history: their audience_id becomes NULL (ON DELETE SET NULL).
          if (count < PURGE_BATCH) await repo.destroyDeleted(tx, id);
          return count;
        });
        if (deleted === undefined) break;
        contactsDeleted += deleted;
        if (deleted < PURGE_BATCH) break;
      }
      return { contactsDeleted };
    },

    /**
     * Housekeeping run by the worker at start and then periodically: imports stuck past the stale
     * timeout with no worker on them are failed, purges that never ran are queued again, and spooled
     * uploads older than the timeout (their import is over one way or another) are removed.
     */
    async sweep(): Promise<{ failedImports: number[]; requeuedPurges: number[] }> {
      const failedImports = await repo.failStaleImports(importSettings.staleAfterMs, INTERRUPTED_ERROR);
      if (failedImports.length > 0) logger.warn({ audienceIds: failedImports }, 'failed imports that were interrupted');
      const requeuedPurges = await repo.findUnpurged(importSettings.staleAfterMs);
      for (const audienceId of requeuedPurges) {
        await queue.publish('audience-delete', { audienceId });
      }
      const removed = await spool.removeOlderThan(importSettings.staleAfterMs);
      if (removed > 0) logger.info({ removed }, 'removed spooled uploads whose import is over');
      return { failedImports, requeuedPurges };
    },
  };
}

export type AudienceService = ReturnType<typeof createAudienceService>;

/** The spool name of an upload: ours, so the member's file name never reaches the file system or the bucket. */
function spoolName(audienceId: number): string {
  return `${audienceId}-${randomUUID()}.csv`;
}

/** The header check of an upload's start: the message of what is wrong with it (encoding, limits, no email column), if anything. */
async function headerProblem(head: Buffer, settings: ImportSettings): Promise<string | undefined> {
  try {
    // Read as a file is, a chunk at a time: the header record ends the read, so a problem further on
    // is the worker's to find (the importer reads 64 KB chunks too).
    const chunks = Array.from({ length: Math.ceil(head.length / HEADER_CHUNK_BYTES) }, (_, i) =>
      head.subarray(i * HEADER_CHUNK_BYTES, (i + 1) * HEADER_CHUNK_BYTES),
    );
    const header = await readHeaderRecord(Readable.from(chunks), settings);
    if (!header) return EMPTY_CONTENT;
    headerLayout(header);
    return undefined;
  } catch (error) {
    if (error instanceof ImportFileError) return error.message;
    throw error;
  }
}

/** Why receiveUpload stopped storing an upload. */
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
