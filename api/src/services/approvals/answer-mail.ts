/**
 * The mail that tells a requester how their approval request was answered: plain text and simple HTML (escaped),
 * from the organisation's first authorized sender, through the same SES input as every other mail
 * (mail/message.ts). No tracking and no unsubscribe header: it is a member's notice, no campaign mail.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { sendEmailInput } from '../../mail/message.js';
import type { AnsweredRequest } from './repository.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Header fields are one line: a name with a line break (never stored, but cheap to be sure) is flattened. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

export function answerMail(
  request: AnsweredRequest,
  { from, publicUrl, configurationSet }: { from: { name: string; email: string }; publicUrl: string; configurationSet: string | undefined },
): SendEmailCommandInput {
  const approved = request.state === 'APPROVED';
  const name = oneLine(request.campaignName);
  const subject = approved ? `Approved: ${name}` : `Declined: ${name}`;
  const link = approved ? `${publicUrl}/campaigns/reports/${request.campaignId}` : `${publicUrl}/campaigns/edit/${request.campaignId}`;
  const what = request.at ? `scheduled for ${new Date(request.at).toUTCString()}` : 'sent';
  const paragraphs = approved
    ? [`${request.answeredByEmail} approved “${name}”: it is ${what === 'sent' ? 'being sent' : what}.`, link]
    : [
        `${request.answeredByEmail} declined “${name}”. It is a draft again.`,
        `Reason: ${request.reason ?? ''}`,
        `Change it and request approval again: ${link}`,
      ];
  return sendEmailInput(
    {
      subject,
      html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${paragraphs
        .map((p) => `<p>${escape(p).replace(/\n/g, '<br>')}</p>`)
        .join('\n')}</body></html>`,
      text: paragraphs.join('\n\n'),
      unsubscribeUrl: undefined,
    },
    { from, to: request.requestedByEmail, configurationSet, tags: { approval: request.id } },
  );
}
