/**
 * The one way a campaign's mail is built (docs/architecture.md, Mail and tracking): the worker's mail
 * for each job of a campaign and the editor's test mail both come from here, so that a test mail is
 * what the contacts will get. What differs between them is given by the caller, never built apart:
 *  - tracking (click links, open pixel, unsubscribe line, List-Unsubscribe): a campaign's jobs only;
 *  - the address: the contact's own for a job, the tester's for a test mail;
 *  - the subject: a test mail's is marked as one by its caller;
 *  - the EmailTags naming the campaign and the job, for SES events.
 *
 * The campaign is compiled once (merge tags resolved against the audience's fields, the html cut
 * into pieces); each recipient's SendEmail input is then a join.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { compileMail, type MailRecipient } from './compose.js';
import { mergeTagsIn, resolveFields, type MergeField } from './merge-tags.js';
import { assertOneLine, sendEmailInput, type Sender } from './message.js';
import type { TrackingUrls } from './tracking-tokens.js';

/** A campaign's content and sender, or a template's as the test mail's form gives them. */
export interface MailSource {
  subject: string;
  previewText: string | null;
  /** The campaign's html (its snapshot, with link ids, when sending). */
  html: string;
  /** The template's own plain text; derived from the html when there is none. */
  plainText: string | null;
  from: Sender;
  /** The audience's fields (keys and types), which the merge tags resolve against (none: every tag is empty). */
  fields: readonly MergeField[];
}

export interface MailOptions {
  /** The tracking URLs of a campaign's jobs; none for a test mail. */
  tracking?: TrackingUrls;
  /** SES's configuration set, for delivery events. */
  configurationSet: string | undefined;
  /** The organisation's locale (ORG_LOCALE): numbers and dates in merge tags are written in it. */
  locale?: string;
}

/** Whom one copy is for: the contact whose values fill the merge tags (and its job when tracked). */
export interface MailFor extends MailRecipient {
  /** Where it goes, when not to the contact's own address (a test mail). */
  to?: string;
  /** EmailTags: names and values of letters, digits, `_` and `-` only. */
  tags?: Record<string, string | number>;
}

export type CampaignMail = (recipient: MailFor) => SendEmailCommandInput;

/**
 * Compiles the mail of a campaign (or a test mail). Throws HeaderValueError when the subject, the
 * sender's name or the preview text is not on one line: those become headers.
 */
export function compileCampaignMail(source: MailSource, options: MailOptions): CampaignMail {
  const { subject, previewText, html, plainText, from } = source;
  assertOneLine('subject', subject);
  assertOneLine('sender name', from.name);
  assertOneLine('preview text', previewText);
  const fields = resolveFields(mergeTagsIn(html, plainText, subject, previewText), source.fields, options.locale);
  const render = compileMail({ subject, previewText, html, plainText, fields }, options.tracking ? { tracking: options.tracking } : {});
  const { configurationSet } = options;
  return (recipient) =>
    sendEmailInput(render(recipient), { from, to: recipient.to ?? recipient.email, configurationSet, tags: recipient.tags });
}
