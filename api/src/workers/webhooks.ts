/**
 * Outgoing webhooks (issue 27; docs/decisions/webhooks.md):
 *  - a poller every quarter second publishes the deliveries due: new ones, retries whose backoff ended, and
 *    any whose message was lost (their lease ran out); each endpoint's up to what it has in flight at most;
 *  - 'webhook-delivery': a message's deliveries go into their endpoint's line in this worker, which claims them
 *    many at once and records their outcomes many at once. Each endpoint has at most
 *    WEBHOOK_ENDPOINT_CONCURRENCY attempts running in this worker, each within WEBHOOK_TIMEOUT_SECONDS, so a
 *    slow or dead endpoint holds a few slots and nobody else's deliveries; retries wait in the database.
 * Mail sending shares nothing with them but the database: its own queue, consumers and SES slots.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const POLL_EVERY_MS = 250;
/** Messages taken into lines at once by one worker process (taking one is quick: the lines do the work). */
const DELIVERIES_AT_ONCE = 64;

export function webhookWorkers({ messageQueue, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'webhook-worker' });
  return [
    messageQueue.consume('webhook-delivery', (message) => services.webhooks.deliver(message), { concurrency: DELIVERIES_AT_ONCE }),
    periodic('webhook poller', POLL_EVERY_MS, () => services.webhooks.publishDue(), logger),
  ];
}
