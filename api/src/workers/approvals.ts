/**
 * Send approval (issue 27):
 *  - 'approval-mail': the answer to a request (approved or declined), mailed to its requester by the approval
 *    service (claimed, then SES once), each waiting for its slot in the shared send rate as a campaign's mails do;
 *  - a sweep every minute publishes again the answer mails still queued after a while (a message lost between the
 *    API's commit and its publish).
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const REQUEUE_EVERY_MS = 60_000;
/** Answer mails handled at once by one worker process: a few a day, so a few at once is plenty. */
const MAILS_AT_ONCE = 4;

export function approvalWorkers({ messageQueue, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'approval-worker' });
  return [
    messageQueue.consume('approval-mail', ({ requestId }) => services.approvals.sendMail(requestId), { concurrency: MAILS_AT_ONCE }),
    periodic('approval mail sweep', REQUEUE_EVERY_MS, () => services.approvals.requeueMails(), logger),
  ];
}
