/**
 * Importing contacts into an audience (docs/product.md, Import wizard). No HTTP, AMQP or SQL here:
 * errors are DomainErrors, the message goes through the typed queue, data through the repository.
 *
 * The API's half: the upload is streamed into the spool as it arrives, its start checked on the way
 * (upload.ts); then the cheap checks (type, file name, not empty), the audience is claimed
 * (isImporting) with a conditional update, and the message is published with the broker's confirm
 * before the 202. A refused upload is removed from the spool.
 *
 * The worker's half: `run`, for each 'contact-import' message (importer.ts), and the sweep of what
 * a lost message or a dead worker left behind.
 */
import { Readable } from 'node:stream';
import type { ImportSettings } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { ImportSpool } from '../../spool/index.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { AUDIENCE_NOT_FOUND } from '../audiences/audience-service.js';
import { audienceRepository } from '../audiences/repository.js';
import { LAWFUL_BASES, type LawfulBasis } from '../consent/repository.js';
import { DomainError } from '../errors.js';
import { importContacts, INTERRUPTED_ERROR, type ImportOutcome } from './importer.js';
import { publishedMessage, type ContactImportMessage, type importQueues, type ImportSource } from './queues.js';
import { importRepository } from './repository.js';
import { parseMapping, resolveImport, type AudienceFieldRule, type RememberedMapping } from './mapping.js';
import { EMPTY_CONTENT, HEADER_PEEK_BYTES, readUploadHeader, storeUpload, uploadName, type Upload } from './upload.js';

export { EMPTY_CONTENT, type Upload };

export const NO_CSV_FILE = 'No CSV file found';
export const ONLY_CSV = 'Only CSV file allowed';
export const INPUT_ERROR = 'Input error';
export const ALREADY_HAS_SOURCE = 'This audience already has contacts; create a new audience to import more.';
export const IMPORT_RUNNING = 'An import is already running for this audience.';
export const IMPORT_QUEUED = 'Contacts are being imported in the background.';
export const UNKNOWN_LAWFUL_BASIS = `The lawful basis must be one of ${LAWFUL_BASES.join(', ')}.`;

/** The wizard's lawful basis, when given: one of LAWFUL_BASES (the contract checks it first; a direct call is checked here). */
function checkedLawfulBasis(basis: string | undefined): LawfulBasis | undefined {
  if (basis === undefined) return undefined;
  if (!(LAWFUL_BASES as readonly string[]).includes(basis)) throw new DomainError('invalid', UNKNOWN_LAWFUL_BASIS);
  return basis as LawfulBasis;
}

/** What an import call brought: a file (its upload, and the member's name for the file), or pasted text as a plain field. */
export type ImportInput = { kind: 'file'; fileName: string; upload: Upload } | { kind: 'text'; text: string } | undefined;

/** What the wizard needs to map a file: the audience's fields, and what its last accepted import did with each column. */
export interface ImportMappingView {
  fields: Pick<AudienceFieldRule, 'key' | 'label' | 'type' | 'options' | 'required'>[];
  remembered: RememberedMapping | null;
}

export interface ImportServiceDeps {
  db: Database;
  queue: MessageQueue<typeof importQueues>;
  spool: ImportSpool;
  importSettings: ImportSettings;
  logger: Logger;
}

export function createImportService({ db, queue, spool, importSettings, logger }: ImportServiceDeps) {
  const repo = importRepository(db);
  const audiences = audienceRepository(db);

  return {
    /**
     * Streams an uploaded file into the spool (upload.ts): at most IMPORT_MAX_BYTES (a larger one
     * rejects with SpoolTooLargeError and leaves nothing), not stored when its start fails the header
     * check (the problem is then handed to `accept`).
     */
    receiveUpload(audienceId: number, body: Readable, emailColumn?: string): Promise<Upload> {
      return storeUpload(spool, importSettings, audienceId, body, emailColumn);
    },

    /** The audience's fields and its remembered mapping, for the import wizard's mapping step. */
    async mapping(audienceId: number): Promise<ImportMappingView> {
      const remembered = await repo.rememberedMapping(audienceId);
      if (remembered === undefined) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
      const fields = await repo.audienceFields(db, audienceId);
      return { fields: fields.map(({ key, label, type, options, required }) => ({ key, label, type, options, required })), remembered };
    },

    /**
     * Checks, spools (pasted text) and queues an import; resolves with the 202 message. A refused upload is removed
     * from the spool. `mappingText`: the upload's `mapping` field (mapping.ts), checked strictly; without it every
     * other column goes to a TEXT field of its name. `lawfulBasis`: the wizard's choice (issue 25), recorded in the
     * consent ledger when the import finishes; absent, not stated.
     */
    async accept(
      audienceId: number,
      type: string | undefined,
      input: ImportInput,
      actor: Actor,
      mappingText?: string,
      lawfulBasisText?: string,
    ): Promise<string> {
      let upload = input?.kind === 'file' ? input.upload.name : undefined;
      try {
        const lawfulBasis = checkedLawfulBasis(lawfulBasisText);
        const source: ImportSource | undefined = type === 'csv' ? 'CSV' : type === 'text' ? 'TEXT' : undefined;
        if (!source) throw new DomainError('invalid', INPUT_ERROR);
        const mapping = parseMapping(mappingText, importSettings.maxColumns);
        const audience = await audiences.find(audienceId);
        if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
        // An import numbers its contacts from 1: an audience given contacts by hand takes none (docs/decisions).
        if (audience.source !== null || audience.numberOfContacts > 0) throw new DomainError('conflict', ALREADY_HAS_SOURCE);
        if (audience.isImporting) throw new DomainError('conflict', IMPORT_RUNNING);

        if (source === 'CSV') {
          if (input?.kind !== 'file') throw new DomainError('invalid', NO_CSV_FILE);
          if (!input.fileName.toLowerCase().endsWith('.csv')) throw new DomainError('invalid', ONLY_CSV);
          if (input.upload.size === 0) throw new DomainError('invalid', EMPTY_CONTENT);
        } else if (!input || (input.kind === 'text' ? input.text.trim() === '' : input.upload.size === 0)) {
          throw new DomainError('invalid', EMPTY_CONTENT);
        }

        let header = input.kind === 'file' ? input.upload.header : undefined;
        if (input.kind === 'text') {
          const head = Buffer.from(input.text.slice(0, HEADER_PEEK_BYTES), 'utf8');
          const read = await readUploadHeader(head, importSettings, mapping?.emailColumn);
          if (read.problem !== undefined) throw new DomainError('invalid', read.problem);
          header = read.header;
          upload = uploadName(audienceId);
          await spool.put(upload, Readable.from([input.text]), { maxBytes: importSettings.maxBytes });
        } else if (input.upload.problem !== undefined || !upload) {
          throw new DomainError('invalid', input.upload.problem ?? EMPTY_CONTENT);
        }
        if (!header) throw new DomainError('invalid', EMPTY_CONTENT);
        const fileHeader = header;

        const message: ContactImportMessage = {
          audienceId,
          upload,
          source,
          memberEmail: actor.email,
          ...(lawfulBasis ? { lawfulBasis } : {}),
        };
        // The claim, its record and the message go together: a message the broker refuses rolls the
        // claim and the record back; an importer that gets the message first waits for the commit.
        await db.transaction(async (tx) => {
          if (!(await repo.claim(tx, audienceId))) {
            const now = await audiences.find(audienceId);
            throw now
              ? new DomainError('conflict', now.isImporting ? IMPORT_RUNNING : ALREADY_HAS_SOURCE)
              : new DomainError('not-found', AUDIENCE_NOT_FOUND);
          }
          // Checked against the fields as they are under the audience's lock; a refusal rolls the claim back.
          const resolved = resolveImport(mapping, fileHeader, await repo.audienceFields(tx, audienceId));
          await repo.applyMapping(tx, audienceId, resolved.newFields, resolved.remembered);
          message.plan = resolved.plan;
          await recordActivity(tx, {
            actor,
            kind: 'import',
            object: { type: 'audience', id: audienceId, name: audience.name },
            details: { source },
          });
          await queue.publish('contact-import', publishedMessage(message));
        });
      } catch (error) {
        if (upload) await spool.delete(upload).catch(() => {});
        throw error;
      }
      return IMPORT_QUEUED;
    },

    /**
     * The 'contact-import' consumer's work: imports the message's upload (importer.ts), then settles
     * the search index for the new contacts. Rejects only on an error a later attempt may not meet;
     * `finalAttempt`: none will come, so the import is failed instead.
     */
    async run(message: ContactImportMessage, { finalAttempt = false }: { finalAttempt?: boolean } = {}): Promise<ImportOutcome> {
      const outcome = await importContacts(repo, message, { spool, limits: importSettings, logger, finalAttempt });
      if (outcome.status === 'imported') {
        await repo.settleAfterImport().catch((err: unknown) => logger.warn({ err }, 'could not settle the search index'));
      }
      return outcome;
    },

    /**
     * Housekeeping run by the worker at start and then periodically: imports stuck past the stale
     * timeout with no worker on them are failed, and uploads older than the timeout (their import is
     * over one way or another) are removed.
     */
    async sweep(): Promise<{ failedImports: number[] }> {
      const failedImports = await repo.failStaleImports(importSettings.staleAfterMs, INTERRUPTED_ERROR);
      if (failedImports.length > 0) logger.warn({ audienceIds: failedImports }, 'failed imports that were interrupted');
      const removed = await spool.removeOlderThan(importSettings.staleAfterMs);
      if (removed > 0) logger.info({ removed }, 'removed uploads whose import is over');
      return { failedImports };
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
