/**
 * Campaigns: the rules behind the campaign calls (docs/product.md). No HTTP, AMQP or
 * SQL here: errors are DomainErrors, data goes through the repository, sending through the
 * sending service (services/sending), which is also what reports use. Beside this file, each a
 * service of its own: scheduling-service.ts, follow-up-service.ts and test-mail-service.ts; what
 * they share is in rules.ts.
 *
 * Only a DRAFT is edited or sent; any campaign may be renamed; a SENDING one cannot be deleted.
 * Send runs the spec's five pre-send checks in their order with their messages, then requires an
 * authorized sender and header fields on one line, before anything is created or sent.
 */
import type { Database, Tx } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { lackingTags, resolveFields, tagsWithoutFallbackIn } from '../../mail/merge-tags.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { toPage, type Page, type PageQuery } from '../paging.js';
import type { DispatchPlan, SendingService } from '../sending/sending-service.js';
import { SEGMENT_NOT_IN_AUDIENCE, type SegmentService } from '../segments/segment-service.js';
import type { ApprovalPolicy } from '../approvals/policy.js';
import { approvalRepository } from '../approvals/repository.js';
import { abTestRepository } from './ab-test-repository.js';
import { drawSeed } from './ab-test-service.js';
import {
  campaignRepository,
  type Campaign,
  type CampaignDraftFields,
  type CampaignStatus,
  type CampaignSummary,
  type CampaignTemplateContent,
  type FollowUpRecipients,
  type ValidationResult,
} from './repository.js';
import {
  APPROVAL_NEEDED,
  audienceOrThrow,
  authorizedSenderCheck,
  CAMPAIGN_NOT_FOUND,
  campaignOrThrow,
  derivedName,
  noNul,
  oneLine,
  SENDER_NOT_AUTHORIZED,
  statusConflict,
  TEMPLATE_EMPTY,
  templateOrThrow,
} from './rules.js';

export const NAME_REQUIRED = 'Fill your campaign name';
export const ONLY_DRAFTS_EDITED = 'Only a draft campaign can be edited; a sent campaign can only be renamed.';
export const NOT_WHILE_SENDING = 'A campaign cannot be deleted while it is sending.';
export const ONLY_DRAFTS_SENT = 'Only a draft campaign can be sent.';
export const ONLY_ERRORS_CONTINUED = 'Only a campaign stopped by an error can continue sending.';
export const ONLY_SENDING_STOPPED = 'Only a campaign that is sending can be stopped.';
/** The error of a campaign a member stopped (issue 28): continue picks it up as any stopped campaign. */
export const stoppedBy = (email: string) => `Sending was stopped by ${email}. Continue sends to the contacts not sent to yet.`;
// The pre-send checks, in the spec's order and words (docs/product.md, the screens' checks).
export const SELECT_AUDIENCE = 'Please select an audience';
export const SELECT_TEMPLATE = 'Please select a template';
export const INPUT_SUBJECT = 'Please input email subject';
export const INPUT_FROM_NAME = "Please input name for who's sending this campaign";
export const INPUT_FROM_EMAIL = "Please input email for who's sending this campaign";
/**
 * An addition to the spec's checks: a tag (without a fallback) that names no field of the audience and is not `email`
 * would be empty in every copy, which is a mistake rather than a missing value.
 */
export const lacksTagsMessage = (tags: string[]) =>
  `The audience has no field for ${tags.length === 1 ? 'the merge tag' : 'the merge tags'} ${tags.map((tag) => `{{${tag}}}`).join(', ')}: add ${
    tags.length === 1 ? 'the field' : 'the fields'
  } to the audience, or give ${tags.length === 1 ? 'the tag' : 'each tag'} a fallback such as {{${tags[0]}|friend}}.`;
export const AUDIENCE_IMPORTING = 'The audience is still importing its contacts; send once the import is over.';
export const SENDING_STARTED = 'The campaign is being sent.';
export const CONTINUE_STARTED = 'Campaign will continue sending to remaining contacts.';
export const FOLLOW_UP_AUDIENCE = "A follow-up goes to its original's contacts; its audience cannot change.";
/** What a follow-up's send says of the recipients the original reached after the follow-up was made. */
export const droppedNote = (followUp: { recipients: FollowUpRecipients; campaignName: string }, n: number) =>
  `${n} ${n === 1 ? 'recipient' : 'recipients'} ${followUp.recipients === 'NOT_CLICKED' ? 'clicked in' : 'opened'} “${followUp.campaignName}” since the follow-up was made and ${n === 1 ? 'was' : 'were'} left out.`;
/** Entries of the validation answer at most (the contract's bound). */
export const VALIDATION_LIMIT = 1000;

const COPY_SUFFIX = ' (copy)';
const DRAFT_FIELDS = ['audienceId', 'templateId', 'fromName', 'fromEmail', 'subject', 'previewText', 'segmentId'] as const;

/** The save body (the contract's CampaignUpdateInput). */
export interface CampaignUpdate extends CampaignDraftFields {
  name: string;
  /** Accepted for the editor's convenience and ignored: the audience's own name is shown. */
  audienceName?: string | null;
}

/** The content a send snapshots: the template's, with html (the pre-send checks require it). */
export type SendContent = CampaignTemplateContent & { html: string };

/** How a send starts: from which statuses, the conflict otherwise, and what the activity log records. */
export type SendStart = Pick<DispatchPlan, 'from' | 'conflict' | 'skipLocked' | 'activity' | 'within'>;

/** An approved request's send (services/approvals): from AWAITING_APPROVAL, its approval recorded in the send's transaction. */
export interface ApprovedSend {
  approval: { within: (tx: Tx) => Promise<void> };
}

export interface CampaignServiceDeps {
  db: Database;
  sending: SendingService;
  segments: SegmentService;
  authorizedSenders: readonly string[];
  /** Whether a send or a schedule waits for another member's approval (issue 27); unset: never, the spec's behaviour. */
  needsApproval?: ApprovalPolicy;
  logger: Logger;
}

export function createCampaignService({
  db,
  sending,
  segments,
  authorizedSenders,
  needsApproval = () => false,
  logger,
}: CampaignServiceDeps) {
  const repo = campaignRepository(db);
  const approvals = approvalRepository(db);
  const abTests = abTestRepository(db);
  const isAuthorized = authorizedSenderCheck(authorizedSenders);

  const validName = (name: unknown): string => {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed) throw new DomainError('invalid', NAME_REQUIRED);
    noNul(trimmed);
    return trimmed;
  };

  /** The tags used without a fallback that name no field of the audience (nor the address). */
  const tagsTheAudienceLacks = async (audienceId: number, ...texts: (string | null)[]): Promise<string[]> => {
    const tags = tagsWithoutFallbackIn(...texts);
    return tags.length === 0 ? [] : lackingTags(resolveFields(tags, await repo.mergeFields(audienceId)));
  };

  /**
   * The spec's five pre-send checks in their order, then an authorized sender, header fields on one
   * line, a template with content and an audience not importing: what Send, Schedule and the start
   * of a scheduled campaign all require. Answers the content to snapshot.
   */
  const preSendChecks = async (campaign: Campaign): Promise<SendContent> => {
    const target = campaign.audienceId === null ? undefined : await repo.findAudience(campaign.audienceId);
    if (!target) throw new DomainError('invalid', SELECT_AUDIENCE);
    const content = campaign.templateId === null ? undefined : await repo.findTemplate(campaign.templateId);
    if (!content) throw new DomainError('invalid', SELECT_TEMPLATE);
    if (!campaign.subject?.trim()) throw new DomainError('invalid', INPUT_SUBJECT);
    if (!campaign.fromName?.trim()) throw new DomainError('invalid', INPUT_FROM_NAME);
    if (!campaign.fromEmail?.trim()) throw new DomainError('invalid', INPUT_FROM_EMAIL);
    if (!isAuthorized(campaign.fromEmail)) throw new DomainError('invalid', SENDER_NOT_AUTHORIZED);
    oneLine('subject', campaign.subject);
    oneLine('sender name', campaign.fromName);
    oneLine('preview text', campaign.previewText);
    if (!content.html?.trim()) throw new DomainError('invalid', TEMPLATE_EMPTY);
    if (target.isImporting) throw new DomainError('conflict', AUDIENCE_IMPORTING);
    const lacking = await tagsTheAudienceLacks(target.id, content.html, content.plainText, campaign.subject, campaign.previewText);
    if (lacking.length > 0) throw new DomainError('invalid', lacksTagsMessage(lacking));
    return { ...content, html: content.html };
  };

  /**
   * Send's dispatch, for Send and the schedule sweep: the snapshot and a job for every valid, not
   * suppressed contact; the campaign becomes SENDING.
   */
  const startSending = (id: number, content: SendContent, start: SendStart) =>
    sending.dispatch(id, { ...start, snapshot: { html: content.html, plainText: content.plainText }, newJobs: { contacts: 'all' } });

  return {
    /** The pre-send checks of Send, which Schedule and a scheduled start run too (scheduling-service.ts). */
    preSendChecks,
    startSending,
    needsApproval,

    async list(
      query: PageQuery & { name?: string | undefined; status?: CampaignStatus | undefined },
    ): Promise<{ data: Page<CampaignSummary> }> {
      const { items, totalItems } = await repo.list({ ...query, name: query.name?.trim() || undefined });
      return { data: toPage(items, totalItems, query) };
    },

    get: (id: number): Promise<Campaign> => campaignOrThrow(repo, id),

    /** How many of the campaign's jobs SES confirmed delivered. */
    async deliveredCount(id: number): Promise<number> {
      return repo.deliveredCount(id);
    },

    async create(input: { name: unknown; templateId?: number | undefined }, actor: Actor): Promise<{ id: number }> {
      const name = validName(input.name);
      if (input.templateId !== undefined) await templateOrThrow(repo, input.templateId);
      return db.transaction(async (tx) => {
        const id = await repo.insert(tx, { name, templateId: input.templateId ?? null, updatedByEmail: actor.email });
        await recordActivity(tx, { actor, kind: 'create', object: { type: 'campaign', id, name } });
        return { id };
      });
    },

    /** The full save of a draft, or a rename (name only) of any campaign; a change of name is recorded. */
    async update(id: number, input: CampaignUpdate, actor: Actor): Promise<Campaign> {
      const name = validName(input.name);
      const fields: CampaignDraftFields = {};
      for (const key of DRAFT_FIELDS) if (input[key] !== undefined) Object.assign(fields, { [key]: input[key] });
      const drafting = Object.keys(fields).length > 0;
      const current = await campaignOrThrow(repo, id);
      // A save of a campaign waiting for approval withdraws the request (issue 27): what was approved is what was asked.
      const awaiting = current.status === 'AWAITING_APPROVAL';
      if (current.status === 'SCHEDULED' || (drafting && current.status !== 'DRAFT' && !awaiting))
        throw statusConflict(current.status, ONLY_DRAFTS_EDITED);
      if (current.followUp && fields.audienceId !== undefined && fields.audienceId !== current.audienceId)
        throw new DomainError('conflict', FOLLOW_UP_AUDIENCE);
      for (const field of ['fromName', 'subject', 'previewText'] as const) oneLine(field, fields[field]);
      noNul(fields.fromName, fields.fromEmail, fields.subject, fields.previewText);
      if (fields.audienceId) await audienceOrThrow(repo, fields.audienceId);
      // A segment belongs to one audience: another audience drops it, unless the save names one of the new audience's.
      const audienceId = fields.audienceId !== undefined ? fields.audienceId : current.audienceId;
      if (fields.segmentId === undefined && fields.audienceId !== undefined && fields.audienceId !== current.audienceId && current.segment)
        fields.segmentId = null;
      if (fields.segmentId && audienceId === null) throw new DomainError('invalid', SEGMENT_NOT_IN_AUDIENCE);
      if (fields.templateId) await templateOrThrow(repo, fields.templateId);
      await db.transaction(async (tx) => {
        const before = await repo.lockName(tx, id);
        if (before === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        const waiting = awaiting ? await approvals.lockWaiting(tx, id) : undefined;
        if (waiting) {
          await approvals.answer(tx, waiting.id, { state: 'WITHDRAWN', by: actor.email, mail: false });
          await recordActivity(tx, {
            actor,
            kind: 'withdraw-approval',
            object: { type: 'campaign', id, name: before },
            details: { by: 'edit' },
          });
        }
        // Held until the save commits: a delete of the segment then sees this campaign target it.
        if (fields.segmentId && audienceId !== null) await segments.targetOf(tx, fields.segmentId, audienceId);
        // Sent or scheduled between the read and the write.
        if (!(await repo.update(tx, id, name, fields, actor.email))) throw statusConflict(await repo.status(id), ONLY_DRAFTS_EDITED);
        if (before !== name)
          await recordActivity(tx, { actor, kind: 'rename', object: { type: 'campaign', id, name }, details: { from: before } });
        // A save of the draft's content is recorded with the fields it changed; one that changed none is no edit.
        const was = { ...current, segmentId: current.segment?.id ?? null };
        const changed = DRAFT_FIELDS.filter((key) => key in fields && (fields[key] ?? null) !== (was[key] ?? null));
        if (changed.length > 0)
          await recordActivity(tx, { actor, kind: 'edit', object: { type: 'campaign', id, name }, details: { fields: changed } });
      });
      return campaignOrThrow(repo, id);
    },

    async replicate(id: number, actor: Actor): Promise<{ id: number }> {
      const name = derivedName((await campaignOrThrow(repo, id)).name, COPY_SUFFIX);
      return db.transaction(async (tx) => {
        const copy = await repo.replicate(tx, id, name, actor.email);
        if (copy === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        // Its A/B test comes along as a draft's (issue 28): what was tried, not how the test went.
        await abTests.copy(tx, id, copy, drawSeed());
        await recordActivity(tx, { actor, kind: 'create', object: { type: 'campaign', id: copy, name }, details: { copyOf: id } });
        return { id: copy };
      });
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        // The status the lock holds, not a read outside the transaction: that read needs a second pooled
        // connection while racing requests hold the others waiting for this row (503 once the pool ran dry).
        const current = await repo.lockStatus(tx, id);
        if (current === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        if (!(await repo.destroyUnlessBusy(tx, id))) throw statusConflict(current.status, NOT_WHILE_SENDING);
        await recordActivity(tx, { actor, kind: 'delete', object: { type: 'campaign', id, name: current.name } });
      });
    },

    authorizedSenders: (): string[] => [...authorizedSenders],

    /** The valid contacts of the audience lacking a field the template, subject or preview text uses (at most 1000). */
    async validate(input: {
      templateId: number;
      audienceId: number;
      subject?: string;
      previewText?: string;
      campaignId?: number;
    }): Promise<ValidationResult[]> {
      const [content, target, campaign] = await Promise.all([
        templateOrThrow(repo, input.templateId),
        audienceOrThrow(repo, input.audienceId),
        input.campaignId === undefined ? undefined : campaignOrThrow(repo, input.campaignId),
      ]);
      // A tag with a fallback is never missing: its copies say the fallback.
      const tags = tagsWithoutFallbackIn(content.html, content.plainText, input.subject, input.previewText);
      const fields = resolveFields(tags, await repo.mergeFields(target.id));
      // A valid contact always has its address.
      const checked = tags
        .filter((tag) => fields.get(tag)?.kind !== 'email')
        .map((tag) => {
          const source = fields.get(tag);
          return { tag, key: source?.kind === 'data' ? source.key : null };
        });
      // A follow-up is validated on the people it goes to, as its send confirmation counts them; a campaign that
      // targets a segment of this audience, on the segment's contacts.
      const segment =
        campaign?.segment && campaign.audienceId === target.id ? await segments.ruleOf(campaign.segment.rule, target.id) : undefined;
      return repo.contactsMissingFields(target.id, checked, VALIDATION_LIMIT, campaign?.followUp ? campaign.id : undefined, segment);
    },

    /**
     * The pre-send checks, then the jobs are created and published (202). A draft that needs approval is refused
     * (409); an approved request (services/approvals) is sent from AWAITING_APPROVAL, its approval in the same transaction.
     */
    async send(id: number, actor: Actor, approved?: ApprovedSend): Promise<{ message: string }> {
      const campaign = await campaignOrThrow(repo, id);
      const from = approved ? 'AWAITING_APPROVAL' : 'DRAFT';
      if (campaign.status !== from) throw statusConflict(campaign.status, ONLY_DRAFTS_SENT);
      if (!approved && needsApproval(campaign)) throw new DomainError('conflict', APPROVAL_NEEDED);
      const content = await preSendChecks(campaign);
      const { queued, droppedRecipients } = await startSending(id, content, {
        from: [from],
        conflict: ONLY_DRAFTS_SENT,
        activity: { actor, kind: 'send' },
        ...(approved ? { within: approved.approval.within } : {}),
      });
      logger.info({ campaignId: id, jobs: queued, droppedRecipients }, 'campaign sending started');
      const dropped = campaign.followUp && droppedRecipients > 0 ? ` ${droppedNote(campaign.followUp, droppedRecipients)}` : '';
      return { message: `${SENDING_STARTED}${dropped}` };
    },

    /**
     * A SENDING campaign (one paused at the daily quota, mostly) stops as an error stops it: ERROR
     * with the member named, its unsent jobs kept queued for continue. Workers claim only from SENDING
     * campaigns, so nothing more leaves once this commits; mails already handed to SES are recorded.
     */
    async stop(id: number, actor: Actor): Promise<Campaign> {
      const stopped = await db.transaction(async (tx) => {
        const current = await repo.lockStatus(tx, id);
        if (current === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        if (current.status !== 'SENDING') throw statusConflict(current.status, ONLY_SENDING_STOPPED);
        await repo.markStopped(tx, id, stoppedBy(actor.email));
        await recordActivity(tx, { actor, kind: 'stop', object: { type: 'campaign', id, name: current.name } });
        return campaignOrThrow(repo, id, tx);
      });
      logger.info({ campaignId: id }, 'campaign sending stopped by a member');
      return stopped;
    },

    /** An ERROR campaign sends on to the contacts not sent to yet (its queued jobs, and contacts without one). */
    async continue(id: number, actor: Actor): Promise<{ message: string }> {
      const { queued } = await sending.dispatch(id, {
        from: ['ERROR'],
        conflict: ONLY_ERRORS_CONTINUED,
        newJobs: { contacts: 'all' },
        activity: { actor, kind: 'continue' },
      });
      logger.info({ campaignId: id, jobs: queued }, 'campaign sending continued');
      return { message: CONTINUE_STARTED };
    },
  };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
