/**
 * Audiences: the rules behind the audience and contact calls (SPEC.md sections 5 and 7) and the
 * background work they queue. No HTTP, AMQP or SQL here: errors are DomainErrors (the HTTP layer
 * maps their kinds to statuses), work goes through the typed queues, data through the repositories.
 *
 * Import, the API half: cheap checks first (type, file name, not empty, the header row has an
 * email column: only the start of the file is read), then the upload is moved into the spool
 * folder shared with the worker, the audience is claimed (isImporting) with a conditional update,
 * and the job is published with the broker's confirm before the 202. The worker half is
 * services/contacts/importer.ts.
 *
 * Delete: the audience is hidden at once (deleted_at), then a consumer purges its contacts in
 * batches and removes the row.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportSettings } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { Queues } from '../../queue/registry.js';
import { headerLayout } from '../contacts/contact-rows.js';
import { ImportFileError, readHeaderRecord } from '../contacts/csv.js';
import { exportContactsCsv } from '../contacts/export.js';
import { INTERRUPTED_ERROR, type ImportSource } from '../contacts/importer.js';
import { createSearchCache } from '../search-index.js';
import { deleteContactBatch, findContactPage, type ContactItem, type ContactPageQuery } from '../contacts/repository.js';
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

/** What the import call received: a spooled multipart file, or the pasted text as a plain field. */
export type ImportUpload = { kind: 'file'; path: string; originalName: string; size: number } | { kind: 'text'; text: string } | undefined;

export interface AudienceServiceDeps {
  db: Database;
  queue: Queues;
  importSettings: ImportSettings;
  logger: Logger;
}

export function createAudienceService({ db, queue, importSettings, logger }: AudienceServiceDeps) {
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

    async create(name: unknown, createdByEmail: string | null): Promise<{ id: number }> {
      return { id: await repo.insert(validName(name), createdByEmail) };
    },

    async rename(id: number, name: unknown): Promise<Audience> {
      const audience = await repo.rename(id, validName(name));
      if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
      return audience;
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.markDeleted(id))) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
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

    async exportCsv(id: number) {
      const audience = await live(id);
      return { audience, stream: await exportContactsCsv(db, audience) };
    },

    /** Checks, spools and queues an import; resolves with the 202 message. */
    async acceptImport(id: number, type: string | undefined, upload: ImportUpload): Promise<string> {
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

      // The spool name is ours: the member's file name never reaches the file system.
      await mkdir(importSettings.dir, { recursive: true });
      const name = `${id}-${randomUUID()}.csv`;
      const spooled = join(importSettings.dir, name);
      if (upload.kind === 'text') await writeFile(spooled, upload.text, 'utf8');
      else await moveFile(upload.path, spooled);

      try {
        await checkHeader(spooled, importSettings);
        if (!(await repo.claimImport(id))) {
          const now = await repo.find(id);
          throw now
            ? new DomainError('conflict', now.isImporting ? IMPORT_RUNNING : ALREADY_HAS_SOURCE)
            : new DomainError('not-found', AUDIENCE_NOT_FOUND);
        }
        try {
          await queue.publish('contact-import', { audienceId: id, path: name, source });
        } catch (error) {
          await repo.releaseImportClaim(id);
          throw error;
        }
      } catch (error) {
        await unlink(spooled).catch(() => {});
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
     * timeout with no worker on them are failed, purges that never ran are queued again, and spool
     * files older than the timeout (their import is over one way or another) are removed.
     */
    async sweep(): Promise<{ failedImports: number[]; requeuedPurges: number[] }> {
      const failedImports = await repo.failStaleImports(importSettings.staleAfterMs, INTERRUPTED_ERROR);
      if (failedImports.length > 0) logger.warn({ audienceIds: failedImports }, 'failed imports that were interrupted');
      const requeuedPurges = await repo.findUnpurged(importSettings.staleAfterMs);
      for (const audienceId of requeuedPurges) {
        await queue.publish('audience-delete', { audienceId });
      }
      await removeOldSpoolFiles(importSettings.dir, importSettings.staleAfterMs);
      return { failedImports, requeuedPurges };
    },
  };
}

export type AudienceService = ReturnType<typeof createAudienceService>;

/** The header check of an upload: ImportFileError (encoding, limits, no email column) -> invalid. */
async function checkHeader(file: string, settings: ImportSettings): Promise<void> {
  try {
    const header = await readHeaderRecord(createReadStream(file, { start: 0, end: HEADER_PEEK_BYTES - 1 }), settings);
    if (!header) throw new DomainError('invalid', EMPTY_CONTENT);
    headerLayout(header);
  } catch (error) {
    if (error instanceof ImportFileError) throw new DomainError('invalid', error.message);
    throw error;
  }
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    // The upload folder may be on another file system than the spool folder.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await unlink(from).catch(() => {});
  }
}

async function removeOldSpoolFiles(dir: string, olderThanMs: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - olderThanMs;
  for (const name of names) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile() && info.mtimeMs < cutoff) await unlink(file).catch(() => {});
  }
}
