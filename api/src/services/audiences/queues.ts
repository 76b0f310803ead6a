/** The audience feature's queues and the payload each message carries (validated when consumed). */
import { z } from 'zod';

export const audienceDeleteJob = z.object({ audienceId: z.number().int().positive() });

export const audienceQueues = {
  'audience-delete': audienceDeleteJob,
};
