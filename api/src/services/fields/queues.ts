/** The fields feature's queue: a removed field's values to clear from its audience's contacts (validated when consumed). */
import { z } from 'zod';

export const fieldValuesClearJob = z.object({ audienceId: z.number().int().positive(), key: z.string().min(1).max(200) });

export const fieldQueues = {
  'field-values-clear': fieldValuesClearJob,
};
