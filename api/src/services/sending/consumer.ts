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
 * (or not at all: it is held for a new one), which keeps every sliding second at or under the
 * limit: slots 1 / (0.7 L) apart, each mail reaching SES up to 0.24 s + J after its own, put at most
 * floor(0.7 L (1.24 + J)) + 1 mails in any second, which is L or less while J, the call's own way to
 * SES on a busy machine, stays under 0.19 s (at 0.8 a loaded run put 5 mails in a second of a limit of 4). The
 * tolerance is wide because a mail at its slot still waits for the shared rate's next slot.
 */
export const DOMAIN_PACE = 0.7;
export const DOMAIN_LATE_MS = 240;
/**
 * A capped domain's queued jobs wait in the database, held, and are released at the domain's pace
 * (release_domain_jobs, migration 0037): every worker, each DOMAIN_RELEASE_EVERY_MS, releases the
 * next held jobs whose slots fall within DOMAIN_RELEASE_AHEAD_MS and sends them itself, each waiting
 * in place for its slot. The mails of a domain in flight are at most its pace times that, whatever its
 * backlog. Two workers releasing keep the schedule full while one of them is late on a busy machine.
 */
export const DOMAIN_RELEASE_EVERY_MS = 100;
export const DOMAIN_RELEASE_AHEAD_MS = 1_600;
/**
 * A release's first slot is at least this far ahead: time for the claim and the mail's rendering, or
 * the first mails of a schedule that ran dry (a late release) would miss their slots on a busy machine.
 */
export const DOMAIN_RELEASE_LEAD_MS = 600;
/** How often a worker reads which domains have held jobs (a new capped backlog waits at most this long for its first release). */
export const DOMAIN_HELD_READ_MS = 1_000;
/** A released job is claimed this long before its slot: time for the claim and the mail's rendering on a busy machine. */
export const DOMAIN_CLAIM_LEAD_MS = 500;
/** A released job unclaimed this long after its slot was lost with its worker: the sweep puts it back in line. */
export const DOMAIN_RELEASE_LOST_MS = 10_000;

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
  /** The SES calls this process may have in flight: a batch takes one per job before claiming it. */
  const callSlots = createSlots(settings.concurrency);
  /** A claim costs a round trip to the database: a batch waits for a few free slots rather than claim one job at a time. */
  const claimAtLeast = Math.ceil(settings.concurrency / 4);
  /** Batches of released jobs waiting for call slots: they go first, or their slots pass while the broker's batches take every one. */
  let releasedWaiting = 0;
  /**
   * Call slots for a claim. Released jobs have a slot of their domain's schedule soon: they take call slots
   * before the broker's batches, which give back what they took while one waits (the woken waiter takes
   * them before this batch asks again). Their number is bounded by the domains' pace, so the others still flow.
   */
  const takeCallSlots = async (wanted: number, released: boolean): Promise<number> => {
    if (released) {
      releasedWaiting++;
      try {
        return await callSlots.take(wanted, { atLeast: 1 });
      } finally {
        releasedWaiting--;
      }
    }
    for (;;) {
      const taken = await callSlots.take(wanted, { atLeast: claimAtLeast });
      if (releasedWaiting === 0) return taken;
      callSlots.release(taken);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
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
   * The domain slots of a claim's jobs of capped domains: the slot a job was released with, while it can
   * still be kept (not more than DOMAIN_LATE_MS past, not further ahead than a release gives); 'held'
   * for the others (first claimed from the dispatch's message, or come too late): back to wait in
   * the database for the domain's release.
   */
  const domainSlotsOf = (claimed: ClaimedJob[]): Map<number, number | { held: string }> => {
    const slots = new Map<number, number | { held: string }>();
    const now = Date.now();
    for (const job of claimed) {
      const domain = recipientDomain(job.email);
      if (domainLimit(domain) === undefined) continue;
      const slot = job.domainSlotAt;
      const kept = slot !== null && slot >= now - DOMAIN_LATE_MS && slot <= now + 2 * DOMAIN_RELEASE_AHEAD_MS;
      slots.set(job.id, kept ? slot : { held: domain });
    }
    return slots;
  };

  /** Campaigns whose capped jobs this process has held (once each: a scan of the campaign's queued jobs). */
  const cappedHeld = new Map<number, Promise<unknown>>();
  const cappedExact = settings.domainLimits.filter((l) => !l.pattern.startsWith('*.')).map((l) => l.pattern);
  const cappedSuffixes = settings.domainLimits.filter((l) => l.pattern.startsWith('*.')).map((l) => l.pattern.slice(1));
  /** Holds every capped job of the campaign for its domain's release, the first time this process sends it. */
  const holdCapped = (campaignId: number): Promise<unknown> => {
    if (settings.domainLimits.length === 0) return Promise.resolve();
    let holding = cappedHeld.get(campaignId);
    if (!holding) {
      if (cappedHeld.size >= COMPILED_CAMPAIGNS) cappedHeld.delete(cappedHeld.keys().next().value!);
      holding = untilAnswered('hold capped jobs', () => repo.holdCapped(campaignId, cappedExact, cappedSuffixes));
      // Tried again by the next batch if it failed.
      void holding.catch(() => cappedHeld.delete(campaignId));
      cappedHeld.set(campaignId, holding);
    }
    return holding;
  };
  /** The domains with held jobs, as last read (at most every DOMAIN_HELD_READ_MS: a round trip less per release). */
  let heldDomains: { domain: string; perSecond: number }[] = [];
  let heldReadAt = -Infinity;
  /** Batches of released jobs this process is sending (not through the broker): closing waits for them. */
  const releasedBatches = new Set<Promise<unknown>>();

  const consumer = {
    /** The 'campaign-send' consumer: sends the jobs of one message that are still to send. */
    async sendBatch(
      { campaignId, jobIds }: { campaignId: number; jobIds: number[] },
      { released = false }: { released?: boolean } = {},
    ): Promise<{ sent: number }> {
      const mail = await compiledCampaign(campaignId).catch(async (error: unknown) => {
        // A header field on two lines (whatever reached the database) stops the campaign.
        if (!(error instanceof HeaderValueError)) throw error;
        await repo.stop(campaignId, error.message);
        return undefined;
      });
      // Deleted, never sent, or stopped: nothing of this message can go.
      if (!mail) return { sent: 0 };
      if (!released) await holdCapped(campaignId);

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
      /** Domain slots of this claim, per job id (epoch milliseconds), or held for the domain's release. */
      let domainSlots = new Map<number, number | { held: string }>();

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
        // No slot of its domain: held in the database, without an attempt, until the domain's release (a deferral).
        if (typeof assigned === 'object') return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true, held: assigned.held };
        const domainSlot = assigned;
        const waited = domainSlot !== undefined && domainSlot - Date.now() > 1;
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
          // Too late for its domain's slot (a busy process): it would crowd the next ones; held for a new slot.
          if (domainSlot !== undefined && Date.now() > domainSlot + DOMAIN_LATE_MS)
            return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true, waited, held: recipientDomain(job.email) };
        } catch (error) {
          // SES was never called: the claim is given back as it was.
          failure ??= error;
          return { id: job.id, status: 'QUEUED', delayMs: 0, returned: true };
        }
        // Stopped meanwhile: not sent. Paused meanwhile (the day's volume or the quota used up by the others'
        // slots): this one's slot was within it, so it goes; dropped, the day would send less than its volume.
        if (stopped && stopped !== WARM_UP_REACHED && stopped !== DAILY_QUOTA_REACHED) return notSent;
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
        const taken = await takeCallSlots(Math.min(pending.length, released ? pending.length : claimSize(limiter.rate())), released);
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
          domainSlots = domainSlotsOf(claimed);
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
          for (const outcome of outcomes) {
            if (outcome.status === 'SENT_WAIT_ACK') sent++;
            // Held jobs wait for their domain's release, not for a message.
            if (outcome.status !== 'QUEUED' || outcome.held !== undefined) continue;
            if (outcome.delayMs > 0) {
              later.push(outcome.id);
              laterDelayMs = Math.max(laterDelayMs, outcome.delayMs);
            } else if (outcome.returned) pending.push(outcome.id);
          }
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

    /**
     * Releases every capped domain's next held jobs as its schedule frees and sends them in this
     * process, without waiting for them (the next release is due before they are done); answers how
     * many it released. Run every DOMAIN_RELEASE_EVERY_MS by each worker.
     */
    async releaseDomainJobs(): Promise<number> {
      if (settings.domainLimits.length === 0) return 0;
      let released: { campaignId: number; jobId: number; slotMs: number }[];
      try {
        if (Date.now() - heldReadAt >= DOMAIN_HELD_READ_MS) {
          heldDomains = (await repo.heldDomains()).flatMap((domain) => {
            const perSecond = domainLimit(domain);
            return perSecond === undefined ? [] : [{ domain, perSecond: perSecond * DOMAIN_PACE }];
          });
          heldReadAt = Date.now();
        }
        // No more of a domain at once than this process has call slots.
        released = await repo.releaseDomainJobs(heldDomains, DOMAIN_RELEASE_LEAD_MS, DOMAIN_RELEASE_AHEAD_MS, settings.concurrency);
      } catch (error) {
        // Ten times a second: an outage is said once by the send path, not here at every release.
        if (isDatabaseUnavailable(error)) return 0;
        throw error;
      }
      // Claimed DOMAIN_CLAIM_LEAD_MS before their slots, a batch per campaign and tenth of a second of
      // slots: a call slot is held for the last moments before the domain's slot only, not for the whole
      // release ahead (held longer, they starved the claims of the next releases on a busy worker).
      const now = Date.now();
      const batches = new Map<string, { campaignId: number; claimAt: number; jobIds: number[] }>();
      for (const { campaignId, jobId, slotMs } of released) {
        const claimAt = slotMs - DOMAIN_CLAIM_LEAD_MS;
        const key = `${campaignId}:${Math.floor((claimAt - now) / DOMAIN_RELEASE_EVERY_MS)}`;
        const batch = batches.get(key) ?? { campaignId, claimAt, jobIds: [] };
        batch.claimAt = Math.min(batch.claimAt, claimAt);
        batch.jobIds.push(jobId);
        batches.set(key, batch);
      }
      for (const { campaignId, claimAt, jobIds } of batches.values()) {
        const batch = sleep(Math.max(0, claimAt - Date.now()))
          .then(() => consumer.sendBatch({ campaignId, jobIds }, { released: true }))
          .catch((err: unknown) =>
            // What it could not claim is put back in line by the sweep (DOMAIN_RELEASE_LOST_MS).
            logger.warn({ err, campaignId }, 'a batch of released jobs failed; the sweep puts them back in line'),
          );
        releasedBatches.add(batch);
        void batch.finally(() => releasedBatches.delete(batch));
      }
      return released.length;
    },

    /** Waits for the batches of released jobs still sending (the worker is closing, no release runs any more). */
    async drainReleased(): Promise<void> {
      while (releasedBatches.size > 0) await Promise.allSettled([...releasedBatches]);
    },

    /** Stops the heartbeat (the process is closing). */
    close(): void {
      clearInterval(heartbeat);
    },
  };
  return consumer;
}

export type SendConsumer = ReturnType<typeof createConsumer>;
