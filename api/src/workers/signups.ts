/**
 * Sign-ups (issue 25):
 *  - 'signup-mail': one confirmation mail each, sent by the sign-up service (claimed, then SES once). Several at
 *    once: each waits for its send slot in the shared send rate, as a campaign's mails do. A mail SES took no part
 *    of (throttled, quota used up) is tried again by the queue's backoff.
 *  - a sweep every minute publishes again the mails still queued after a while (a message lost between the
 *    API's commit and its publish);
 *  - a sweep at start and every quarter hour removes pending sign-ups whose confirmation link expired
 *    (SIGNUP_LINK_DAYS) and solved challenges past their own expiry.
 * Several workers at once only share the work: the mail's row decides who sends it.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const SWEEP_EVERY_MS = 15 * 60_000;
const REQUEUE_EVERY_MS = 60_000;
/** Confirmation mails handled at once by one worker process (their SES calls share SEND_CONCURRENCY). */
const MAILS_AT_ONCE = 16;

export function signupWorkers({ messageQueue, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'signup-worker' });
  return [
    messageQueue.consume('signup-mail', ({ mailId }) => services.signups.sendMail(mailId), { concurrency: MAILS_AT_ONCE }),
    periodic('confirmation mail sweep', REQUEUE_EVERY_MS, () => services.signups.requeueMails(), logger),
    periodic('sign-up sweep', SWEEP_EVERY_MS, () => services.signups.sweep(), logger),
  ];
}
