/**
 * The activity log's retention (an addition to the spec): a sweep at start and every hour removes the
 * entries older than ACTIVITY_RETENTION_DAYS, in batches (services/activity). Several workers sweeping
 * at once only share the work: each batch deletes what is still there.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { periodic } from './periodic.js';

const SWEEP_EVERY_MS = 60 * 60_000;

export function activityWorkers({ services, logger }: AppDeps): Consumer[] {
  return [
    periodic('activity retention sweep', SWEEP_EVERY_MS, () => services.activity.sweep(), logger.child({ component: 'activity-worker' })),
  ];
}
