/**
 * The confirmation mail of a sign-up: the form's subject and text (defaults in form-service.ts) with
 * `{{confirmUrl}}` replaced by the signed link, as plain text and as simple HTML (the text's paragraphs,
 * escaped, the link a button). No tracking and no unsubscribe header: it is no campaign mail, and a person
 * who does nothing is never mailed again.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { sendEmailInput } from '../../mail/message.js';
import { CONFIRM_URL_TAG } from './form-service.js';
import type { FormRecord } from './forms-repository.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function confirmationMail(
  form: Pick<FormRecord, 'mailSubject' | 'mailText' | 'fromName' | 'fromEmail'>,
  to: string,
  confirmUrl: string,
  { configurationSet, pendingId, color }: { configurationSet: string | undefined; pendingId: number; color: string },
): SendEmailCommandInput {
  const text = form.mailText.split(CONFIRM_URL_TAG).join(confirmUrl);
  const button = `<a href="${escape(confirmUrl)}" style="display:inline-block;padding:10px 18px;background:${color};color:#ffffff;text-decoration:none;border-radius:4px">Confirm my subscription</a>`;
  const html = form.mailText
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split(CONFIRM_URL_TAG).map(escape).join(button).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return sendEmailInput(
    {
      subject: form.mailSubject,
      html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${html}</body></html>`,
      text,
      unsubscribeUrl: undefined,
    },
    { from: { name: form.fromName, email: form.fromEmail }, to, configurationSet, tags: { signup: pendingId } },
  );
}
