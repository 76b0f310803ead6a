/**
 * Sign-ups (issue 25): a sweep at start and every quarter hour removes pending sign-ups whose confirmation
 * link expired (SIGNUP_LINK_DAYS) and solved challenges past their own expiry. Several workers sweeping at
 * once only share the work.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const SWEEP_EVERY_MS = 15 * 60_000;

export function signupWorkers({ services, logger }: AppDeps): Consumer[] {
  return [periodic('sign-up sweep', SWEEP_EVERY_MS, () => services.signups.sweep(), logger.child({ component: 'signup-worker' }))];
}
