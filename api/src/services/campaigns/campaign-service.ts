/**
 * Campaigns: the rules behind the campaign calls (docs/product.md). No HTTP, AMQP or
 * SQL here: errors are DomainErrors, data goes through the repository, sending through the
 * sending service (services/sending), which is also what reports use.
 *
 * Only a DRAFT is edited or sent; any campaign may be renamed; a SENDING one cannot be deleted.
 * Send runs the spec's five pre-send checks in their order with their messages, then requires an
 * authorized sender and header fields on one line, before anything is created or sent.
 */
import type { Logger } from '../../logger.js';
import { compileMail } from '../../mail/compose.js';
import { fillLine, mergeTagsIn, resolveFields, type MergeContact } from '../../mail/merge-tags.js';
import { assertOneLine, HeaderValueError, sendEmailInput } from '../../mail/message.js';
import { recordActivity, type ActivityService, type Actor } from '../activity/activity-service.js';
import { AUDIENCE_NOT_FOUND } from '../audiences/audience-service.js';
import { isValidEmail } from '../contacts/email.js';
import { DomainError } from '../errors.js';
import { toPage, type Page, type PageQuery } from '../paging.js';
import { CAMPAIGN_NOT_FOUND, type DispatchPlan, type SendingService } from '../sending/sending-service.js';
import type { Database } from '../../db/database.js';
import type { Contact, TestEmail } from '@mailroom/api-client';
import {
  campaignRepository,
  type Campaign,
  type CampaignDraftFields,
  type CampaignSummary,
  type CampaignTemplateContent,
  type FollowUpRecipients,
  type ValidationResult,
} from './repository.js';

export { CAMPAIGN_NOT_FOUND };
export const NAME_REQUIRED = 'Fill your campaign name';
export const TEMPLATE_NOT_FOUND = 'Template not found';
export const CONTACT_NOT_FOUND = 'Contact not found';
export const ONLY_DRAFTS_EDITED = 'Only a draft campaign can be edited; a sent campaign can only be renamed.';
export const NOT_WHILE_SENDING = 'A campaign cannot be deleted while it is sending.';
export const ONLY_DRAFTS_SENT = 'Only a draft campaign can be sent.';
export const ONLY_ERRORS_CONTINUED = 'Only a campaign stopped by an error can continue sending.';
// Scheduled sending (an addition to the spec).
export const SCHEDULED_FROZEN = 'This campaign is scheduled; cancel the schedule to change, send or delete it.';
export const ONLY_DRAFTS_SCHEDULED = 'Only a draft campaign can be scheduled.';
export const ONLY_SCHEDULED_UNSCHEDULED = 'This campaign is not scheduled (it may have started sending already).';
export const SCHEDULE_IN_PAST = 'The scheduled time has passed; choose a time in the future.';
export const SCHEDULE_TOO_FAR = 'A campaign can be scheduled at most a year ahead.';
export const SCHEDULE_INVALID = 'The scheduled time is not a valid date and time.';
/** Why a due campaign went back to DRAFT instead of starting: the failed check's own message follows. */
export const scheduleFailed = (at: Date, reason: string) => `The schedule for ${at.toISOString()} did not start: ${reason}`;
const SCHEDULE_MAX_AHEAD_MS = 366 * 24 * 3600_000;
/** Due campaigns one sweep starts at most (the next sweep, a second later, takes the rest). */
const DUE_PER_SWEEP = 20;
// The pre-send checks, in the spec's order and words (docs/product.md, the screens' checks).
export const SELECT_AUDIENCE = 'Please select an audience';
export const SELECT_TEMPLATE = 'Please select a template';
export const INPUT_SUBJECT = 'Please input email subject';
export const INPUT_FROM_NAME = "Please input name for who's sending this campaign";
export const INPUT_FROM_EMAIL = "Please input email for who's sending this campaign";
export const SENDER_NOT_AUTHORIZED = 'The sender email must be one of the authorized addresses.';
export const TEMPLATE_EMPTY = 'The template has no content yet.';
export const AUDIENCE_IMPORTING = 'The audience is still importing its contacts; send once the import is over.';
export const SENDING_STARTED = 'The campaign is being sent.';
export const CONTINUE_STARTED = 'Campaign will continue sending to remaining contacts.';
export const TEST_SUBJECT_PREFIX = '[Test] ';
export const NO_NUL = 'Text must not contain NUL characters.';
export const ONLY_SENT_FOLLOWED_UP = 'Only a sent campaign can be followed up.';
export const NOT_A_FOLLOW_UP = 'This campaign is not a follow-up.';
export const FOLLOW_UP_AUDIENCE = "A follow-up goes to its original's contacts; its audience cannot change.";
/** What a follow-up's send says of the recipients the original reached after the follow-up was made. */
export const droppedNote = (followUp: { recipients: FollowUpRecipients; campaignName: string }, n: number) =>
  `${n} ${n === 1 ? 'recipient' : 'recipients'} ${followUp.recipients === 'NOT_CLICKED' ? 'clicked in' : 'opened'} “${followUp.campaignName}” since the follow-up was made and ${n === 1 ? 'was' : 'were'} left out.`;
/** Entries of the validation answer at most (the contract's bound). */
export const VALIDATION_LIMIT = 1000;

const NAME_MAX = 200;
const COPY_SUFFIX = ' (copy)';
const FOLLOW_UP_SUFFIX = ' (follow-up)';
const DRAFT_FIELDS = ['audienceId', 'templateId', 'fromName', 'fromEmail', 'subject', 'previewText'] as const;

/** The save body (the contract's CampaignUpdateInput). */
export interface CampaignUpdate extends CampaignDraftFields {
  name: string;
  /** Accepted for the editor's convenience and ignored: the audience's own name is shown. */
  audienceName?: string | null;
}

export interface CampaignServiceDeps {
  db: Database;
  /** The activity log, for what is recorded outside a change of its own (test sends). */
  activityLog: Pick<ActivityService, 'record'>;
  sending: SendingService;
  authorizedSenders: readonly string[];
  configurationSet: string | undefined;
  logger: Logger;
}

export function createCampaignService({ db, activityLog, sending, authorizedSenders, configurationSet, logger }: CampaignServiceDeps) {
  const repo = campaignRepository(db);
  const authorized = new Set(authorizedSenders.map((address) => address.toLowerCase()));
  const isAuthorized = (address: string) => authorized.has(address.trim().toLowerCase());

  const validName = (name: unknown): string => {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed) throw new DomainError('invalid', NAME_REQUIRED);
    noNul(trimmed);
    return trimmed;
  };

  const found = (campaign: Campaign | undefined): Campaign => {
    if (!campaign) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
    return campaign;
  };

  const existing = async (id: number): Promise<Campaign> => found(await repo.find(id));

  const template = async (id: number): Promise<CampaignTemplateContent> => {
    const found = await repo.findTemplate(id);
    if (!found) throw new DomainError('not-found', TEMPLATE_NOT_FOUND);
    return found;
  };

  const audience = async (id: number) => {
    const found = await repo.findAudience(id);
    if (!found) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
    return found;
  };

  /** PostgreSQL text cannot hold NUL; the data layer would store an escape sequence instead. */
  const noNul = (...values: (string | null | undefined)[]) => {
    if (values.some((value) => value?.includes('\u0000'))) throw new DomainError('invalid', NO_NUL);
  };

  /** The status conflict of a campaign that is not where an action needs it: a scheduled one says why. */
  const statusConflict = (status: string | undefined, message: string): DomainError =>
    status === undefined
      ? new DomainError('not-found', CAMPAIGN_NOT_FOUND)
      : new DomainError('conflict', status === 'SCHEDULED' ? SCHEDULED_FROZEN : message);

  /** A header field: the contract forbids line breaks; checked again, whatever reached the database. */
  const oneLine = (field: string, value: string | null | undefined) => {
    try {
      assertOneLine(field, value);
    } catch (error) {
      if (error instanceof HeaderValueError) throw new DomainError('invalid', error.message);
      throw error;
    }
  };

  /**
   * The spec's five pre-send checks in their order, then an authorized sender, header fields on one
   * line, a template with content and an audience not importing: what Send, Schedule and the start
   * of a scheduled campaign all require. Answers the content to snapshot.
   */
  const preSendChecks = async (campaign: Campaign): Promise<CampaignTemplateContent & { html: string }> => {
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
    return { ...content, html: content.html };
  };

  /** Send's dispatch: the snapshot and a job for every valid, not suppressed contact; the campaign becomes SENDING. */
  const dispatchSend = (
    id: number,
    content: CampaignTemplateContent & { html: string },
    from: 'DRAFT' | 'SCHEDULED',
    activity?: DispatchPlan['activity'],
  ) =>
    sending.dispatch(id, {
      from: [from],
      conflict: from === 'DRAFT' ? ONLY_DRAFTS_SENT : ONLY_SCHEDULED_UNSCHEDULED,
      // Workers racing for a due campaign: the one holding its row starts it, the others pass by.
      skipLocked: from === 'SCHEDULED',
      snapshot: { html: content.html, plainText: content.plainText },
      newJobs: { contacts: 'all' },
      ...(activity ? { activity } : {}),
    });

  return {
    async list(query: PageQuery & { name?: string | undefined }): Promise<{ data: Page<CampaignSummary> }> {
      const { items, totalItems } = await repo.list({ ...query, name: query.name?.trim() || undefined });
      return { data: toPage(items, totalItems, query) };
    },

    async get(id: number, options: { jobSuccessCount?: boolean } = {}): Promise<Campaign> {
      const campaign = await existing(id);
      return options.jobSuccessCount ? { ...campaign, jobSuccessCount: await repo.countDelivered(id) } : campaign;
    },

    async create(input: { name: unknown; templateId?: number | undefined }, actor: Actor): Promise<{ id: number }> {
      const name = validName(input.name);
      if (input.templateId !== undefined) await template(input.templateId);
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
      const current = await existing(id);
      if (current.status === 'SCHEDULED' || (drafting && current.status !== 'DRAFT'))
        throw statusConflict(current.status, ONLY_DRAFTS_EDITED);
      if (current.followUp && fields.audienceId !== undefined && fields.audienceId !== current.audienceId)
        throw new DomainError('conflict', FOLLOW_UP_AUDIENCE);
      for (const field of ['fromName', 'subject', 'previewText'] as const) oneLine(field, fields[field]);
      noNul(fields.fromName, fields.fromEmail, fields.subject, fields.previewText);
      if (fields.audienceId) await audience(fields.audienceId);
      if (fields.templateId) await template(fields.templateId);
      await db.transaction(async (tx) => {
        const before = await repo.lockName(tx, id);
        if (before === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        // Sent or scheduled between the read and the write.
        if (!(await repo.update(tx, id, name, fields, actor.email))) throw statusConflict(await repo.status(id), ONLY_DRAFTS_EDITED);
        if (before !== name)
          await recordActivity(tx, { actor, kind: 'rename', object: { type: 'campaign', id, name }, details: { from: before } });
        // A save of the draft's content is recorded with the fields it changed; one that changed none is no edit.
        const changed = DRAFT_FIELDS.filter((key) => key in fields && (fields[key] ?? null) !== (current[key] ?? null));
        if (changed.length > 0)
          await recordActivity(tx, { actor, kind: 'edit', object: { type: 'campaign', id, name }, details: { fields: changed } });
      });
      return existing(id);
    },

    async replicate(id: number, actor: Actor): Promise<{ id: number }> {
      const source = await existing(id);
      const name = `${source.name.slice(0, NAME_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
      return db.transaction(async (tx) => {
        const copy = await repo.replicate(tx, id, name, actor.email);
        if (copy === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        await recordActivity(tx, { actor, kind: 'create', object: { type: 'campaign', id: copy, name }, details: { copyOf: id } });
        return { id: copy };
      });
    },

    /**
     * A DRAFT copy of a SENT campaign for its contacts who did not open it, or did not click, by
     * people (suppressed ones left out), frozen now: see the contract's followUpCampaign.
     */
    async followUp(id: number, recipients: FollowUpRecipients, actor: Actor): Promise<{ campaign: Campaign; created: boolean }> {
      const source = await existing(id);
      const name = `${source.name.slice(0, NAME_MAX - FOLLOW_UP_SUFFIX.length)}${FOLLOW_UP_SUFFIX}`;
      return db.transaction(async (tx) => {
        const made = await repo.insertFollowUp(tx, id, { name, recipients, updatedByEmail: actor.email });
        if (made === 'not-found') throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        if (made === 'not-sent') throw new DomainError('conflict', ONLY_SENT_FOLLOWED_UP);
        // A repeated request (a double click, a colleague at the same time) answers the follow-up not sent yet.
        if (!made.existing)
          await recordActivity(tx, {
            actor,
            kind: 'follow-up',
            object: { type: 'campaign', id: made.id, name },
            details: { of: id, recipients },
          });
        return { campaign: found(await repo.find(made.id, tx)), created: !made.existing };
      });
    },

    /** How many of a follow-up's recipients its original reached since they were frozen: its send leaves them out. */
    async reachedRecipients(id: number): Promise<{ reachedRecipients: number }> {
      const { followUp } = await existing(id);
      if (!followUp) throw new DomainError('not-found', NOT_A_FOLLOW_UP);
      return { reachedRecipients: await repo.countReachedRecipients(id) };
    },

    /** A page of a follow-up's frozen recipients (its preview's contacts). */
    async recipients(id: number, query: PageQuery): Promise<Page<Contact>> {
      const { followUp } = await existing(id);
      if (!followUp) throw new DomainError('not-found', NOT_A_FOLLOW_UP);
      return toPage(await repo.followUpRecipients(id, query), followUp.recipientCount, query);
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

    /** Sends the template as it stands to a few addresses (subject marked as a test, no tracking). */
    async sendTest(input: TestEmail, actor: Actor): Promise<{ message: string }> {
      const emails = [...new Set(input.emails.map((email) => email.trim()))];
      const invalid = emails.filter((email) => !isValidEmail(email));
      if (invalid.length > 0) throw new DomainError('invalid', `Invalid email address: ${invalid.join(', ')}`);
      if (!isAuthorized(input.fromEmail)) throw new DomainError('invalid', SENDER_NOT_AUTHORIZED);
      oneLine('sender name', input.fromName);
      oneLine('subject', input.subject);
      oneLine('preview text', input.previewText);
      noNul(input.fromName, input.subject, input.previewText);
      const content = await template(input.templateId);
      if (!content.html?.trim()) throw new DomainError('invalid', TEMPLATE_EMPTY);
      const headers = input.audienceId === undefined ? [] : (await audience(input.audienceId)).headers;
      const contact = input.audienceId === undefined ? undefined : await repo.firstValidContact(input.audienceId);

      const subject = `${TEST_SUBJECT_PREFIX}${input.subject}`;
      const previewText = input.previewText ?? null;
      const fields = resolveFields(mergeTagsIn(content.html, content.plainText, subject, previewText), headers);
      const render = compileMail({ subject, previewText, html: content.html, plainText: content.plainText, fields });
      const mail = render(contact ?? { email: '', data: {} });
      for (const to of emails) {
        const outcome = await sending.sendOne(
          sendEmailInput(mail, { from: { name: input.fromName, email: input.fromEmail.trim() }, to, configurationSet }),
        );
        if (outcome.kind === 'sent') continue;
        logger.warn({ to, outcome }, 'a test email was not sent');
        const why = `The test email to ${to} was not sent: ${outcome.reason}`;
        throw new DomainError(outcome.kind === 'rejected' ? 'invalid' : 'unavailable', why);
      }
      // A test send changes no data: recorded in a transaction of its own once every address was sent to.
      await activityLog.record({
        actor,
        kind: 'test-send',
        object: { type: 'template', id: content.id, name: content.name },
        details: { recipients: emails.length, subject: input.subject },
      });
      return { message: `Test email sent to ${emails.join(', ')}` };
    },

    /** A template, subject and preview text as one contact (or nobody: empty values) would get them. */
    async renderTest(input: { templateId: number; contactId?: number; subject?: string; previewText?: string }) {
      const content = await template(input.templateId);
      let contact: (MergeContact & { headers: string[] }) | undefined;
      if (input.contactId !== undefined) {
        contact = await repo.findContact(input.contactId);
        if (!contact) throw new DomainError('not-found', CONTACT_NOT_FOUND);
      }
      const subject = input.subject ?? '';
      const previewText = input.previewText ?? '';
      const html = content.html ?? '';
      const fields = resolveFields(mergeTagsIn(html, subject, previewText), contact?.headers ?? []);
      const rendered = compileMail(
        { subject, previewText, html, plainText: null, fields },
        { preheader: false },
      )(contact ?? { email: '', data: {} });
      return { template: rendered.html, subject: rendered.subject, previewText: fillLine(previewText, fields, contact) };
    },

    /** The valid contacts of the audience lacking a field the template, subject or preview text uses (at most 1000). */
    async validate(input: {
      templateId: number;
      audienceId: number;
      subject?: string;
      previewText?: string;
      campaignId?: number;
    }): Promise<ValidationResult[]> {
      const [content, target, campaign] = await Promise.all([
        template(input.templateId),
        audience(input.audienceId),
        input.campaignId === undefined ? undefined : existing(input.campaignId),
      ]);
      const tags = mergeTagsIn(content.html, input.subject, input.previewText);
      const fields = resolveFields(tags, target.headers);
      // A valid contact always has its address.
      const checked = tags
        .filter((tag) => fields.get(tag)?.kind !== 'email')
        .map((tag) => {
          const source = fields.get(tag);
          return { tag, key: source?.kind === 'data' ? source.key : null };
        });
      // A follow-up is validated on the people it goes to, as its send confirmation counts them.
      return repo.contactsMissingFields(target.id, checked, VALIDATION_LIMIT, campaign?.followUp ? campaign.id : undefined);
    },

    /** The pre-send checks, then the jobs are created and published (202). */
    async send(id: number, actor: Actor): Promise<{ message: string }> {
      const campaign = await existing(id);
      if (campaign.status !== 'DRAFT') throw statusConflict(campaign.status, ONLY_DRAFTS_SENT);
      const content = await preSendChecks(campaign);
      const { queued, droppedRecipients } = await dispatchSend(id, content, 'DRAFT', { actor, kind: 'send' });
      logger.info({ campaignId: id, jobs: queued, droppedRecipients }, 'campaign sending started');
      const dropped = campaign.followUp && droppedRecipients > 0 ? ` ${droppedNote(campaign.followUp, droppedRecipients)}` : '';
      return { message: `${SENDING_STARTED}${dropped}` };
    },

    /** A draft that passes the pre-send checks is SCHEDULED for `at` (a time to come, at most a year ahead). */
    async schedule(id: number, at: string, actor: Actor): Promise<Campaign> {
      const when = new Date(at);
      if (Number.isNaN(when.getTime())) throw new DomainError('invalid', SCHEDULE_INVALID);
      if (when.getTime() <= Date.now()) throw new DomainError('invalid', SCHEDULE_IN_PAST);
      if (when.getTime() > Date.now() + SCHEDULE_MAX_AHEAD_MS) throw new DomainError('invalid', SCHEDULE_TOO_FAR);
      const campaign = await existing(id);
      if (campaign.status !== 'DRAFT') throw statusConflict(campaign.status, ONLY_DRAFTS_SCHEDULED);
      await preSendChecks(campaign);
      // One transaction per action, so that what records the action can join it. The answer is read in
      // it too: once it commits, the campaign may be unscheduled and deleted before a later read.
      const scheduled = await db.transaction(async (tx) => {
        const current = await repo.lockStatus(tx, id);
        if (current?.status !== 'DRAFT') throw statusConflict(current?.status, ONLY_DRAFTS_SCHEDULED);
        await repo.markScheduled(tx, id, when, actor.email);
        const object = { type: 'campaign' as const, id, name: current.name };
        await recordActivity(tx, { actor, kind: 'schedule', object, details: { at: when.toISOString() } });
        return found(await repo.find(id, tx));
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
        await repo.markUnscheduled(tx, id, { updatedByEmail: actor.email });
        await recordActivity(tx, { actor, kind: 'unschedule', object: { type: 'campaign', id, name: current.name } });
        return found(await repo.find(id, tx));
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
      for (const id of await repo.dueCampaignIds(DUE_PER_SWEEP)) {
        const campaign = await repo.find(id);
        if (campaign?.status !== 'SCHEDULED' || campaign.scheduledAt === null || campaign.scheduledAt === undefined) continue;
        let content: Awaited<ReturnType<typeof preSendChecks>>;
        try {
          content = await preSendChecks(campaign);
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error;
          const at = new Date(campaign.scheduledAt);
          const errorMessage = scheduleFailed(at, error.message);
          if (await db.transaction((tx) => repo.markUnscheduled(tx, id, { errorMessage }))) {
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
          const { queued } = await dispatchSend(id, content, 'SCHEDULED', activity);
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
