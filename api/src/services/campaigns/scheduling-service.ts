/**
 * Scheduled sending (an addition to the spec; docs/decisions/sending.md, Scheduled sending): a
 * draft that passes Send's pre-send checks is SCHEDULED for a time to come and frozen until then;
 * unscheduling makes it a DRAFT again; the workers' schedule sweep starts it through Send's own
 * dispatch when its time has come.
 */
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import type { ApprovedSend, CampaignService, SendContent } from './campaign-service.js';
import { campaignRepository, type Campaign } from './repository.js';
import { APPROVAL_NEEDED, CAMPAIGN_NOT_FOUND, campaignOrThrow, statusConflict } from './rules.js';
import { scheduleRepository } from './schedule-repository.js';

export const ONLY_DRAFTS_SCHEDULED = 'Only a draft campaign can be scheduled.';
export const ONLY_SCHEDULED_UNSCHEDULED = 'This campaign is not scheduled (it may have started sending already).';
export const SCHEDULE_IN_PAST = 'The scheduled time has passed; choose a time in the future.';
export const SCHEDULE_TOO_FAR = 'A campaign can be scheduled at most a year ahead.';
export const SCHEDULE_INVALID = 'The scheduled time is not a valid date and time.';
/** Why a due campaign went back to DRAFT instead of starting: the failed check's own message follows. */
export const scheduleFailed = (at: Date, reason: string) => `The schedule for ${at.toISOString()} did not start: ${reason}`;
const SCHEDULE_MAX_AHEAD_MS = 366 * 24 * 3600_000;

/** A time to schedule at: a valid date, to come, at most a year ahead (Schedule's checks; a request for approval's too). */
export function scheduleTime(at: string): Date {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) throw new DomainError('invalid', SCHEDULE_INVALID);
  if (when.getTime() <= Date.now()) throw new DomainError('invalid', SCHEDULE_IN_PAST);
  if (when.getTime() > Date.now() + SCHEDULE_MAX_AHEAD_MS) throw new DomainError('invalid', SCHEDULE_TOO_FAR);
  return when;
}
/** Due campaigns one sweep starts at most (the next sweep, a second later, takes the rest). */
const DUE_PER_SWEEP = 20;

export interface SchedulingServiceDeps {
  db: Database;
  /** Send's pre-send checks and dispatch, so that a scheduled campaign is checked and started as Send does. */
  campaigns: Pick<CampaignService, 'preSendChecks' | 'startSending' | 'needsApproval'>;
  logger: Logger;
}

export function createSchedulingService({ db, campaigns, logger }: SchedulingServiceDeps) {
  const repo = campaignRepository(db);
  const schedules = scheduleRepository(db);

  return {
    /**
     * A draft that passes the pre-send checks is SCHEDULED for `at` (a time to come, at most a year ahead). A draft
     * that needs approval is refused (409); an approved request (services/approvals) is scheduled from
     * AWAITING_APPROVAL, its approval in the same transaction.
     */
    async schedule(id: number, at: string, actor: Actor, approved?: ApprovedSend): Promise<Campaign> {
      const when = scheduleTime(at);
      const from = approved ? 'AWAITING_APPROVAL' : 'DRAFT';
      const campaign = await campaignOrThrow(repo, id);
      if (campaign.status !== from) throw statusConflict(campaign.status, ONLY_DRAFTS_SCHEDULED);
      if (!approved && campaigns.needsApproval(campaign)) throw new DomainError('conflict', APPROVAL_NEEDED);
      await campaigns.preSendChecks(campaign);
      // One transaction per action, so that what records the action can join it. The answer is read in
      // it too: once it commits, the campaign may be unscheduled and deleted before a later read.
      const scheduled = await db.transaction(async (tx) => {
        const current = await repo.lockStatus(tx, id);
        if (current?.status !== from) throw statusConflict(current?.status, ONLY_DRAFTS_SCHEDULED);
        if (approved) await approved.approval.within(tx);
        await schedules.markScheduled(tx, id, when, actor.email, from);
        const object = { type: 'campaign' as const, id, name: current.name };
        await recordActivity(tx, { actor, kind: 'schedule', object, details: { at: when.toISOString() } });
        return campaignOrThrow(repo, id, tx);
      });
      logger.info({ campaignId: id, at: when.toISOString() }, 'campaign scheduled');
      return scheduled;
    },

    /**
     * A SCHEDULED campaign is a DRAFT again. Answered from its own transaction: a DELETE waiting for
     * the row lock deletes the draft the moment this commits, so a read after it would say 404.
     */
    async unschedule(id: number, actor: Actor): Promise<Campaign> {
      const unscheduled = await db.transaction(async (tx) => {
        const current = await repo.lockStatus(tx, id);
        if (current === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        if (current.status !== 'SCHEDULED') throw new DomainError('conflict', ONLY_SCHEDULED_UNSCHEDULED);
        await schedules.markUnscheduled(tx, id, { updatedByEmail: actor.email });
        await recordActivity(tx, { actor, kind: 'unschedule', object: { type: 'campaign', id, name: current.name } });
        return campaignOrThrow(repo, id, tx);
      });
      logger.info({ campaignId: id }, 'campaign unscheduled');
      return unscheduled;
    },

    /**
     * The workers' sweep: starts the scheduled campaigns whose time has come (or passed while no
     * worker or no database was there) through Send's dispatch, after running the pre-send checks
     * again. A campaign that fails them goes back to DRAFT with the reason in errorMessage. Any number
     * of workers may sweep at once: the dispatch takes the campaign's row lock and starts it only from
     * SCHEDULED, so one of them starts it and the others find it locked or SENDING.
     */
    async startDue(): Promise<{ started: number[]; returned: number[] }> {
      const started: number[] = [];
      const returned: number[] = [];
      for (const id of await schedules.dueCampaignIds(DUE_PER_SWEEP)) {
        const campaign = await repo.find(id);
        if (campaign?.status !== 'SCHEDULED' || campaign.scheduledAt === null || campaign.scheduledAt === undefined) continue;
        let content: SendContent;
        try {
          content = await campaigns.preSendChecks(campaign);
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error;
          const at = new Date(campaign.scheduledAt);
          const errorMessage = scheduleFailed(at, error.message);
          if (await db.transaction((tx) => schedules.markUnscheduled(tx, id, { errorMessage }))) {
            logger.warn({ campaignId: id, reason: error.message }, 'a scheduled campaign failed its pre-send checks; it is a draft again');
            returned.push(id);
          }
          continue;
        }
        try {
          // Recorded as a send by the member who scheduled it (the last to change the campaign).
          const scheduledBy = campaign.updatedByEmail;
          const activity = scheduledBy
            ? { actor: { email: scheduledBy }, kind: 'send' as const, details: { scheduledAt: campaign.scheduledAt } }
            : undefined;
          const { queued } = await campaigns.startSending(id, content, {
            from: ['SCHEDULED'],
            conflict: ONLY_SCHEDULED_UNSCHEDULED,
            // Workers racing for a due campaign: the one holding its row starts it, the others pass by.
            skipLocked: true,
            ...(activity ? { activity } : {}),
          });
          logger.info({ campaignId: id, jobs: queued, scheduledAt: campaign.scheduledAt }, 'scheduled campaign sending started');
          started.push(id);
        } catch (error) {
          // Another worker holds it or has started it, or it was unscheduled meanwhile.
          if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'not-found')) continue;
          throw error;
        }
      }
      return { started, returned };
    },
  };
}

export type SchedulingService = ReturnType<typeof createSchedulingService>;
