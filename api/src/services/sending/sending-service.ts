/**
 * Sending (docs/architecture.md), at most once per job:
 *
 * `dispatch` is the one way jobs get sent: it creates or resets jobs and marks the campaign
 * SENDING in one transaction (the first send also snapshots the html with its links), then
 * publishes the queued job ids in batches with the broker's confirm. Send, continue, and the
 * report's "retry failed", "send to NOT_SENT" and "send to contact" are all dispatches; whatever
 * is published twice is harmless, because:
 *
 * `sendBatch` (the 'campaign-send' consumer) claims a few jobs at a time with a conditional UPDATE
 * committed before SES is called, takes a slot of the shared send rate for each, calls SES once per
 * job, and records the outcomes in one statement per chunk. A job another worker (or an earlier
 * delivery of the same message) claimed is skipped. Throttled jobs go back to the queue with a
 * growing delay; a daily quota, a paused or suspended account stops the campaign in ERROR with the
 * reason (its unsent jobs stay QUEUED for continue). The campaign is SENT once no job is left.
 *
 * A database outage loses nothing of a living worker: each claim is named by a token; a claim, a
 * record or a stop that finds the database gone is tried again (0.2 s, doubling to 1 s) until it
 * answers, holding SES's answers in memory meanwhile (at most a claim's worth per running batch); a
 * claimed job that could not be handed to SES (no send slot without the database) is given back
 * QUEUED without counting the attempt, and claimed again once the database is back. A heartbeat
 * keeps the held claims' claimed_at fresh.
 *
 * `sweep` (periodic, in every worker): jobs whose claim had no heartbeat for the stale time (their
 * worker died mid-send) become UNKNOWN and are never resent by themselves; queued jobs of a campaign
 * idle for that long are published again (their message was lost); finished campaigns become SENT.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SendEmailCommandInput, SESv2Client } from '@aws-sdk/client-sesv2';
import type { SendingSettings } from '../../config.js';
import { isDatabaseUnavailable, type Database } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';
import { compileMail } from '../../mail/compose.js';
import { snapshotLinks } from '../../mail/links.js';
import { mergeTagsIn, resolveFields } from '../../mail/merge-tags.js';
import { assertOneLine, HeaderValueError, sendEmailInput } from '../../mail/message.js';
import { createMailSender, DAILY_QUOTA_REACHED, type PreparedMail, type SendOutcome } from '../../mail/ses-sender.js';
import { createTrackingTokens, trackingUrls } from '../../mail/tracking-tokens.js';
import type { Queues } from '../../queue/registry.js';
import { recordActivity, type ActivityKind, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { sendingRepository, type ClaimedJob, type CreatedJobs, type JobOutcome, type NewJobs, type Requeue } from './repository.js';
import type { SendRateLimiter } from './send-rate.js';

export const CAMPAIGN_NOT_FOUND = 'Campaign not found';
export const STALE_SEND = 'The worker stopped while sending this email; it may or may not have gone out.';
const UNREACHABLE_ATTEMPTS = 5;
/** The heartbeat of held claims runs this many times per stale time. */
const HEARTBEATS_PER_STALE = 4;
/** While the database is away, the send path tries again after 0.2 s, doubling up to 1 s. */
const OUTAGE_RETRY_FIRST_MS = 200;
const OUTAGE_RETRY_MAX_MS = 1_000;
const PUBLISHES_AT_ONCE = 8;
const CACHED_CAMPAIGNS = 16;
/** A dispatch of this many jobs or more refreshes the planner's statistics before the workers start. */
const ANALYZE_AFTER_JOBS = 10_000;

export interface DispatchPlan {
  /** The statuses the campaign may be in (it becomes SENDING); otherwise a conflict with `conflict`. */
  from: readonly CampaignStatus[];
  conflict: string;
  /** A campaign whose row another transaction holds is a conflict at once, instead of waited for (the schedule sweep). */
  skipLocked?: boolean;
  /** First send: the html (and plain text) to snapshot, with a data-link-id on each link. */
  snapshot?: { html: string; plainText: string | null };
  newJobs?: NewJobs;
  requeue?: Requeue;
  /**
   * The member's action, recorded in the activity log in the dispatch's transaction (with the number
   * of jobs it created or queued again as `details.jobs`): a refused dispatch records nothing.
   */
  activity?: { actor: Actor; kind: ActivityKind; details?: Record<string, unknown> };
}

export interface SendingServiceDeps {
  db: Database;
  queue: Queues;
  ses: SESv2Client;
  limiter: SendRateLimiter;
  settings: SendingSettings;
  publicUrl: string;
  trackingSecret: string;
  configurationSet: string | undefined;
  logger: Logger;
}

interface CampaignMail {
  input(job: ClaimedJob): SendEmailCommandInput;
}

/** Delay before a throttled or unreachable job is tried again: 1, 2, 4... s, at most a minute. */
export const retryDelayMs = (attempts: number): number => Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));

/** Jobs per message: at most 500, and a small campaign still spreads over about 16 messages (and workers). */
export const batchSize = (jobs: number): number => Math.min(500, Math.max(10, Math.ceil(jobs / 16)));

/** Jobs claimed at once: about 0.2 s of sending at the current rate, 1 to 50. */
export const claimSize = (rate: number | undefined): number => (rate === undefined ? 10 : Math.max(1, Math.min(50, Math.round(rate / 5))));

export function createSendingService(deps: SendingServiceDeps) {
  const { db, queue, limiter, settings, logger } = deps;
  const repo = sendingRepository(db);
  const mailer = createMailSender(deps.ses);
  const urls = trackingUrls(deps.publicUrl, createTrackingTokens(deps.trackingSecret));
  const slots = callSlots(settings.concurrency);
  const mails = new Map<number, CampaignMail>();
  /** Claims this process holds (claimed, outcome not recorded yet): token -> job ids. */
  const held = new Map<string, number[]>();
  const heartbeatMs = Math.max(250, settings.staleAfterMs / HEARTBEATS_PER_STALE);
  let heartbeat: NodeJS.Timeout | undefined;
  /** Keeps the claims held by this process fresh for the stale sweep (a failed beat is tried at the next). */
  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      if (held.size === 0) return;
      repo
        .heartbeat([...held].map(([token, ids]) => ({ token, ids })))
        .catch((err: unknown) => logger.debug({ err }, 'claim heartbeat failed; the next one tries again'));
    }, heartbeatMs);
    heartbeat.unref();
  };

  /**
   * Runs a statement of the send path until the database answers it: while PostgreSQL is away the
   * worker keeps what it knows (claims, SES's answers) and writes it once it is back. The statements
   * given here are safe to run again (claims and records are named by their token). Only an error
   * that is not an outage ends the wait; a process forced to stop loses what it held (UNKNOWN).
   */
  const untilAnswered = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    for (let waitMs = OUTAGE_RETRY_FIRST_MS, tries = 1; ; tries++) {
      try {
        return await work();
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        if (tries === 1) logger.warn({ what }, 'database unavailable; holding on and trying again');
        await sleep(waitMs);
        waitMs = Math.min(OUTAGE_RETRY_MAX_MS, waitMs * 2);
      }
    }
  };

  /**
   * Publishes job ids read a page at a time (`pages`), in messages sized for `total` jobs; answers how
   * many were published. A million-job send holds one page of ids (repository's ID_PAGE), not all.
   */
  const publish = async (campaignId: number, pages: AsyncIterable<number[]>, total: number): Promise<number> => {
    const size = batchSize(total);
    let published = 0;
    for await (const ids of pages) {
      const batches: number[][] = [];
      for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(PUBLISHES_AT_ONCE, batches.length) }, async () => {
          while (next < batches.length) await queue.publish('campaign-send', { campaignId, jobIds: batches[next++]! });
        }),
      );
      published += ids.length;
    }
    return published;
  };

  /** The campaign's queued job ids, a page at a time, after `afterId` and up to `upTo` (all when not given). */
  async function* queuedPages(campaignId: number, afterId = 0, upTo?: number): AsyncGenerator<number[]> {
    for (let page = await repo.queuedJobIds(campaignId, afterId, upTo); page.length > 0;) {
      yield page;
      page = await repo.queuedJobIds(campaignId, page.at(-1)!, upTo);
    }
  }

  /** The jobs one dispatch queued on a campaign already sending: those it put back, then the range it created. */
  async function* dispatchedPages(campaignId: number, requeued: number[], created: CreatedJobs): AsyncGenerator<number[]> {
    if (requeued.length > 0) yield requeued.sort((a, b) => a - b);
    if (created.firstId !== null) yield* queuedPages(campaignId, created.firstId - 1, created.lastId ?? undefined);
  }

  /** The campaign's mail, compiled once per worker (its content no longer changes once sending). */
  const campaignMail = async (id: number): Promise<CampaignMail | undefined> => {
    const cached = mails.get(id);
    if (cached) return cached;
    const campaign = await repo.findSendingCampaign(id);
    if (!campaign?.html || !campaign.fromEmail || campaign.subject === null) return undefined;
    const { html, plainText, subject, previewText } = campaign;
    const from = { name: campaign.fromName ?? '', email: campaign.fromEmail };
    assertOneLine('subject', subject);
    assertOneLine('sender name', from.name);
    assertOneLine('preview text', previewText);
    const fields = resolveFields(mergeTagsIn(html, plainText, subject, previewText), campaign.headers);
    const render = compileMail({ subject, previewText, html, plainText, fields }, { tracking: urls });
    const mail: CampaignMail = {
      input: (job) =>
        sendEmailInput(render({ jobId: job.id, email: job.email, data: job.data }), {
          from,
          to: job.email,
          configurationSet: deps.configurationSet,
          tags: { campaign_id: id, job_id: job.id },
        }),
    };
    if (mails.size >= CACHED_CAMPAIGNS) mails.delete(mails.keys().next().value!);
    mails.set(id, mail);
    return mail;
  };

  return {
    /**
     * Creates or resets jobs, marks the campaign SENDING and publishes its queued jobs (all of them
     * when it was not sending; only this dispatch's when it was). Answers how many were published.
     */
    async dispatch(campaignId: number, plan: DispatchPlan): Promise<{ queued: number; droppedRecipients: number }> {
      const { wasSending, created, requeued, droppedRecipients } = await db.transaction(async (tx) => {
        const campaign = await repo.lockCampaign(tx, campaignId, { skipLocked: plan.skipLocked === true });
        if (!campaign)
          throw plan.skipLocked ? new DomainError('conflict', plan.conflict) : new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        if (!plan.from.includes(campaign.status)) throw new DomainError('conflict', plan.conflict);
        if (plan.snapshot) {
          // The hidden link leads to the product's own address: a scanner following it harms nothing.
          const snapshot = snapshotLinks(plan.snapshot.html, `${deps.publicUrl.replace(/\/+$/, '')}/`);
          const linkIds = await repo.insertLinks(tx, campaignId, snapshot.links);
          await repo.saveSnapshot(tx, campaignId, snapshot.html(linkIds), plan.snapshot.plainText);
        }
        // A follow-up's first send leaves out whom the original reached after the follow-up was made.
        const droppedRecipients = plan.snapshot && campaign.followUp ? await repo.dropReachedRecipients(tx, campaignId) : 0;
        const created: CreatedJobs =
          plan.newJobs && campaign.audienceId !== null
            ? await repo.createJobs(tx, campaignId, campaign.audienceId, plan.newJobs, campaign.followUp)
            : { count: 0, firstId: null, lastId: null };
        const requeued = plan.requeue ? await repo.requeue(tx, campaignId, plan.requeue) : { ids: [], failed: 0 };
        await repo.markSending(tx, campaignId, created.count, requeued.failed);
        if (plan.activity) {
          const { actor, kind, details } = plan.activity;
          await recordActivity(tx, {
            actor,
            kind,
            object: { type: 'campaign', id: campaignId, name: campaign.name },
            details: { ...details, jobs: created.count + requeued.ids.length, ...(droppedRecipients > 0 ? { droppedRecipients } : {}) },
          });
        }
        return { wasSending: campaign.status === 'SENDING', created, requeued: requeued.ids, droppedRecipients };
      });
      if (created.count + requeued.length >= ANALYZE_AFTER_JOBS) await repo.analyzeJobs();
      const [pages, total] = wasSending
        ? [dispatchedPages(campaignId, requeued, created), created.count + requeued.length]
        : [queuedPages(campaignId), await repo.countQueued(campaignId)];
      // The jobs are recorded: if the broker fails now, the sweep publishes them once the campaign idles.
      const queued = await publish(campaignId, pages, total).catch((err: unknown) => {
        logger.error({ err, campaignId }, 'could not publish the jobs of a campaign; the sweep will');
        return total;
      });
      if (queued === 0) await repo.finishIfDone(campaignId);
      return { queued, droppedRecipients };
    },

    /** The campaign's UNKNOWN jobs, and those unconfirmed long enough for a deliberate resend. */
    async unknownJobs(campaignId: number): Promise<{ unknown: number; unconfirmed: number; resendAfterMs: number }> {
      return {
        ...(await repo.unknownJobs(campaignId, settings.unconfirmedResendAfterMs)),
        resendAfterMs: settings.unconfirmedResendAfterMs,
      };
    },

    /** Queues the campaign's long-unconfirmed UNKNOWN jobs again, through the same dispatch as every send. */
    resendUnconfirmed(campaignId: number, plan: Omit<DispatchPlan, 'requeue'>): Promise<{ queued: number }> {
      return this.dispatch(campaignId, { ...plan, requeue: { unconfirmedForMs: settings.unconfirmedResendAfterMs } });
    },

    /** The 'campaign-send' consumer: sends the jobs of one message that are still to send. */
    async sendBatch({ campaignId, jobIds }: { campaignId: number; jobIds: number[] }): Promise<{ sent: number }> {
      let mail: CampaignMail | undefined;
      try {
        mail = await campaignMail(campaignId);
      } catch (error) {
        if (!(error instanceof HeaderValueError)) throw error;
        await repo.stop(campaignId, error.message);
        return { sent: 0 };
      }
      // Deleted, or never sent: nothing of this message can go.
      if (!mail) return { sent: 0 };

      let stopped: string | undefined;
      const stop = async (reason: string) => {
        if (stopped) return;
        stopped = reason;
        if (await untilAnswered('stop the campaign', () => repo.stop(campaignId, reason)))
          logger.warn({ campaignId, reason }, 'campaign stopped');
      };

      /** Why a claimed job could not be handed to SES (the database went away, mostly); per chunk. */
      let failure: unknown;
      /** Sends one claimed job on the call slot taken for it, and gives the slot back once SES has answered. */
      const sendJob = async (job: ClaimedJob): Promise<JobOutcome> => {
        try {
          const notSent: JobOutcome = { id: job.id, status: 'QUEUED', delayMs: 0 };
          if (stopped) return notSent;
          let prepared: PreparedMail;
          try {
            // Rendered, serialised and signed before the rate's slot: once it comes, the call goes out at once.
            prepared = await mailer.prepare(mail.input(job));
            if ((await limiter.take()) === 'quota-reached') {
              await stop(DAILY_QUOTA_REACHED);
              return notSent;
            }
          } catch (error) {
            // SES was never called: the claim is given back as it was.
            failure ??= error;
            return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true };
          }
          if (stopped) return notSent;
          return await outcomeOf(job, await mailer.send(prepared), stop);
        } finally {
          slots.release(1);
        }
      };

      let sent = 0;
      const later: number[] = [];
      let laterDelayMs = 0;
      const pending = [...jobIds];
      while (pending.length > 0 && !stopped) {
        // Only as many jobs as there are free call slots are claimed (the batches of this process
        // share them): a worker that dies leaves UNKNOWN what was on its way to SES, not work it had
        // merely put aside.
        const taken = await slots.acquire(Math.min(pending.length, claimSize(limiter.rate())));
        const chunk = pending.splice(0, taken);
        const token = randomUUID();
        failure = undefined;
        // Held from before the claim is asked for: its answer may be lost with the database.
        held.set(token, chunk);
        startHeartbeat();
        try {
          const claimed = await untilAnswered('claim jobs', () => repo.claim(campaignId, chunk, token)).catch((error: unknown) => {
            slots.release(taken);
            throw error;
          });
          // Slots of jobs another claim holds are free again at once.
          slots.release(taken - claimed.length);
          if (claimed.length === 0) continue;
          held.set(
            token,
            claimed.map((job) => job.id),
          );
          const outcomes = await Promise.all(claimed.map(sendJob));
          // What SES answered is kept here until the database has it.
          await untilAnswered('record outcomes', () => repo.record(campaignId, token, outcomes));
          for (const outcome of outcomes) {
            if (outcome.status === 'SENT_WAIT_ACK') sent++;
            if (outcome.status !== 'QUEUED') continue;
            if (outcome.returned) pending.push(outcome.id);
            else if (outcome.delayMs > 0) {
              later.push(outcome.id);
              laterDelayMs = Math.max(laterDelayMs, outcome.delayMs);
            }
          }
        } finally {
          held.delete(token);
        }
        // An outage: the given-back jobs are claimed again once the database answers. Anything else
        // fails the message (retried by the queue) with every outcome recorded.
        if (failure !== undefined && !isDatabaseUnavailable(failure)) throw failure;
      }
      if (later.length > 0 && !stopped) await queue.publish('campaign-send', { campaignId, jobIds: later }, { delayMs: laterDelayMs });
      await untilAnswered('finish the campaign', () => repo.finishIfDone(campaignId));
      return { sent };
    },

    /** Housekeeping; see the file's comment. */
    async sweep(): Promise<{ unknown: number; republished: number; finished: number }> {
      // Just after this process found the database gone, the living workers get two heartbeats'
      // time to write theirs (and what they held) before any claim is judged abandoned.
      const settled = db.msSinceUnavailable() > 2 * heartbeatMs;
      const unknown = settled ? await repo.markStaleUnknown(settings.staleAfterMs, STALE_SEND) : 0;
      if (unknown > 0) logger.warn({ jobs: unknown }, 'jobs left sending by a stopped worker are now UNKNOWN');
      let republished = 0;
      for (const campaignId of await repo.takeIdleCampaigns(settings.staleAfterMs)) {
        republished += await publish(campaignId, queuedPages(campaignId), await repo.countQueued(campaignId));
      }
      if (republished > 0) logger.warn({ jobs: republished }, 'queued jobs of idle campaigns published again');
      let finished = 0;
      for (const campaignId of await repo.sendingCampaignIds()) if (await repo.finishIfDone(campaignId)) finished++;
      return { unknown, republished, finished };
    },

    /** Stops taking send slots and closes the connections to SES (the process is closing). */
    async close(): Promise<void> {
      clearInterval(heartbeat);
      limiter.close();
      await mailer.close();
    },

    /** One mail outside any campaign (a test send), within the shared send rate. */
    async sendOne(input: SendEmailCommandInput): Promise<SendOutcome> {
      const prepared = await mailer.prepare(input);
      if ((await limiter.take()) === 'quota-reached') return { kind: 'stopped', reason: DAILY_QUOTA_REACHED };
      const outcome = await mailer.send(prepared);
      if (outcome.kind === 'throttled') await limiter.throttled();
      return outcome;
    },
  };

  async function outcomeOf(job: ClaimedJob, outcome: SendOutcome, stop: (reason: string) => Promise<void>): Promise<JobOutcome> {
    switch (outcome.kind) {
      case 'sent':
        return { id: job.id, status: 'SENT_WAIT_ACK', messageId: outcome.messageId };
      case 'rejected':
        return { id: job.id, status: 'FAILED', error: outcome.reason };
      case 'unknown':
        return { id: job.id, status: 'UNKNOWN', error: outcome.reason };
      case 'throttled':
        // Slowing the other workers down is worth a try, not a lost outcome.
        await limiter.throttled().catch((err: unknown) => logger.warn({ err }, 'could not share the throttle'));
        return { id: job.id, status: 'QUEUED', delayMs: retryDelayMs(job.attempts), error: outcome.reason };
      case 'not-sent':
        if (job.attempts < UNREACHABLE_ATTEMPTS)
          return { id: job.id, status: 'QUEUED', delayMs: retryDelayMs(job.attempts), error: outcome.reason };
        await stop(outcome.reason);
        return { id: job.id, status: 'QUEUED', delayMs: 0, error: outcome.reason };
      case 'stopped':
        await stop(outcome.reason);
        return { id: job.id, status: 'QUEUED', delayMs: 0 };
    }
  }
}

export type SendingService = ReturnType<typeof createSendingService>;

/**
 * The SES calls one worker process may have in flight (SEND_CONCURRENCY), as slots a batch takes
 * before it claims jobs: `acquire(wanted)` waits for a quarter of them (or `wanted`, if fewer) to be
 * free and takes up to `wanted`; each claimed job gives its slot back once SES has answered (or it
 * was given back unsent).
 */
function callSlots(limit: number) {
  let free = limit;
  const waiting: (() => void)[] = [];
  return {
    async acquire(wanted: number): Promise<number> {
      // A claim costs a round trip to the database: wait for a few slots rather than claim one job at a time.
      const enough = Math.max(1, Math.min(wanted, Math.ceil(limit / 4)));
      while (free < enough) await new Promise<void>((resolve) => waiting.push(resolve));
      const taken = Math.min(wanted, free);
      free -= taken;
      return taken;
    },
    release(count: number): void {
      if (count <= 0) return;
      free += count;
      // Every waiter looks again: one released slot may be all one of them needs.
      for (const wake of waiting.splice(0)) wake();
    },
  };
}
