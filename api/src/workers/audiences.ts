/**
 * The audience consumers:
 *  - 'contact-import': runs an import (services/contacts/importer.ts), one at a time per worker
 *    (it keeps a core busy). A file problem fails the import at once; another error is retried,
 *    and the last attempt fails the import cleanly instead of leaving it importing. A worker that
 *    dies mid-import leaves its transaction rolled back and the message unacked: the broker
 *    redelivers it and the import runs again from the start.
 *  - 'audience-delete': purges a deleted audience's contacts in batches, then its row.
 *  - a sweep at start and every few minutes: imports stuck past the stale timeout with no worker
 *    on them are failed ('Import was interrupted; please import again.'), lost purges re-queued.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/JobQueue.js';
import {
  AUDIENCE_DELETE_QUEUE,
  CONTACT_IMPORT_QUEUE,
  createAudienceService,
  type AudienceDeleteJob,
} from '../services/audiences/audience-service.js';
import { importContacts, settleAfterImport, type ContactImportJob } from '../services/contacts/importer.js';
import { loadImportSettings } from '../services/contacts/import-settings.js';

const IMPORT_ATTEMPTS = 3;
const SWEEP_EVERY_MS = 5 * 60_000;

export function audienceWorkers(deps: AppDeps): Consumer[] {
  const settings = loadImportSettings();
  const logger = deps.logger.child({ component: 'audiences-worker' });
  const service = createAudienceService({ pool: deps.pool, queue: deps.queue, importSettings: settings, logger });

  const imports = deps.queue.consume<ContactImportJob>(
    CONTACT_IMPORT_QUEUE,
    async (job, { attempt }) => {
      const started = Date.now();
      const outcome = await importContacts(deps.pool, job, {
        dir: settings.dir,
        limits: settings,
        logger,
        finalAttempt: attempt >= IMPORT_ATTEMPTS,
      });
      logger.info({ audienceId: job.audienceId, ...outcome, ms: Date.now() - started }, 'contact import done');
      if (outcome.status === 'imported') {
        await settleAfterImport(deps.pool).catch((err: unknown) => logger.warn({ err }, 'could not settle the search index'));
      }
    },
    { concurrency: 1, maxAttempts: IMPORT_ATTEMPTS },
  );

  const purges = deps.queue.consume<AudienceDeleteJob>(
    AUDIENCE_DELETE_QUEUE,
    async ({ audienceId }) => {
      const { contactsDeleted } = await service.purge(audienceId);
      logger.info({ audienceId, contactsDeleted }, 'audience purged');
    },
    { concurrency: 1 },
  );

  const sweep = () =>
    service.sweep().catch((err: unknown) => {
      logger.warn({ err }, 'audience sweep failed');
    });
  let running: Promise<unknown> = sweep();
  const timer = setInterval(() => {
    running = sweep();
  }, SWEEP_EVERY_MS);
  timer.unref();
  const sweeper: Consumer = {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };

  return [imports, purges, sweeper];
}
