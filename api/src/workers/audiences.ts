/**
 * The audience consumers:
 *  - 'contact-import': runs an import (the import service's `run`, services/imports/), one at a
 *    time per worker (it keeps a core busy). A file problem fails the import at once; another error
 *    is retried, and the last attempt fails the import cleanly instead of leaving it importing. A
 *    worker that dies mid-import leaves its transaction rolled back and the message unacked: the
 *    broker redelivers it and the import runs again from the start.
 *  - 'audience-delete': purges a deleted audience's contacts in batches, then its row.
 *  - 'field-values-clear': clears a removed field's values from its audience's contacts in batches.
 *  - sweeps at start and every few minutes: imports stuck past the stale timeout with no worker on
 *    them are failed ('Import was interrupted; please import again.') and old uploads removed;
 *    lost purges are queued again.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const IMPORT_ATTEMPTS = 3;
const SWEEP_EVERY_MS = 5 * 60_000;

export function audienceWorkers({ messageQueue, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'audiences-worker' });
  const { audiences, imports, fields } = services;

  const contactImports = messageQueue.consume(
    'contact-import',
    async (message, { attempt }) => {
      const started = Date.now();
      const outcome = await imports.run(message, { finalAttempt: attempt >= IMPORT_ATTEMPTS });
      logger.info({ audienceId: message.audienceId, ...outcome, ms: Date.now() - started }, 'contact import done');
    },
    { concurrency: 1, maxAttempts: IMPORT_ATTEMPTS },
  );

  const purges = messageQueue.consume(
    'audience-delete',
    async ({ audienceId }) => {
      const { contactsDeleted } = await audiences.purge(audienceId);
      logger.info({ audienceId, contactsDeleted }, 'audience purged');
    },
    { concurrency: 1 },
  );

  const fieldClears = messageQueue.consume(
    'field-values-clear',
    async ({ audienceId, key }) => {
      const { contactsScanned } = await fields.clearValues(audienceId, key);
      logger.info({ audienceId, contactsScanned }, 'removed field cleared');
    },
    { concurrency: 1 },
  );

  return [
    contactImports,
    purges,
    fieldClears,
    periodic('field sweep', SWEEP_EVERY_MS, () => fields.sweep(), logger),
    periodic('import sweep', SWEEP_EVERY_MS, () => imports.sweep(), logger),
    periodic('audience sweep', SWEEP_EVERY_MS, () => audiences.sweep(), logger),
  ];
}
