/**
 * Sending's queue: batches of job ids of one campaign to send (validated when consumed). The
 * producer publishes them (producer.ts, in the API process) and the consumer sends them
 * (consumer.ts, in the worker).
 */
import { z } from 'zod';

export const campaignSendJob = z.object({
  campaignId: z.number().int().positive(),
  jobIds: z.array(z.number().int().positive()).min(1).max(1000),
});

export const sendingQueues = {
  'campaign-send': campaignSendJob,
};
