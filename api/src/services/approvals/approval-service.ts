/**
 * Send approval (issue 27; docs/decisions/send-approval.md): when the policy applies (policy.ts), a member's Send
 * or Schedule becomes a request and the campaign waits, read-only, as AWAITING_APPROVAL. Another member approves it
 * (it is sent or scheduled as asked, through Send's and Schedule's own paths and checks) or declines it with a
 * reason (a DRAFT again). The requester never answers their own request. Both answers are recorded in the activity
 * log in their own transaction and mailed to the requester by the worker ('approval-mail'), through the shared
 * send rate as a sign-up's confirmation mail is. A withdrawal (the requester's, or any save of the campaign,
 * campaign-service.ts) mails nobody.
 */
import type { Database, Tx } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import type { CampaignService } from '../campaigns/campaign-service.js';
import { campaignRepository, type Campaign } from '../campaigns/repository.js';
import { campaignOrThrow, statusConflict } from '../campaigns/rules.js';
import { scheduleTime, type SchedulingService } from '../campaigns/scheduling-service.js';
import { DomainError } from '../errors.js';
import type { SendingService } from '../sending/sending-service.js';
import { answerMail } from './answer-mail.js';
import type { ApprovalPolicy } from './policy.js';
import type { approvalQueues } from './queues.js';
import { approvalRepository, MAIL_REPUBLISH_AFTER_MS, type ApprovalRequest } from './repository.js';

export const ONLY_DRAFTS_REQUESTED = 'Only a draft campaign can be sent for approval.';
export const APPROVAL_NOT_NEEDED = 'This campaign needs no approval: send or schedule it.';
export const NOT_AWAITING = 'This campaign is not waiting for approval (it may have been answered or withdrawn).';
export const SELF_APPROVAL = 'You asked for this approval: another member must approve or decline it.';
export const REASON_REQUIRED = 'Say why the request is declined.';
const REASON_MAX = 1000;

/** The same member, whatever the case of the address the identity provider gave. */
const sameMember = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export interface ApprovalServiceDeps {
  db: Database;
  queue: MessageQueue<typeof approvalQueues>;
  campaigns: Pick<CampaignService, 'preSendChecks' | 'send'>;
  scheduling: Pick<SchedulingService, 'schedule'>;
  policy: ApprovalPolicy;
  sending: Pick<SendingService, 'sendOne'>;
  mail: { from: { name: string; email: string }; publicUrl: string; configurationSet: string | undefined };
  logger: Logger;
}

export function createApprovalService({ db, queue, campaigns, scheduling, policy, sending, mail, logger }: ApprovalServiceDeps) {
  const repo = approvalRepository(db);
  const campaignRepo = campaignRepository(db);

  /** Not awaited: the answer is committed; a publish lost here is published again by the sweep. */
  const queueMail = (requestId: number): void => {
    queue.publish('approval-mail', { requestId }).catch((err: unknown) => {
      logger.warn({ err, requestId }, 'an approval answer mail could not be queued; the sweep will queue it again');
    });
  };

  /** The waiting request of an AWAITING_APPROVAL campaign, refused to its own requester. */
  const answerable = async (id: number, actor: Actor): Promise<{ campaign: Campaign; request: ApprovalRequest }> => {
    const campaign = await campaignOrThrow(campaignRepo, id);
    const request = await repo.latest(id);
    if (campaign.status !== 'AWAITING_APPROVAL' || request?.state !== 'WAITING') throw statusConflict(campaign.status, NOT_AWAITING);
    if (sameMember(request.requestedByEmail, actor.email)) throw new DomainError('forbidden', SELF_APPROVAL);
    return { campaign, request };
  };

  return {
    /** The campaign with whether its send waits for approval and its latest request: what the editor shows. */
    async withApproval(campaign: Campaign): Promise<Campaign & { approvalRequired: boolean; approval: ApprovalRequest | null }> {
      return { ...campaign, approvalRequired: policy(campaign), approval: (await repo.latest(campaign.id)) ?? null };
    },

    /** A draft that passes Send's checks (and Schedule's, with `at`) waits for approval of a send now or at `at`. */
    async request(id: number, input: { at?: string | undefined }, actor: Actor): Promise<Campaign> {
      const sendAt = input.at === undefined ? null : scheduleTime(input.at);
      const campaign = await campaignOrThrow(campaignRepo, id);
      if (campaign.status !== 'DRAFT') throw statusConflict(campaign.status, ONLY_DRAFTS_REQUESTED);
      if (!policy(campaign)) throw new DomainError('conflict', APPROVAL_NOT_NEEDED);
      await campaigns.preSendChecks(campaign);
      const requested = await db.transaction(async (tx) => {
        const current = await campaignRepo.lockStatus(tx, id);
        if (current?.status !== 'DRAFT' || !(await repo.open(tx, id, actor.email, sendAt)))
          throw statusConflict(current?.status, ONLY_DRAFTS_REQUESTED);
        await recordActivity(tx, {
          actor,
          kind: 'request-approval',
          object: { type: 'campaign', id, name: current.name },
          details: sendAt ? { at: sendAt.toISOString() } : {},
        });
        return campaignOrThrow(campaignRepo, id, tx);
      });
      logger.info({ campaignId: id, at: sendAt?.toISOString() }, 'campaign approval requested');
      return requested;
    },

    /** The waiting request is withdrawn (by any member: the requester, or one who takes the draft over). */
    async withdraw(id: number, actor: Actor): Promise<Campaign> {
      return db.transaction(async (tx) => {
        const current = await campaignRepo.lockStatus(tx, id);
        const waiting = current && (await repo.lockWaiting(tx, id));
        if (!waiting) throw statusConflict(current?.status, NOT_AWAITING);
        await repo.answer(tx, waiting.id, { state: 'WITHDRAWN', by: actor.email, mail: false });
        await recordActivity(tx, { actor, kind: 'withdraw-approval', object: { type: 'campaign', id, name: current.name } });
        return campaignOrThrow(campaignRepo, id, tx);
      });
    },

    /**
     * Another member approves: the campaign is sent, or scheduled at the time asked, through Send's or Schedule's
     * own path (their checks again, their activity entry); the approval is recorded in the same transaction, so a
     * check that fails leaves the request waiting.
     */
    async approve(id: number, actor: Actor): Promise<{ message: string }> {
      const { request } = await answerable(id, actor);
      const approval = {
        within: async (tx: Tx) => {
          const waiting = await repo.lockWaiting(tx, id);
          if (waiting?.id !== request.id) throw new DomainError('conflict', NOT_AWAITING);
          await repo.answer(tx, request.id, { state: 'APPROVED', by: actor.email, mail: true });
          const name = (await campaignRepo.lockStatus(tx, id))?.name ?? null;
          await recordActivity(tx, {
            actor,
            kind: 'approve',
            object: { type: 'campaign', id, name },
            details: { requestedBy: request.requestedByEmail, ...(request.at ? { at: request.at } : {}) },
          });
        },
      };
      let message: string;
      if (request.at) {
        await scheduling.schedule(id, request.at, actor, { approval });
        message = `Approved: the campaign is scheduled for ${request.at}.`;
      } else {
        message = `Approved: ${(await campaigns.send(id, actor, { approval })).message}`;
      }
      queueMail(request.id);
      logger.info({ campaignId: id, requestId: request.id }, 'campaign approved');
      return { message };
    },

    /** Another member declines, with a reason for the requester: the campaign is a DRAFT again. */
    async decline(id: number, reason: unknown, actor: Actor): Promise<Campaign> {
      const why = typeof reason === 'string' ? reason.trim() : '';
      if (!why) throw new DomainError('invalid', REASON_REQUIRED);
      if (why.length > REASON_MAX || why.includes('\u0000'))
        throw new DomainError('invalid', `The reason must be at most ${REASON_MAX} characters.`);
      const { request } = await answerable(id, actor);
      const declined = await db.transaction(async (tx) => {
        const current = await campaignRepo.lockStatus(tx, id);
        const waiting = current && (await repo.lockWaiting(tx, id));
        if (!waiting || waiting.id !== request.id) throw statusConflict(current?.status, NOT_AWAITING);
        await repo.answer(tx, waiting.id, { state: 'DECLINED', by: actor.email, reason: why, mail: true });
        await recordActivity(tx, {
          actor,
          kind: 'decline',
          object: { type: 'campaign', id, name: current.name },
          // Not `reason`, which the log's other entries use for a code (a suppression's): this one is a member's words.
          details: { requestedBy: request.requestedByEmail, declineReason: why },
        });
        return campaignOrThrow(campaignRepo, id, tx);
      });
      queueMail(request.id);
      logger.info({ campaignId: id, requestId: request.id }, 'campaign approval declined');
      return declined;
    },

    /**
     * Sends one answer mail (the worker, for each 'approval-mail' message), at most once to SES: claimed first, and
     * an answer that does not say whether SES took it is recorded, never retried. Throws when SES took no part of
     * the call (throttled, quota used up, unreachable): the queue tries again later.
     */
    async sendMail(requestId: number): Promise<void> {
      const answered = await repo.claimMail(requestId);
      if (!answered) return;
      const outcome = await sending.sendOne(answerMail(answered, mail));
      switch (outcome.kind) {
        case 'sent':
          await repo.mailOutcome(requestId, 'sent');
          return;
        case 'unknown':
        case 'rejected':
          // Unknown: SES may have taken it, and a second try could mail twice. Rejected: it never will.
          logger.warn({ requestId, reason: outcome.reason }, `an approval answer mail was ${outcome.kind}; not sent again`);
          await repo.mailOutcome(requestId, outcome.kind);
          return;
        default:
          await repo.releaseMail(requestId);
          throw new Error(`approval answer mail ${requestId} not sent yet (${outcome.kind}: ${outcome.reason})`);
      }
    },

    /** Publishes again the answer mails whose message was lost. */
    async requeueMails(olderThanMs = MAIL_REPUBLISH_AFTER_MS): Promise<number> {
      const ids = await repo.staleQueuedMails(olderThanMs, 1000);
      for (const requestId of ids) await queue.publish('approval-mail', { requestId });
      if (ids.length > 0) logger.info({ mails: ids.length }, 'approval answer mails queued again');
      return ids.length;
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
