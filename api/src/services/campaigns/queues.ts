/** The campaign feature's queue: batches of job ids to send (validated when consumed). */
import { z } from 'zod';

export const campaignSendJob = z.object({
  campaignId: z.number().int().positive(),
  jobIds: z.array(z.number().int().positive()).min(1).max(1000),
});

export const campaignQueues = {
  'campaign-send': campaignSendJob,
};
