/** The importing feature's queue and the payload its messages carry (validated when consumed). */
import { z } from 'zod';

export const contactImportJob = z.object({
  audienceId: z.number().int().positive(),
  /** File name inside the import spool folder; never a path, so a message cannot point elsewhere. */
  path: z.string().regex(/^[\w.-]+$/, 'must be a file name'),
  source: z.enum(['CSV', 'TEXT']),
  /** The member who queued it: the import's outcome is recorded in the activity log under them. */
  memberEmail: z.string().max(320).optional(),
});

export const importQueues = {
  'contact-import': contactImportJob,
};
