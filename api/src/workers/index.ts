/**
 * The queue consumers of the worker process. Each feature owns `workers/<feature>.ts` exporting a
 * registration `(deps: AppDeps) => Consumer[]` (its consumers, with their concurrency), added to
 * `registrations` below.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { activityWorkers } from './activity.js';
import { approvalWorkers } from './approvals.js';
import { audienceWorkers } from './audiences.js';
import { campaignWorkers } from './campaigns.js';
import { signupWorkers } from './signups.js';
import { webhookWorkers } from './webhooks.js';

export type WorkerRegistration = (deps: AppDeps) => Consumer[];

export const registrations: WorkerRegistration[] = [
  // ---- one line per feature ----
  audienceWorkers,
  campaignWorkers,
  activityWorkers,
  signupWorkers,
  approvalWorkers,
  webhookWorkers,
];

export interface Workers {
  /** Stops taking messages and resolves once every running handler has finished. */
  close(): Promise<void>;
}

export async function startWorkers(deps: AppDeps, list: WorkerRegistration[] = registrations): Promise<Workers> {
  const consumers = list.flatMap((register) => register(deps));
  deps.logger.info({ consumers: consumers.length }, 'workers started');
  return {
    close: async () => {
      await Promise.all(consumers.map((consumer) => consumer.close()));
    },
  };
}
