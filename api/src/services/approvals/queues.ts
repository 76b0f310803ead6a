/**
 * Send approval's queue: the answer's mail to the requester, by its `approval_requests` row. The API publishes it
 * once the answer is committed; the worker sends it (workers/approvals.ts). The row decides: a message delivered
 * twice, or published again by the sweep, finds the mail claimed and sends nothing.
 */
import { z } from 'zod';

export const approvalMailMessage = z.object({ requestId: z.number().int().positive() });

export const approvalQueues = {
  'approval-mail': approvalMailMessage,
};
