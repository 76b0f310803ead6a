/**
 * Campaign reports (docs/product.md): overview, email performance with its filters and
 * export, click counts, and the report's four actions. No HTTP, AMQP or SQL here.
 *
 * The actions go through the sending service's dispatch, the same transaction and claim as the
 * first send, so a contact is never sent twice whatever is clicked how often. They need a campaign
 * that is sending or sent: a draft has nothing to retry, and one stopped by an error continues
 * first (its queued jobs would otherwise go out with the retry).
 */
import { PassThrough, Readable } from 'node:stream';
import type {
  BulkActionResult,
  CampaignOverviewStats,
  CampaignLink,
  ReportDomains,
  ReportOverview,
  ReportTimeline,
} from '@mailroom/api-client';
import type { Database } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';
import type { ActivityService, Actor } from '../activity/activity-service.js';
import type { CampaignService } from '../campaigns/campaign-service.js';
import { DomainError } from '../errors.js';
import { offsetOf, pageMeta, toPage, type Page, type PageQuery } from '../paging.js';
import { CAMPAIGN_NOT_FOUND, type SendingService } from '../sending/sending-service.js';
import { createSearchCache } from '../search-index.js';
import { actionRepository } from './action-repository.js';
import { linkRepository } from './link-repository.js';
import { pageWindow, recipientPageRepository } from './recipient-page-repository.js';
import type { EmailPerformanceFilters, EmailPerformanceRow, ReportScope } from './recipient-row-repository.js';
import { recipientSearchRepository } from './recipient-search-repository.js';
import { suppressionRepository } from '../suppressions/repository.js';
import { writeWorkbook } from './workbook.js';
import { outcomeRepository } from './outcome-repository.js';
import { domainTable, timelineBuckets } from './outcome.js';

export type { EmailPerformanceFilters, EmailPerformanceRow };

// docs/product.md, Messages and behaviour worth knowing.
export const RETRY_ALL_QUEUED = 'All failed jobs have been queued for retry. Please check the status in a few moments.';
export const NOT_SENT_QUEUED = 'All NOT_SENT contacts have been queued for sending. Please check the status in a few moments.';
export const NOTHING_TO_RETRY = 'There were no failed emails to retry.';
export const NOTHING_NOT_SENT = 'There were no NOT_SENT contacts to send to.';
export const NONE_QUEUED = 'No NOT_SENT contact was queued.';
export const JOB_QUEUED = 'The email has been queued for retry. Please check the status in a few moments.';
export const CONTACT_QUEUED = 'The email to this contact has been queued for sending. Please check the status in a few moments.';
export const NOT_SENT_YET = 'The campaign has not been sent yet.';
export const CONTINUE_FIRST = 'The campaign stopped on an error: continue sending first.';
export const ONLY_SENT_CAMPAIGNS = 'Only a campaign that is sending or sent can retry or send from its report.';
export const JOB_NOT_FOUND = 'Job not found';
export const ONLY_FAILED_RETRIED = 'Only a failed email can be retried.';
export const CONTACT_NOT_FOUND = 'Contact not found';
export const CONTACT_INVALID = 'This contact has no valid address.';
export const CONTACT_SUPPRESSED = 'This address bounced, complained or unsubscribed: it is not sent to.';
/** Issue 25: the person left the audience in the preference centre. */
export const CONTACT_LEFT = 'This person unsubscribed from this audience: it is not sent to.';
export const CONTACT_HAS_JOB = 'This contact already has an email in this campaign.';
// Additions to the spec (follow-ups).
export const CONTACT_NOT_RECIPIENT = 'This contact is not one of the recipients of this follow-up.';
// Additions to the spec (Resend unconfirmed).
export const NOTHING_UNCONFIRMED = 'There are no unconfirmed emails to send again.';
export const unconfirmedQueued = (jobs: number): string =>
  `${jobs} unconfirmed ${jobs === 1 ? 'email has' : 'emails have'} been queued to send again. Please check the status in a few moments.`;

/** Rows a page answers in one JSON body; a larger page (NOT_SENT's 999999) is streamed. */
export const STREAM_ABOVE = 1000;
/** Rows fetched from the database at a time when streaming. */
const BATCH = 2000;
const REPORT_STATES: readonly CampaignStatus[] = ['SENDING', 'SENT'];

/** A page: as one body, or streamed as the same JSON (`{ items, meta }`) when it is large. */
export type EmailPerformancePage = Page<EmailPerformanceRow> | { stream: Readable };

export interface ReportServiceDeps {
  db: Database;
  /** The activity log, for what is recorded outside a change of its own (exports). */
  activityLog: Pick<ActivityService, 'record'>;
  sending: SendingService;
  campaigns: CampaignService;
  logger: Logger;
  /** The organisation's own domain: the domain table always shows it when the campaign mailed it. */
  orgEmailDomain?: string | undefined;
}

/** A snapshot: the total and the rows of one page agree. */
const SNAPSHOT = { isolation: 'REPEATABLE READ', readOnly: true } as const;

export function createReportService({ db, activityLog, sending, campaigns, logger, orgEmailDomain }: ReportServiceDeps) {
  const recipients = recipientPageRepository(db);
  const search = recipientSearchRepository();
  const links = linkRepository(db);
  const actions = actionRepository(db);
  const outcomes = outcomeRepository(db);
  const found = <T>(value: T | undefined): T => {
    if (value === undefined) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
    return value;
  };
  const domainsOn = async (sql: Parameters<typeof outcomes.domains>[2], id: number): Promise<ReportDomains> => ({
    domains: domainTable(found(await outcomes.domains(id, orgEmailDomain, sql))),
  });
  /** The indexes of recent email searches (search-index.ts), for their next pages. */
  const searches = createSearchCache();
  const suppressions = suppressionRepository(db);

  const scopeIn = async (
    sql: Parameters<typeof recipients.scope>[0],
    id: number,
    filters: EmailPerformanceFilters,
  ): Promise<ReportScope> => {
    const scope = await recipients.scope(sql, id, filters);
    if (!scope) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
    return scope;
  };

  /** The campaign, if the report's actions may run on it now (the dispatch checks again, atomically). */
  const actionable = async (id: number) => {
    const campaign = await actions.campaignStatus(id);
    if (!campaign) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
    if (campaign.status === 'DRAFT') throw new DomainError('conflict', NOT_SENT_YET);
    if (campaign.status === 'ERROR') throw new DomainError('conflict', CONTINUE_FIRST);
    return campaign;
  };

  const dispatch = (id: number, plan: Omit<Parameters<SendingService['dispatch']>[1], 'from' | 'conflict'>) =>
    sending.dispatch(id, { from: REPORT_STATES, conflict: ONLY_SENT_CAMPAIGNS, ...plan });

  /** The rows of a large page as JSON text, read through a cursor in one snapshot. */
  const streamedPage = (id: number, filters: EmailPerformanceFilters, query: PageQuery): Promise<Readable> =>
    db.streamInTransaction(
      (tx) =>
        Readable.from(
          (async function* () {
            const scope = await scopeIn(tx, id, filters);
            const totalItems = recipients.total(scope, filters) ?? (await search.total(tx, scope, filters, searches));
            let itemCount = 0;
            yield '{"items":[';
            for await (const rows of recipients.batches(tx, scope, filters, BATCH, offsetOf(query), query.limit)) {
              const text = rows.map((row) => JSON.stringify(row)).join(',');
              yield itemCount === 0 ? text : `,${text}`;
              itemCount += rows.length;
            }
            yield `],"meta":${JSON.stringify(pageMeta(itemCount, totalItems, query))}}`;
          })(),
          { objectMode: false },
        ),
      SNAPSHOT,
    );

  return {
    async overview(id: number): Promise<CampaignOverviewStats> {
      const campaign = await campaigns.get(id);
      const unknown = await sending.unknownJobs(id);
      return {
        campaign,
        jobsSent: campaign.jobsSent,
        jobsFailed: campaign.jobsFailed,
        totalContactsCount: campaign.contactCount,
        jobsUnknown: unknown.unknown,
        jobsUnconfirmed: unknown.unconfirmed,
        unconfirmedResendAfterMinutes: Math.round(unknown.resendAfterMs / 60_000),
      };
    },

    /** The outcome figures, people and machines apart (an addition to the spec), from the aggregates. */
    async outcome(id: number): Promise<ReportOverview> {
      return found(await outcomes.overview(id));
    },

    /** Sends, opens and clicks per hour for the first 72 hours after sending started, then per day. */
    async timeline(id: number): Promise<ReportTimeline> {
      const { sendingStartedAt, hours } = found(await outcomes.hours(id));
      return { sendingStartedAt: sendingStartedAt?.toISOString() ?? null, buckets: timelineBuckets(sendingStartedAt, hours) };
    },

    /** Deliverability by recipient domain: the top domains, the organisation's, and 'other'. */
    async domains(id: number): Promise<ReportDomains> {
      return domainsOn(db, id);
    },

    async clicks(id: number): Promise<CampaignLink[]> {
      if (!(await actions.campaignStatus(id))) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
      return links.ofCampaign(id);
    },

    /** A page of rows; see recipient-page-repository.ts and recipient-search-repository.ts for what each filter costs. */
    async emailPerformance(id: number, filters: EmailPerformanceFilters, query: PageQuery): Promise<EmailPerformancePage> {
      const offset = offsetOf(query);
      const answer = await db.transaction(async (tx): Promise<EmailPerformancePage | 'stream'> => {
        const scope = await scopeIn(tx, id, filters);
        const total = recipients.total(scope, filters);
        if (total === undefined) {
          if (query.limit > STREAM_ABOVE) return 'stream';
          const { items, totalItems } = await search.page(tx, scope, filters, offset, query.limit, searches);
          return toPage(items, totalItems, query);
        }
        const window = pageWindow(total, offset, query.limit);
        if (window && window.take > STREAM_ABOVE) return 'stream';
        return toPage(window ? await recipients.rows(tx, scope, filters, window) : [], total, query);
      }, SNAPSHOT);
      return answer === 'stream' ? { stream: await streamedPage(id, filters, query) } : answer;
    },

    /** A Summary sheet (the outcome figures and the domain table), then every row of the filters: an xlsx workbook streamed from one snapshot. */
    async exportEmailPerformance(id: number, filters: EmailPerformanceFilters, actor: Actor): Promise<Readable> {
      const campaign = await actions.campaignStatus(id);
      if (!campaign) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
      // Recorded before the rows are read, in a transaction of its own (the export itself changes
      // nothing): a download cut short by a lost database has still taken rows out.
      const { email, ...rest } = filters;
      const used = Object.fromEntries(Object.entries({ ...rest, search: email }).filter(([, value]) => value !== undefined));
      await activityLog.record({
        actor,
        kind: 'export',
        object: { type: 'campaign', id, name: campaign.name },
        details: { what: 'email performance', ...used },
      });
      const stream = await db.streamInTransaction((tx) => {
        const out = new PassThrough();
        (async () => {
          const scope = await scopeIn(tx, id, filters);
          // The Summary sheet first, from the same snapshot as the rows.
          const summary = { overview: found(await outcomes.overview(id, tx)), domains: (await domainsOn(tx, id)).domains };
          await writeWorkbook(out, recipients.batches(tx, scope, filters, BATCH), summary);
        })().catch((err: unknown) => out.destroy(err as Error));
        return out;
      }, SNAPSHOT);
      return stream;
    },

    /** The spec's text with how many were queued, or that there was nothing to retry. */
    async retryAllFailed(id: number, actor: Actor): Promise<BulkActionResult> {
      await actionable(id);
      const { queued } = await dispatch(id, { requeue: 'failed', activity: { actor, kind: 'retry-all-failed' } });
      logger.info({ campaignId: id, jobs: queued }, 'failed jobs queued again');
      return { message: queued === 0 ? NOTHING_TO_RETRY : `${RETRY_ALL_QUEUED} ${emails(queued)} queued.`, queued, skipped: 0 };
    },

    async retryJob(id: number, jobId: number, actor: Actor): Promise<{ message: string }> {
      await actionable(id);
      const status = await actions.jobStatus(id, jobId);
      if (status === undefined) throw new DomainError('not-found', JOB_NOT_FOUND);
      if (status !== 'FAILED') throw new DomainError('conflict', ONLY_FAILED_RETRIED);
      await dispatch(id, { requeue: { jobId }, activity: { actor, kind: 'retry-job', details: { jobId } } });
      return { message: JOB_QUEUED };
    },

    /** A deliberate resend of the UNKNOWN jobs no SES event confirmed (some of those people may get the mail twice). */
    async resendUnconfirmed(id: number, actor: Actor): Promise<BulkActionResult> {
      await actionable(id);
      const { queued } = await sending.resendUnconfirmed(id, {
        from: REPORT_STATES,
        conflict: ONLY_SENT_CAMPAIGNS,
        activity: { actor, kind: 'resend-unconfirmed' },
      });
      logger.warn({ campaignId: id, jobs: queued }, 'unconfirmed jobs queued again by a member');
      return { message: queued === 0 ? NOTHING_UNCONFIRMED : unconfirmedQueued(queued), queued, skipped: 0 };
    },

    /**
     * The spec's text with how many were queued and how many NOT_SENT contacts were skipped as
     * suppressed (counted after the dispatch: they are the NOT_SENT contacts left). A follow-up's
     * recipients are all valid, so those it has left are exactly the suppressed ones.
     */
    async sendToNotSent(id: number, actor: Actor): Promise<BulkActionResult> {
      await actionable(id);
      const { queued } = await dispatch(id, { newJobs: { contacts: 'all' }, activity: { actor, kind: 'send-to-not-sent' } });
      const scope = await recipients.scope(db, id, {});
      const skipped = scope?.followUp
        ? recipients.total(scope, { sendStatus: 'NOT_SENT' })!
        : scope?.audienceId && scope.validContacts > 0
          ? (
              await suppressions.countSuppressedContacts({
                audienceId: scope.audienceId,
                validContacts: scope.validContacts,
                notSentOf: id,
              })
            ).suppressedContacts
          : 0;
      logger.info({ campaignId: id, jobs: queued, skipped }, 'NOT_SENT contacts queued');
      const figures = `${emails(queued)} queued, ${skipped} suppressed contact${skipped === 1 ? '' : 's'} skipped (unsubscribed, bounced or complained).`;
      const message = queued > 0 ? `${NOT_SENT_QUEUED} ${figures}` : skipped > 0 ? `${NONE_QUEUED} ${figures}` : NOTHING_NOT_SENT;
      return { message, queued, skipped };
    },

    async sendToContact(id: number, contactId: number, actor: Actor): Promise<{ message: string }> {
      const campaign = await actionable(id);
      const contact =
        campaign.audienceId === null ? undefined : await actions.contactForSend(id, campaign.audienceId, contactId, campaign.followUp);
      if (!contact) throw new DomainError('not-found', CONTACT_NOT_FOUND);
      // A follow-up's contacts are its recipients: the dispatch would create no job for another.
      if (!contact.recipient) throw new DomainError('not-found', CONTACT_NOT_RECIPIENT);
      if (!contact.valid) throw new DomainError('conflict', CONTACT_INVALID);
      if (contact.hasJob) throw new DomainError('conflict', CONTACT_HAS_JOB);
      if (contact.suppressed) throw new DomainError('conflict', CONTACT_SUPPRESSED);
      if (contact.left) throw new DomainError('conflict', CONTACT_LEFT);
      await dispatch(id, { newJobs: { contacts: { contactId } }, activity: { actor, kind: 'send-to-contact', details: { contactId } } });
      return { message: CONTACT_QUEUED };
    },
  };
}

const emails = (n: number) => `${n} email${n === 1 ? '' : 's'}`;

export type ReportService = ReturnType<typeof createReportService>;
