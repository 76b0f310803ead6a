/**
 * The consumer of sending, in the worker: `sendBatch` handles one 'campaign-send' message (a batch
 * of job ids of one campaign). See sending-service.ts for the whole protocol.
 *
 * It claims a few jobs at a time with a conditional UPDATE committed before SES is called, never
 * more than there are free SES call slots in this process (SEND_CONCURRENCY, shared by the batches
 * it handles at once), so a worker that dies leaves UNKNOWN only what was on its way to SES. Each
 * claimed job takes a slot of the shared send rate and one SES call; the outcomes of a claim are
 * recorded in one statement. A job another worker (or an earlier delivery of the same message)
 * claimed is skipped. A job SES refused for the rate (429) goes back to the queue for a second
 * later, not counted as an attempt, and the shared rate slows down. The daily quota pauses the
 * campaign (still SENDING, `quota_paused_until`) until the rolling 24 hours allow; its unsent jobs
 * stay QUEUED, unclaimed meanwhile, and the sweep publishes them again then. A paused or suspended
 * account stops the campaign in ERROR with the reason (its unsent jobs stay QUEUED for continue).
 * The campaign is SENT once no job is left.
 *
 * A database outage loses nothing of a living worker: each claim is named by a token; a claim, a
 * record or a stop that finds the database gone is tried again (0.2 s, doubling to 1 s) until it
 * answers, holding SES's answers in memory meanwhile (at most a claim's worth per running batch); a
 * claimed job that could not be handed to SES (no send slot without the database) is given back
 * QUEUED without counting the attempt, and claimed again once the database is back. A heartbeat
 * keeps the held claims' claimed_at fresh, so the sweep never takes them.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SendingSettings } from '../../config.js';
import { isDatabaseUnavailable, type Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { compileCampaignMail, type CampaignMail } from '../../mail/campaign-mail.js';
import { HeaderValueError } from '../../mail/message.js';
import { DAILY_QUOTA_REACHED, type MailSender, type PreparedMail, type SendOutcome } from '../../mail/ses-sender.js';
import type { TrackingUrls } from '../../mail/tracking-tokens.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { sendingQueues } from './queues.js';
import { createSlots } from '../../slots.js';
import { claimRepository, type ClaimedJob, type JobOutcome, type SendingVariant } from './claim-repository.js';
import { domainLimiter, recipientDomain } from './domain-limits.js';
import type { SendRateLimiter } from './send-rate.js';
import { WARM_UP_REACHED } from './warm-up.js';

/** A campaign's mail by a job's A/B test variant (null: the campaign's own). */
type VariantMail = (variant: number | null) => CampaignMail;

const UNREACHABLE_ATTEMPTS = 5;
/** The heartbeat of held claims runs this many times per stale time. */
const HEARTBEATS_PER_STALE = 4;
/** While the database is away, the send path tries again after 0.2 s, doubling up to 1 s. */
const OUTAGE_RETRY_FIRST_MS = 200;
const OUTAGE_RETRY_MAX_MS = 1_000;
/** Compiled campaigns one worker keeps (it sends a few campaigns at a time, rarely more). */
const COMPILED_CAMPAIGNS = 16;

/** How often a worker writes the heartbeat of the claims it holds. */
export const heartbeatMs = (settings: Pick<SendingSettings, 'staleAfterMs'>): number =>
  Math.max(250, settings.staleAfterMs / HEARTBEATS_PER_STALE);

/**
 * Delay before a job SES refused for the rate is tried again. Fixed, as the refusal is no attempt:
 * the shared rate has slowed down meanwhile, and a second later the mail goes out at the new pace.
 */
export const THROTTLED_RETRY_MS = 1_000;

/**
 * Domain limits (DOMAIN_RATE_LIMITS; docs/decisions/sending.md, "Domain limits"). A domain's slots
 * are spaced at DOMAIN_PACE of its limit, and a mail leaves at most DOMAIN_LATE_MS after its slot
 * (or not at all: it is deferred for a new one), which keeps every sliding second at or under the
 * limit: slots 1 / (0.7 L) apart, each mail reaching SES up to 0.24 s + J after its own, put at most
 * floor(0.7 L (1.24 + J)) + 1 mails in any second, which is L or less while J, the call's own way to
 * SES on a busy machine, stays under 0.19 s (at 0.8 a loaded run put 5 mails in a second of a limit of 4). The
 * tolerance is wide because a mail at its slot still waits for the shared rate's next slot. A mail
 * whose slot is at most DOMAIN_HOLD_MS ahead waits for it in place; one further ahead goes back to the
 * queue with its slot kept, to come back before it.
 */
export const DOMAIN_PACE = 0.7;
export const DOMAIN_LATE_MS = 240;
export const DOMAIN_HOLD_MS = 500;
/**
 * How far ahead a domain's schedule is reserved. Mails beyond it are parked without a slot until the
 * schedule comes near (DOMAIN_PARK_MS): a large capped share would otherwise hold slots a minute
 * ahead, each mail coming back several times before its slot, and the messages of those returns
 * queue up until they come back late and lose their slots.
 */
export const DOMAIN_HORIZON_MS = 8_000;
/** A mail whose domain's schedule runs beyond the horizon comes back after this, for a slot then. */
export const DOMAIN_PARK_MS = 4_096;
/** A deferred mail comes back at least this long before its slot: time to wait for a call slot and be claimed. */
export const DOMAIN_LEAD_MS = 300;

/**
 * The delay of a mail deferred to its domain's slot `slotInMs` from now: half of what is left before
 * it (less DOMAIN_LEAD_MS), rounded down to a power of two, as the broker's delay queues may deliver a
 * message up to twice its delay late (queue/rabbitmq.ts): it comes back before its slot, and then
 * waits in place or is deferred again for half the time left, never behind newer mails.
 */
export function domainDeferralMs(slotInMs: number): number {
  const half = Math.max(16, (slotInMs - DOMAIN_LEAD_MS) / 2);
  return 2 ** Math.floor(Math.log2(half));
}

/** Delay before an unreachable job is tried again: 1, 2, 4... s, at most a minute. */
export const retryDelayMs = (attempts: number): number => Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));

/** Jobs claimed at once: about 0.2 s of sending at the current rate, 1 to 50. */
export const claimSize = (rate: number | undefined): number => (rate === undefined ? 10 : Math.max(1, Math.min(50, Math.round(rate / 5))));

export interface ConsumerDeps {
  db: Database;
  messageQueue: MessageQueue<typeof sendingQueues>;
  /** The process's SES connection, shared with the test mails. */
  mailer: MailSender;
  limiter: SendRateLimiter;
  settings: SendingSettings;
  tracking: TrackingUrls;
  configurationSet: string | undefined;
  /** ORG_LOCALE: merge tags write numbers and dates in it. */
  locale?: string | undefined;
  logger: Logger;
}

export function createConsumer({ db, messageQueue, mailer, limiter, settings, tracking, configurationSet, locale, logger }: ConsumerDeps) {
  const repo = claimRepository(db);
  const domainLimit = domainLimiter(settings.domainLimits);
  /** Where each capped domain's schedule ended at this process's last reservation (epoch milliseconds). */
  const scheduleEnds = new Map<string, number>();
  /** The SES calls this process may have in flight: a batch takes one per job before claiming it. */
  const callSlots = createSlots(settings.concurrency);
  /** A claim costs a round trip to the database: a batch waits for a few free slots rather than claim one job at a time. */
  const claimAtLeast = Math.ceil(settings.concurrency / 4);
  /** Each campaign's mail, compiled once per worker: its content no longer changes once sending. */
  const compiledCampaigns = new Map<number, VariantMail>();
  /** Claims this process holds (claimed, outcome not recorded yet): token -> job ids. */
  const held = new Map<string, number[]>();
  const beatEveryMs = heartbeatMs(settings);
  let heartbeat: NodeJS.Timeout | undefined;
  /** Keeps the claims held by this process fresh for the stale sweep (a failed beat is tried at the next). */
  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      if (held.size === 0) return;
      repo
        .heartbeat([...held].map(([token, ids]) => ({ token, ids })))
        .catch((err: unknown) => logger.debug({ err }, 'claim heartbeat failed; the next one tries again'));
    }, beatEveryMs);
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
   * The campaign's mail for a job's A/B test variant (null: its own), from the cache or compiled; undefined
   * when the campaign was deleted or never sent. Every variant is compiled at once, so a header on two lines
   * in any of them stops the campaign as its own would.
   */
  const compiledCampaign = async (id: number): Promise<VariantMail | undefined> => {
    const cached = compiledCampaigns.get(id);
    if (cached) return cached;
    const campaign = await repo.findSendingCampaign(id);
    if (!campaign?.html || !campaign.fromEmail || campaign.subject === null) return undefined;
    const { fields } = campaign;
    const email = campaign.fromEmail;
    const compile = (variant?: SendingVariant) =>
      compileCampaignMail(
        {
          subject: variant?.subject ?? campaign.subject!,
          previewText: variant?.previewText ?? campaign.previewText,
          html: variant?.html ?? campaign.html!,
          plainText: variant?.html ? variant.plainText : campaign.plainText,
          from: { name: variant?.fromName ?? campaign.fromName ?? '', email },
          fields,
        },
        { tracking, configurationSet, locale },
      );
    const own = compile();
    const variants = campaign.variants.map(compile);
    const mail: VariantMail = (variant) => (variant === null ? own : (variants[variant] ?? own));
    if (compiledCampaigns.size >= COMPILED_CAMPAIGNS) compiledCampaigns.delete(compiledCampaigns.keys().next().value!);
    compiledCampaigns.set(id, mail);
    return mail;
  };

  const outcomeOf = async (
    job: ClaimedJob,
    outcome: SendOutcome,
    calledAtMs: number,
    stop: (reason: string) => Promise<void>,
    pause: (reason: 'DAILY_QUOTA') => Promise<void>,
  ): Promise<JobOutcome> => {
    switch (outcome.kind) {
      case 'sent':
        return { id: job.id, status: 'SENT_WAIT_ACK', messageId: outcome.messageId };
      case 'rejected':
        return { id: job.id, status: 'FAILED', error: outcome.reason };
      case 'unknown':
        return { id: job.id, status: 'UNKNOWN', error: outcome.reason };
      case 'throttled':
        // Slowing the other workers down is worth a try, not a lost outcome.
        await limiter.throttled(calledAtMs).catch((err: unknown) => logger.warn({ err }, 'could not share the throttle'));
        return { id: job.id, status: 'QUEUED', delayMs: THROTTLED_RETRY_MS, error: outcome.reason, returned: true, throttled: true };
      case 'not-sent':
        if (job.attempts < UNREACHABLE_ATTEMPTS)
          return { id: job.id, status: 'QUEUED', delayMs: retryDelayMs(job.attempts), error: outcome.reason };
        await stop(outcome.reason);
        return { id: job.id, status: 'QUEUED', delayMs: 0, error: outcome.reason };
      case 'stopped':
        // SES's own answer that the daily quota is used up (another sender of the account used it): a pause.
        if (outcome.reason === DAILY_QUOTA_REACHED) {
          await pause('DAILY_QUOTA');
          return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true };
        }
        await stop(outcome.reason);
        return { id: job.id, status: 'QUEUED', delayMs: 0 };
    }
  };

  /**
   * The slots of the domain limits for the claimed jobs of capped domains: a job keeps the slot it was
   * deferred with unless that is past (it came back too late: a new one); the others are given slots
   * in one statement for the claim, in the order of the claim.
   */
  const assignDomainSlots = async (claimed: ClaimedJob[]): Promise<Map<number, number | 'parked'>> => {
    const slots = new Map<number, number | 'parked'>();
    const needed = new Map<string, { perSecond: number; jobs: number[] }>();
    const now = Date.now();
    for (const job of claimed) {
      const domain = recipientDomain(job.email);
      const perSecond = domainLimit(domain);
      if (perSecond === undefined) continue;
      if (job.domainSlotAt !== null && job.domainSlotAt >= now - DOMAIN_LATE_MS) {
        slots.set(job.id, job.domainSlotAt);
        continue;
      }
      // The schedule already runs far ahead: no slot yet; it comes back when the schedule is nearer.
      if ((scheduleEnds.get(domain) ?? 0) > now + DOMAIN_HORIZON_MS) {
        slots.set(job.id, 'parked');
        continue;
      }
      const entry = needed.get(domain) ?? { perSecond: perSecond * DOMAIN_PACE, jobs: [] };
      entry.jobs.push(job.id);
      needed.set(domain, entry);
    }
    if (needed.size === 0) return slots;
    const reserved = await untilAnswered('reserve domain slots', () =>
      repo.reserveDomainSlots([...needed].map(([domain, { perSecond, jobs }]) => ({ domain, count: jobs.length, perSecond }))),
    );
    for (const [domain, { jobs }] of needed) {
      const schedule = reserved.get(domain)!;
      jobs.forEach((id, i) => slots.set(id, schedule.firstAtMs + i * schedule.spacingMs));
      scheduleEnds.set(domain, schedule.firstAtMs + jobs.length * schedule.spacingMs);
    }
    return slots;
  };

  return {
    /** The 'campaign-send' consumer: sends the jobs of one message that are still to send. */
    async sendBatch({ campaignId, jobIds }: { campaignId: number; jobIds: number[] }): Promise<{ sent: number }> {
      const mail = await compiledCampaign(campaignId).catch(async (error: unknown) => {
        // A header field on two lines (whatever reached the database) stops the campaign.
        if (!(error instanceof HeaderValueError)) throw error;
        await repo.stop(campaignId, error.message);
        return undefined;
      });
      // Deleted, never sent, or stopped: nothing of this message can go.
      if (!mail) return { sent: 0 };

      /** Why this batch sends no more: the campaign stopped, or paused at the daily quota. */
      let stopped: string | undefined;
      const stop = async (reason: string) => {
        if (stopped) return;
        stopped = reason;
        if (await untilAnswered('stop the campaign', () => repo.stop(campaignId, reason)))
          logger.warn({ campaignId, reason }, 'campaign stopped');
      };
      const pause = async (reason: 'DAILY_QUOTA' | 'WARM_UP') => {
        if (stopped) return;
        stopped = reason === 'WARM_UP' ? WARM_UP_REACHED : DAILY_QUOTA_REACHED;
        const until = await untilAnswered('pause the campaign', () =>
          repo.pause(campaignId, reason, reason === 'WARM_UP' ? limiter.warmUpResumesAt() : undefined),
        );
        if (until)
          logger.warn(
            { campaignId, until },
            reason === 'WARM_UP'
              ? "campaign paused: the warm-up's volume for today is used up"
              : 'campaign paused: the daily quota of SES is used up',
          );
      };
      /** Domain slots of this claim, per job id (epoch milliseconds): the domain limits' schedule. */
      let domainSlots = new Map<number, number | 'parked'>();

      /** Why a claimed job could not be handed to SES (the database went away, mostly); per chunk. */
      let failure: unknown;
      /**
       * Sends one claimed job on the call slot taken for it. The slot is given back once the job's
       * outcome is on record (below), not when SES answers: an answer held only in memory is lost with
       * the process, so until it is written the job still counts against SEND_CONCURRENCY.
       */
      const sendJob = async (job: ClaimedJob): Promise<JobOutcome> => {
        // SES is not called for it: back in the queue, not counted as an attempt.
        const notSent: JobOutcome = { id: job.id, status: 'QUEUED', delayMs: 0, returned: true };
        if (stopped) return notSent;
        const assigned = domainSlots.get(job.id);
        // Parked: back to the queue without a slot or an attempt, counted as a deferral.
        if (assigned === 'parked') return { id: job.id, status: 'QUEUED', delayMs: DOMAIN_PARK_MS, returned: true, parked: true };
        const domainSlot = assigned;
        let waited = false;
        if (domainSlot !== undefined) {
          const inMs = domainSlot - Date.now();
          // Its domain's slot is far: back to the queue with the slot kept; other domains' mails go meanwhile.
          if (inMs > DOMAIN_HOLD_MS)
            return { id: job.id, status: 'QUEUED', delayMs: domainDeferralMs(inMs), returned: true, domainSlotAt: domainSlot };
          waited = inMs > 1;
        }
        let prepared: PreparedMail;
        try {
          // Rendered, serialised and signed before the rate's slot: once it comes, the call goes out at once.
          prepared = await mailer.prepare(
            mail(job.variant)({ jobId: job.id, email: job.email, data: job.data, tags: { campaign_id: campaignId, job_id: job.id } }),
          );
          if (domainSlot !== undefined && domainSlot > Date.now() + 1) await sleep(domainSlot - Date.now());
          // A mail at its domain's slot goes at the next slot of the shared rate this process has.
          const slot = await limiter.take({ urgent: domainSlot !== undefined });
          if (slot !== 'go') {
            await pause(slot === 'warm-up-reached' ? 'WARM_UP' : 'DAILY_QUOTA');
            return notSent;
          }
          // Too late for its domain's slot (a busy process): it would crowd the next ones; a new slot, later.
          if (domainSlot !== undefined && Date.now() > domainSlot + DOMAIN_LATE_MS)
            return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true, waited };
        } catch (error) {
          // SES was never called: the claim is given back as it was.
          failure ??= error;
          return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true };
        }
        if (stopped) return notSent;
        const calledAtMs = Date.now();
        return { ...(await outcomeOf(job, await mailer.send(prepared), calledAtMs, stop, pause)), waited };
      };

      let sent = 0;
      const later: number[] = [];
      let laterDelayMs = 0;
      const pending = [...jobIds];
      while (pending.length > 0 && !stopped) {
        // Only as many jobs as there are free call slots are claimed (the batches of this process
        // share them): a worker that dies leaves UNKNOWN what was on its way to SES, not work it had
        // merely put aside.
        const taken = await callSlots.take(Math.min(pending.length, claimSize(limiter.rate())), { atLeast: claimAtLeast });
        const chunk = pending.splice(0, taken);
        const token = randomUUID();
        failure = undefined;
        // Held from before the claim is asked for: its answer may be lost with the database.
        held.set(token, chunk);
        startHeartbeat();
        try {
          const claimed = await untilAnswered('claim jobs', () => repo.claim(campaignId, chunk, token)).catch((error: unknown) => {
            callSlots.release(taken);
            throw error;
          });
          // Slots of jobs another claim holds are free again at once.
          callSlots.release(taken - claimed.length);
          if (claimed.length === 0) continue;
          try {
            domainSlots = await assignDomainSlots(claimed);
          } catch (error) {
            // Never handed to SES: given back as they were, not left to become UNKNOWN.
            const givenBack = claimed.map((job): JobOutcome => ({ id: job.id, status: 'QUEUED', delayMs: 0, returned: true }));
            await untilAnswered('give back the claim', () => repo.record(campaignId, token, givenBack)).finally(() =>
              callSlots.release(claimed.length),
            );
            throw error;
          }
          held.set(
            token,
            claimed.map((job) => job.id),
          );
          let outcomes: JobOutcome[];
          try {
            outcomes = await Promise.all(claimed.map(sendJob));
            // What SES answered is kept here until the database has it.
            await untilAnswered('record outcomes', () => repo.record(campaignId, token, outcomes));
          } finally {
            callSlots.release(claimed.length);
          }
          /** Jobs of this claim deferred to their domain's slot, by delay: published at once, or they would come back late. */
          const deferred = new Map<number, number[]>();
          for (const outcome of outcomes) {
            if (outcome.status === 'SENT_WAIT_ACK') sent++;
            if (outcome.status !== 'QUEUED') continue;
            if (outcome.domainSlotAt !== undefined || outcome.parked) {
              const group = deferred.get(outcome.delayMs) ?? [];
              group.push(outcome.id);
              deferred.set(outcome.delayMs, group);
            } else if (outcome.delayMs > 0) {
              later.push(outcome.id);
              laterDelayMs = Math.max(laterDelayMs, outcome.delayMs);
            } else if (outcome.returned) pending.push(outcome.id);
          }
          if (!stopped)
            for (const [delayMs, ids] of deferred) await messageQueue.publish('campaign-send', { campaignId, jobIds: ids }, { delayMs });
        } finally {
          held.delete(token);
        }
        // An outage: the given-back jobs are claimed again once the database answers. Anything else
        // fails the message (retried by the queue) with every outcome recorded.
        if (failure !== undefined && !isDatabaseUnavailable(failure)) throw failure;
      }
      if (later.length > 0 && !stopped)
        await messageQueue.publish('campaign-send', { campaignId, jobIds: later }, { delayMs: laterDelayMs });
      await untilAnswered('finish the campaign', () => repo.finishIfDone(campaignId));
      return { sent };
    },

    /** Stops the heartbeat (the process is closing). */
    close(): void {
      clearInterval(heartbeat);
    },
  };
}

export type SendConsumer = ReturnType<typeof createConsumer>;
