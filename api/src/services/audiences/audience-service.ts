/**
 * Audiences: the rules behind the audience and contact calls (docs/product.md) and the
 * background work they queue. No HTTP, AMQP or SQL here: errors are DomainErrors (the HTTP layer
 * maps their kinds to statuses), work goes through the typed queues, data through the repositories.
 *
 * Importing contacts into an audience is services/imports/.
 *
 * Delete: the audience is hidden at once (deleted_at), then a consumer purges its contacts in
 * batches and removes the row.
 */
import type { Readable } from 'node:stream';
import type { ImportSettings } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { audienceQueues } from './queues.js';
import { exportConsentCsv, exportContactsCsv } from '../contacts/export.js';
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
export const PUBLIC_NAME_MAX = 100;
export const PUBLIC_NAME_TOO_LONG = `A public name is at most ${PUBLIC_NAME_MAX} characters.`;
export const DELETE_QUEUED = 'The audience was deleted; its contacts are removed in the background.';

/** Contacts removed per statement by the purge: each batch is a short transaction. */
const PURGE_BATCH = 10_000;

export interface AudienceServiceDeps {
  db: Database;
  /** The activity log, for what is recorded outside a change of its own (downloads). */
  activityLog: Pick<ActivityService, 'record'>;
  queue: MessageQueue<typeof audienceQueues>;
  /** Its stale timeout: a deleted audience whose row is still there after it has lost its purge. */
  importSettings: Pick<ImportSettings, 'staleAfterMs'>;
  logger: Logger;
}

export function createAudienceService({ db, activityLog, queue, importSettings, logger }: AudienceServiceDeps) {
  const repo = audienceRepository(db);
  /** The indexes of recent contact searches (search-index.ts), for their next pages. */
  const searches = createSearchCache();
  const suppressions = suppressionRepository(db);

  const live = async (id: number): Promise<Audience> => {
    const audience = await repo.find(id);
    if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
    return audience;
  };

  /**
   * An export of the audience, its download recorded in the activity log before the rows are read: one cut short by a
   * lost database has still taken rows out (and the record cannot be lost to the same cut).
   */
  const recordedExport = async (
    id: number,
    actor: Actor,
    what: 'contacts' | 'consent',
    open: (audience: Audience) => Promise<Readable>,
  ) => {
    const audience = await live(id);
    await activityLog.record({ actor, kind: 'export', object: { type: 'audience', id, name: audience.name }, details: { what } });
    return { audience, stream: await open(audience) };
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

    /**
     * The name a person sees for the audience in the preference centre: trimmed; blank or null clears it (the
     * audience then stays out of the preference centre). Not in the activity log: its kinds are shared labels,
     * and a later round adds the audience's settings to them.
     */
    async update(id: number, changes: { publicName?: unknown }): Promise<Audience> {
      if (changes.publicName === undefined) return live(id);
      const text = typeof changes.publicName === 'string' ? changes.publicName.trim() : '';
      if (text.length > PUBLIC_NAME_MAX) throw new DomainError('invalid', PUBLIC_NAME_TOO_LONG);
      const audience = await repo.setPublicName(id, text === '' ? null : text);
      if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
      return audience;
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

    /** The contacts as CSV. */
    exportCsv: (id: number, actor: Actor) => recordedExport(id, actor, 'contacts', (audience) => exportContactsCsv(db, audience)),

    /** The audience's consent record as CSV (issue 25). */
    exportConsentCsv: (id: number, actor: Actor) => recordedExport(id, actor, 'consent', () => exportConsentCsv(db, id)),

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

    /** Housekeeping run by the worker at start and then periodically: purges that never ran are queued again. */
    async sweep(): Promise<{ requeuedPurges: number[] }> {
      const requeuedPurges = await repo.findUnpurged(importSettings.staleAfterMs);
      for (const audienceId of requeuedPurges) {
        await queue.publish('audience-delete', { audienceId });
      }
      return { requeuedPurges };
    },
  };
}

export type AudienceService = ReturnType<typeof createAudienceService>;
