/**
 * Outgoing webhooks' queue: one delivery attempt, by its `webhook_deliveries` row. The worker's poller publishes
 * the deliveries due (new ones at once, retries when their time comes); the row, not the message, decides:
 * a message delivered twice finds the delivery done or claimed and does nothing.
 */
import { z } from 'zod';

export const webhookDeliveryMessage = z.object({
  deliveryId: z.number().int().positive(),
  // The endpoint, so a worker can tell its endpoint is busy without reading the database.
  endpointId: z.number().int().positive(),
});

export const webhookQueues = {
  'webhook-delivery': webhookDeliveryMessage,
};
