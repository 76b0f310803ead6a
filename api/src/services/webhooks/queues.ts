/**
 * Outgoing webhooks' queue: deliveries due for one endpoint, by their `webhook_deliveries` rows (up to a hundred a
 * message, so a backlog costs the broker little). The worker's poller publishes the deliveries due (new ones at
 * once, retries when their time comes); the rows, not the message, decide: a message delivered twice finds the
 * deliveries done or claimed and does nothing.
 */
import { z } from 'zod';

export const WEBHOOK_MESSAGE_DELIVERIES = 100;

export const webhookDeliveryMessage = z.object({
  deliveryIds: z.array(z.number().int().positive()).min(1).max(WEBHOOK_MESSAGE_DELIVERIES),
  // The endpoint, so a worker can tell its endpoint is busy without reading the database.
  endpointId: z.number().int().positive(),
});

export const webhookQueues = {
  'webhook-delivery': webhookDeliveryMessage,
};
