/**
 * The test mail and the preview of the campaign editor (docs/product.md: `send-test-email`,
 * `test-render-email`). A test mail is built as the campaign's mail is (mail/campaign-mail.ts), for
 * the audience's first valid contact, with the subject marked as a test and no tracking; it goes
 * through the shared send rate like any mail.
 */
import type { TestEmail } from '@mailroom/api-client';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { compileCampaignMail } from '../../mail/campaign-mail.js';
import { compileMail } from '../../mail/compose.js';
import { fillLine, mergeTagsIn, resolveFields, type MergeContact, type MergeField } from '../../mail/merge-tags.js';
import type { ActivityService, Actor } from '../activity/activity-service.js';
import { isValidEmail } from '../contacts/email.js';
import { DomainError } from '../errors.js';
import type { SendingService } from '../sending/sending-service.js';
import { abTestRepository } from './ab-test-repository.js';
import { NO_AB_TEST, NO_SUCH_VARIANT, VARIANT_WITHOUT_CAMPAIGN, variantLetter } from './ab-test-service.js';
import { campaignRepository } from './repository.js';
import {
  audienceOrThrow,
  authorizedSenderCheck,
  CAMPAIGN_NOT_FOUND,
  noNul,
  oneLine,
  SENDER_NOT_AUTHORIZED,
  TEMPLATE_EMPTY,
  templateOrThrow,
} from './rules.js';

export const TEST_SUBJECT_PREFIX = '[Test] ';
/** A variant's test mail says which it is: two variants may differ only in their template. */
export const variantTestPrefix = (variant: number): string => `[Test, variant ${variantLetter(variant)}] `;
export const CONTACT_NOT_FOUND = 'Contact not found';
/** Whom a mail is for when no contact fills its merge tags: every value is empty. */
const NOBODY: MergeContact = { email: '', data: {} };

export interface TestMailServiceDeps {
  db: Database;
  /** The activity log: a test send changes no data, so it is recorded in a transaction of its own. */
  activityLog: Pick<ActivityService, 'record'>;
  sending: Pick<SendingService, 'sendOne'>;
  authorizedSenders: readonly string[];
  configurationSet: string | undefined;
  /** ORG_LOCALE: merge tags write numbers and dates in it, as in the campaign's mail. */
  locale?: string;
  logger: Logger;
}

export function createTestMailService({
  db,
  activityLog,
  sending,
  authorizedSenders,
  configurationSet,
  locale,
  logger,
}: TestMailServiceDeps) {
  const repo = campaignRepository(db);
  const abTests = abTestRepository(db);
  const isAuthorized = authorizedSenderCheck(authorizedSenders);

  /**
   * The test mail as the chosen variant of the campaign's A/B test, as saved (issue 28): what the variant
   * names replaces what the editor gave, the rest stays, as at send. Without a variant, the input as it is.
   */
  const asVariant = async (input: TestEmail): Promise<TestEmail> => {
    if (input.variant === undefined) return input;
    if (input.campaignId === undefined) throw new DomainError('invalid', VARIANT_WITHOUT_CAMPAIGN);
    const test = await abTests.find(input.campaignId);
    if (!test) {
      if (!(await repo.find(input.campaignId))) throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
      throw new DomainError('invalid', NO_AB_TEST);
    }
    const variant = test.variants[input.variant];
    if (!variant) throw new DomainError('invalid', NO_SUCH_VARIANT);
    return {
      ...input,
      subject: variant.subject ?? input.subject,
      fromName: variant.fromName ?? input.fromName,
      templateId: variant.templateId ?? input.templateId,
      ...(variant.previewText !== null ? { previewText: variant.previewText } : {}),
    };
  };

  return {
    /** Sends the template as it stands to a few addresses, as the campaign's mail, marked as a test. */
    async sendTest(given: TestEmail, actor: Actor): Promise<{ message: string }> {
      const input = await asVariant(given);
      const mark = input.variant === undefined ? TEST_SUBJECT_PREFIX : variantTestPrefix(input.variant);
      const emails = [...new Set(input.emails.map((email) => email.trim()))];
      const invalid = emails.filter((email) => !isValidEmail(email));
      if (invalid.length > 0) throw new DomainError('invalid', `Invalid email address: ${invalid.join(', ')}`);
      if (!isAuthorized(input.fromEmail)) throw new DomainError('invalid', SENDER_NOT_AUTHORIZED);
      oneLine('sender name', input.fromName);
      oneLine('subject', input.subject);
      oneLine('preview text', input.previewText);
      noNul(input.fromName, input.subject, input.previewText);
      const content = await templateOrThrow(repo, input.templateId);
      if (!content.html?.trim()) throw new DomainError('invalid', TEMPLATE_EMPTY);
      const fields = input.audienceId === undefined ? [] : await repo.mergeFields((await audienceOrThrow(repo, input.audienceId)).id);
      const contact = (input.audienceId === undefined ? undefined : await repo.firstValidContact(input.audienceId)) ?? NOBODY;

      const mail = compileCampaignMail(
        {
          subject: `${mark}${input.subject}`,
          previewText: input.previewText ?? null,
          html: content.html,
          plainText: content.plainText,
          from: { name: input.fromName, email: input.fromEmail.trim() },
          fields,
        },
        { configurationSet, ...(locale ? { locale } : {}) },
      );
      for (const to of emails) {
        const outcome = await sending.sendOne(mail({ email: contact.email, data: contact.data, to }));
        if (outcome.kind === 'sent') continue;
        logger.warn({ to, outcome }, 'a test email was not sent');
        const why = `The test email to ${to} was not sent: ${outcome.reason}`;
        throw new DomainError(outcome.kind === 'rejected' ? 'invalid' : 'unavailable', why);
      }
      // Recorded once every address was sent to.
      await activityLog.record({
        actor,
        kind: 'test-send',
        object: { type: 'template', id: content.id, name: content.name },
        details: {
          recipients: emails.length,
          subject: input.subject,
          ...(input.variant === undefined ? {} : { campaignId: input.campaignId, variant: input.variant }),
        },
      });
      return { message: `Test email sent to ${emails.join(', ')}` };
    },

    /** A template, subject and preview text as one contact (or nobody: empty values) would get them. */
    async renderTest(input: { templateId: number; contactId?: number; subject?: string; previewText?: string }) {
      const content = await templateOrThrow(repo, input.templateId);
      let contact: (MergeContact & { fields: MergeField[] }) | undefined;
      if (input.contactId !== undefined) {
        contact = await repo.findContact(input.contactId);
        if (!contact) throw new DomainError('not-found', CONTACT_NOT_FOUND);
      }
      const subject = input.subject ?? '';
      const previewText = input.previewText ?? '';
      const html = content.html ?? '';
      const fields = resolveFields(mergeTagsIn(html, subject, previewText), contact?.fields ?? [], locale);
      // A preview is no mail: the preview text shows apart (no preheader), and there is no sender or address.
      const rendered = compileMail({ subject, previewText, html, plainText: null, fields }, { preheader: false })(contact ?? NOBODY);
      return { template: rendered.html, subject: rendered.subject, previewText: fillLine(previewText, fields, contact) };
    },
  };
}

export type TestMailService = ReturnType<typeof createTestMailService>;
