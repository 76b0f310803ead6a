/**
 * The producer of sending, in the API process (and in the worker for a scheduled start and the
 * sweep): `dispatch` is the one way jobs get sent. See sending-service.ts for the whole protocol.
 *
 * In one transaction it creates or resets jobs and marks the campaign SENDING (the first send also
 * snapshots the html with its links); then it publishes the queued job ids in batches with the
 * broker's confirm. Send, continue, a scheduled start and the report's "retry failed", "send to
 * NOT_SENT", "send to contact" and "resend unconfirmed" are all dispatches; whatever is published
 * twice is harmless, because the consumer's claims decide what is sent.
 */
import type { SendingSettings } from '../../config.js';
import type { Database, Tx } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';
import { snapshotLinks } from '../../mail/links.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import type { sendingQueues } from './queues.js';
import { recordActivity, type ActivityKind, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { claimRepository } from './claim-repository.js';
import {
  dispatchRepository,
  VARIANT_LINK_POSITIONS,
  type CreatedJobs,
  type LockedCampaign,
  type NewJobs,
  type Requeue,
  type VariantChoice,
} from './dispatch-repository.js';
import { segmentRepository } from '../segments/repository.js';
import { checkRule, type CheckedRule } from '../segments/rule.js';

export const CAMPAIGN_NOT_FOUND = 'Campaign not found';
const PUBLISHES_AT_ONCE = 8;
/** A dispatch of this many jobs or more refreshes the planner's statistics before the workers start. */
const ANALYZE_AFTER_JOBS = 10_000;
/**
 * A dispatch of this many jobs or more answers before its jobs are published (issue 26: a million recipients
 * frozen within 20 s of Send); a smaller one publishes first, which takes milliseconds.
 */
export const PUBLISH_BEHIND_JOBS = 10_000;

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
  /**
   * The A/B test's winner (issue 28), recorded in the dispatch's transaction before the rest's jobs are made
   * with it: a test decided already is a conflict, so the rest is sent once whoever decides twice.
   */
  abTestDecision?: { winner: number; decidedBy: 'AUTOMATIC' | 'MEMBER'; verdict: unknown };
  /** More of the same action, in the dispatch's transaction once the campaign's row is held (an approval, issue 27). */
  within?: (tx: Tx) => Promise<void>;
}

/** A dispatch that would decide, or mail one of the rest of, an A/B test that is not in its test phase. */
export const AB_TEST_NOT_TESTING = 'The A/B test is not in its test phase: it was not sent yet, or its winner was already chosen.';
export const AB_TEST_WAITING = 'The A/B test is in its test phase: the rest of the recipients get the winner once it is chosen.';
export const AB_TEST_TEMPLATE_EMPTY = 'A template variant of the A/B test has no content yet.';

/** Jobs per message: at most 500, and a small campaign still spreads over about 16 messages (and workers). */
export const batchSize = (jobs: number): number => Math.min(500, Math.max(10, Math.ceil(jobs / 16)));

export interface ProducerDeps {
  db: Database;
  messageQueue: MessageQueue<typeof sendingQueues>;
  settings: SendingSettings;
  /** The product's address: the snapshot's hidden link leads there. */
  publicUrl: string;
  logger: Logger;
}

export function createProducer({ db, messageQueue, settings, publicUrl, logger }: ProducerDeps) {
  const repo = dispatchRepository(db);
  const claims = claimRepository(db);
  const segments = segmentRepository(db);

  /**
   * Publishes job ids read a page at a time (`pages`), in messages sized for `total` jobs; answers how
   * many were published. A million-job send holds one page of ids (the repository's ID_PAGE), not all.
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
          while (next < batches.length) await messageQueue.publish('campaign-send', { campaignId, jobIds: batches[next++]! });
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

  /**
   * The rule a dispatch's new jobs follow when the campaign targets a segment (issue 26). The first send reads
   * the segment (its row held until the send commits, so it is not deleted meanwhile), checks its rule against
   * the audience as it is now and copies its name and rule beside the campaign in the same transaction; every
   * later dispatch (continue, NOT_SENT, one contact) follows that copy, whatever became of the segment.
   */
  const segmentOf = async (
    tx: Tx,
    campaignId: number,
    audienceId: number,
    campaign: LockedCampaign,
    firstSend: boolean,
  ): Promise<CheckedRule | undefined> => {
    if (campaign.segmentRule === null && (!firstSend || campaign.segmentId === null)) return undefined;
    const context = await segments.ruleContext(audienceId, tx);
    if (campaign.segmentRule !== null) return checkRule(campaign.segmentRule, { ...context, mode: 'as-sent' });
    const segment = await segments.lock(tx, campaign.segmentId!, 'share');
    if (!segment) return undefined;
    const rule = checkRule(segment.rule, context);
    await repo.saveSegmentSnapshot(tx, campaignId, segment);
    return rule;
  };

  /**
   * Creates or resets jobs, marks the campaign SENDING and publishes its queued jobs (all of them
   * when it was not sending; only this dispatch's when it was). Answers how many were published.
   */
  const dispatch = async (campaignId: number, plan: DispatchPlan): Promise<{ queued: number; droppedRecipients: number }> => {
    const { wasSending, created, requeued, droppedRecipients } = await db.transaction(async (tx) => {
      const campaign = await repo.lockCampaign(tx, campaignId, { skipLocked: plan.skipLocked === true });
      if (!campaign) throw plan.skipLocked ? new DomainError('conflict', plan.conflict) : new DomainError('not-found', CAMPAIGN_NOT_FOUND);
      if (!plan.from.includes(campaign.status)) throw new DomainError('conflict', plan.conflict);
      const ab = campaign.abTest;
      if (plan.abTestDecision && !(ab && (await repo.decideAbTest(tx, campaignId, plan.abTestDecision))))
        throw new DomainError('conflict', AB_TEST_NOT_TESTING);
      if (plan.within) await plan.within(tx);
      if (plan.snapshot) {
        // The hidden link leads to the product's own address: a scanner following it harms nothing.
        const hiddenHref = `${publicUrl.replace(/\/+$/, '')}/`;
        const snapshot = snapshotLinks(plan.snapshot.html, hiddenHref);
        const linkIds = await repo.insertLinks(tx, campaignId, snapshot.links);
        await repo.saveSnapshot(tx, campaignId, snapshot.html(linkIds), plan.snapshot.plainText);
        // A template variant is snapshotted as the campaign's own html is, its links in a range of their own.
        for (const variant of ab ? await repo.variantTemplates(tx, campaignId) : []) {
          if (!variant.html?.trim()) throw new DomainError('invalid', AB_TEST_TEMPLATE_EMPTY);
          const own = snapshotLinks(variant.html, hiddenHref);
          const offset = (variant.position + 1) * VARIANT_LINK_POSITIONS;
          const ids = await repo.insertLinks(
            tx,
            campaignId,
            own.links.map((link) => ({ ...link, position: link.position + offset })),
          );
          await repo.saveVariantSnapshot(tx, campaignId, variant.position, own.html(ids), variant.plainText);
        }
      }
      // A follow-up's first send leaves out whom the original reached after the follow-up was made.
      const droppedRecipients = plan.snapshot && campaign.followUp ? await repo.dropReachedRecipients(tx, campaignId) : 0;
      const segment =
        campaign.audienceId === null
          ? undefined
          : await segmentOf(tx, campaignId, campaign.audienceId, campaign, plan.snapshot !== undefined);
      // An A/B test's first send freezes its test share; until the winner is chosen the rest waits (no new job);
      // then the rest's jobs get the winner.
      const winner = plan.abTestDecision?.winner ?? ab?.winner ?? null;
      const variants: VariantChoice | 'wait' | undefined = !ab
        ? undefined
        : winner !== null
          ? { variant: winner }
          : plan.snapshot && !ab.started
            ? { split: ab }
            : 'wait';
      if (variants === 'wait' && plan.newJobs && plan.newJobs.contacts !== 'all') throw new DomainError('conflict', AB_TEST_WAITING);
      const created: CreatedJobs =
        plan.newJobs && campaign.audienceId !== null && variants !== 'wait'
          ? await repo.createJobs(tx, campaignId, campaign.audienceId, plan.newJobs, campaign.followUp, segment, variants)
          : { count: 0, firstId: null, lastId: null };
      if (variants !== undefined && variants !== 'wait' && 'split' in variants) await repo.startAbTest(tx, campaignId);
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
    const dispatched = created.count + requeued.length;
    const publishing = async (): Promise<number> => {
      if (dispatched >= ANALYZE_AFTER_JOBS) await repo.analyzeJobs();
      const [pages, total] = wasSending
        ? [dispatchedPages(campaignId, requeued, created), dispatched]
        : [queuedPages(campaignId), await repo.countQueued(campaignId)];
      // The jobs are recorded: if the broker fails now, the sweep publishes them once the campaign idles.
      const queued = await publish(campaignId, pages, total).catch((err: unknown) => {
        logger.error({ err, campaignId }, 'could not publish the jobs of a campaign; the sweep will');
        return total;
      });
      if (queued === 0) await claims.finishIfDone(campaignId);
      return queued;
    };
    if (dispatched < PUBLISH_BEHIND_JOBS) return { queued: await publishing(), droppedRecipients };
    // A large dispatch answers once its jobs are committed, and publishes them behind its answer: the member does
    // not wait for a million ids to reach the broker. Should this process stop meanwhile, the campaign idles, and
    // the sweep publishes its queued jobs again (sweep.ts; a job published twice is claimed once).
    void publishing().catch((err: unknown) =>
      logger.error({ err, campaignId }, 'could not publish the jobs of a campaign; the sweep will'),
    );
    return { queued: dispatched, droppedRecipients };
  };

  return {
    dispatch,

    /** The campaign's UNKNOWN jobs, and those unconfirmed long enough for a deliberate resend. */
    async unknownJobs(campaignId: number): Promise<{ unknown: number; unconfirmed: number; resendAfterMs: number }> {
      return {
        ...(await repo.unknownJobs(campaignId, settings.unconfirmedResendAfterMs)),
        resendAfterMs: settings.unconfirmedResendAfterMs,
      };
    },

    /** Queues the campaign's long-unconfirmed UNKNOWN jobs again, through the same dispatch as every send. */
    resendUnconfirmed(campaignId: number, plan: Omit<DispatchPlan, 'requeue'>): Promise<{ queued: number }> {
      return dispatch(campaignId, { ...plan, requeue: { unconfirmedForMs: settings.unconfirmedResendAfterMs } });
    },

    /** Publishes every queued job of a campaign again (its messages were lost); answers how many. */
    async publishQueued(campaignId: number): Promise<number> {
      return publish(campaignId, queuedPages(campaignId), await repo.countQueued(campaignId));
    },
  };
}

export type Producer = ReturnType<typeof createProducer>;
