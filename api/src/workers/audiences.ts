/**
 * The audience consumers:
 *  - 'contact-import': runs an import (services/imports/importer.ts), one at a time per worker
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
import { importContacts, settleAfterImport } from '../services/imports/importer.js';
import { periodic } from './periodic.js';

const IMPORT_ATTEMPTS = 3;
const SWEEP_EVERY_MS = 5 * 60_000;

export function audienceWorkers({ config, db, queue, spool, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'audiences-worker' });
  const { audiences } = services;

  const imports = queue.consume(
    'contact-import',
    async (job, { attempt }) => {
      const started = Date.now();
      const outcome = await importContacts(db, job, {
        spool,
        limits: config.import,
        logger,
        finalAttempt: attempt >= IMPORT_ATTEMPTS,
      });
      logger.info({ audienceId: job.audienceId, ...outcome, ms: Date.now() - started }, 'contact import done');
      if (outcome.status === 'imported') {
        await settleAfterImport(db).catch((err: unknown) => logger.warn({ err }, 'could not settle the search index'));
      }
    },
    { concurrency: 1, maxAttempts: IMPORT_ATTEMPTS },
  );

  const purges = queue.consume(
    'audience-delete',
    async ({ audienceId }) => {
      const { contactsDeleted } = await audiences.purge(audienceId);
      logger.info({ audienceId, contactsDeleted }, 'audience purged');
    },
    { concurrency: 1 },
  );

  return [imports, purges, periodic('audience sweep', SWEEP_EVERY_MS, () => audiences.sweep(), logger)];
}
