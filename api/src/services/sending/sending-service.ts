/**
 * Sending (docs/architecture.md, Sending, at most once per job), one room with its parts apart:
 *  - producer.ts, in the API process: `dispatch` creates or resets jobs and publishes their ids;
 *  - consumer.ts, in the worker: `sendBatch` claims jobs (no more than its free SES call slots),
 *    calls SES once per job, beats for its claims and records their outcomes; `releaseDomainJobs`
 *    releases capped domains' held jobs at each domain's pace and sends them;
 *  - sweep.ts, in the worker: abandoned claims become UNKNOWN, lost messages are published again,
 *    finished campaigns become SENT;
 *  - dispatch-repository.ts and claim-repository.ts: their statements; send-rate.ts: the send rate
 *    all workers share.
 * This file builds them once on the process's SES connection and send rate, and sends the one mail
 * outside any campaign (a test mail).
 */
import type { SendEmailCommandInput, SESv2Client } from '@aws-sdk/client-sesv2';
import type { SendingSettings } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { createMailSender, DAILY_QUOTA_REACHED, type SendOutcome } from '../../mail/ses-sender.js';
import { createTrackingTokens, trackingUrls } from '../../mail/tracking-tokens.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { sendingQueues } from './queues.js';
import { createConsumer } from './consumer.js';
import { createProducer } from './producer.js';
import type { SendRateLimiter } from './send-rate.js';
import { createSweep } from './sweep.js';
import { WARM_UP_REACHED } from './warm-up.js';

export { CAMPAIGN_NOT_FOUND, type DispatchPlan } from './producer.js';

export interface SendingServiceDeps {
  db: Database;
  messageQueue: MessageQueue<typeof sendingQueues>;
  ses: SESv2Client;
  limiter: SendRateLimiter;
  settings: SendingSettings;
  publicUrl: string;
  trackingSecret: string;
  configurationSet: string | undefined;
  /** ORG_LOCALE: merge tags write numbers and dates in it. */
  locale?: string;
  logger: Logger;
  /** The clock of the warm-up's days (epoch milliseconds), as the limiter's: tests move it. Default Date.now. */
  now?: () => number;
}

export function createSendingService(deps: SendingServiceDeps) {
  const { db, messageQueue, limiter, settings, configurationSet, logger } = deps;
  const mailer = createMailSender(deps.ses);
  const producer = createProducer({ db, messageQueue, settings, publicUrl: deps.publicUrl, logger });
  const tracking = trackingUrls(deps.publicUrl, createTrackingTokens(deps.trackingSecret));
  const consumer = createConsumer({ db, messageQueue, mailer, limiter, settings, tracking, configurationSet, locale: deps.locale, logger });

  return {
    dispatch: producer.dispatch,
    unknownJobs: producer.unknownJobs,
    resendUnconfirmed: producer.resendUnconfirmed,
    sendBatch: consumer.sendBatch,
    releaseDomainJobs: consumer.releaseDomainJobs,
    drainReleased: consumer.drainReleased,
    sweep: createSweep({ db, producer, settings, logger, now: deps.now }),

    /** One mail outside any campaign (a test mail), within the shared send rate. */
    async sendOne(input: SendEmailCommandInput): Promise<SendOutcome> {
      const prepared = await mailer.prepare(input);
      const slot = await limiter.take();
      if (slot !== 'go') return { kind: 'stopped', reason: slot === 'warm-up-reached' ? WARM_UP_REACHED : DAILY_QUOTA_REACHED };
      const calledAtMs = Date.now();
      const outcome = await mailer.send(prepared);
      if (outcome.kind === 'throttled') await limiter.throttled(calledAtMs);
      return outcome;
    },

    /** Stops the heartbeat and taking send slots, and closes the connections to SES (the process is closing). */
    async close(): Promise<void> {
      consumer.close();
      limiter.close();
      await mailer.close();
    },
  };
}

export type SendingService = ReturnType<typeof createSendingService>;
