/**
 * Outgoing webhooks (issue 27; docs/decisions/webhooks.md):
 *  - a poller every quarter second publishes the deliveries due: new ones, retries whose backoff ended, and
 *    any whose message was lost (their lease ran out);
 *  - 'webhook-delivery': one attempt per message, many at once. Each endpoint has at most
 *    WEBHOOK_ENDPOINT_CONCURRENCY attempts running in this worker, each within WEBHOOK_TIMEOUT_SECONDS, so a
 *    slow or dead endpoint holds a few slots and nobody else's deliveries; retries wait in the database.
 * Mail sending shares nothing with them but the database: its own queue, consumers and SES slots.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const POLL_EVERY_MS = 250;
/** Deliveries handled at once by one worker process, across every endpoint. */
const DELIVERIES_AT_ONCE = 64;

export function webhookWorkers({ messageQueue, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'webhook-worker' });
  return [
    messageQueue.consume('webhook-delivery', (message) => services.webhooks.deliver(message), { concurrency: DELIVERIES_AT_ONCE }),
    periodic('webhook poller', POLL_EVERY_MS, () => services.webhooks.publishDue(), logger),
  ];
}
