/**
 * The campaign consumers:
 *  - 'campaign-send': a batch of job ids of one campaign, sent by services/sending/consumer.ts (claim, send
 *    within the shared rate, record). Several batches at once per worker; together they claim no
 *    more jobs than the worker has SES call slots (SEND_CONCURRENCY), so a worker that dies leaves
 *    at most that many in SENDING (later UNKNOWN): those on their way to SES.
 *    A redelivered or duplicated batch sends nothing twice: the claims decide.
 *  - a sweep at start and every half minute (or half the stale time): stale SENDING jobs become UNKNOWN, queued jobs of
 *    idle campaigns are published again, finished campaigns become SENT.
 *  - with domain limits, the domain release every 100 ms: each capped domain's next held jobs, as its
 *    schedule frees, sent by this worker (services/sending/consumer.ts); closing waits for them.
 *  - the schedule sweep, at start and every second: scheduled campaigns whose time has come start
 *    through Send's dispatch (services/campaigns/scheduling-service.ts, `startDue`). A time missed while no worker or no
 *    database was there is due at the first sweep that reaches the database.
 */
import type { AppDeps } from '../deps.js';
import type { Consumer } from '../queue/message-queue.js';
import { DOMAIN_RELEASE_EVERY_MS } from '../services/sending/consumer.js';
import { periodic } from './periodic.js';

/** Batches handled at once by one worker process (their SES calls share SEND_CONCURRENCY). */
const BATCHES_AT_ONCE = 4;
/**
 * A scheduled campaign starts within about this long of its time (the promise is 10 s). The sweep is
 * one read of a partial index holding only scheduled campaigns, so every worker can ask each second.
 */
export const SCHEDULE_SWEEP_MS = 1_000;
/** A/B tests are decided within about this long of their wait's end (the wait is counted in hours). */
export const AB_TEST_DECISION_MS = 30_000;

export function campaignWorkers({ config, messageQueue, services, logger: parent }: AppDeps): Consumer[] {
  const logger = parent.child({ component: 'campaigns-worker' });
  const { sending, scheduling, abTests } = services;

  const batches = messageQueue.consume(
    'campaign-send',
    async (job) => {
      const started = Date.now();
      const { sent } = await sending.sendBatch(job);
      logger.debug({ campaignId: job.campaignId, jobs: job.jobIds.length, sent, ms: Date.now() - started }, 'campaign batch done');
    },
    { concurrency: BATCHES_AT_ONCE },
  );

  // Often enough that a stale claim is seen soon after it turns stale.
  const sweepEveryMs = Math.min(30_000, config.sending.staleAfterMs / 2);
  /** Only with domain limits: without them no job is ever held. */
  const domainRelease = (): Consumer => {
    const release = periodic('domain release', DOMAIN_RELEASE_EVERY_MS, () => sending.releaseDomainJobs(), logger);
    return {
      close: async () => {
        await release.close();
        await sending.drainReleased();
      },
    };
  };
  return [
    batches,
    ...(config.sending.domainLimits.length > 0 ? [domainRelease()] : []),
    periodic('campaign sweep', sweepEveryMs, () => sending.sweep(), logger),
    periodic('schedule sweep', SCHEDULE_SWEEP_MS, () => scheduling.startDue(), logger),
    periodic('A/B test decision', AB_TEST_DECISION_MS, () => abTests.decideDue(), logger),
  ];
}
