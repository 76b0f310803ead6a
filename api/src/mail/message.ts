/**
 * A rendered mail turned into SES v2 SendEmail input (simple content): subject, html and text
 * parts, the bulk-mail headers (RFC 8058 one-click `List-Unsubscribe`), a configuration set for
 * SES events, and EmailTags naming the campaign and the job so every event finds its job.
 *
 * Whatever becomes a header is checked here once more, whatever the caller checked before: a CR or
 * LF in the subject or the sender would let a value write headers of its own.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { sesRecipient } from './address.js';
import type { RenderedMail } from './compose.js';

export class HeaderValueError extends Error {
  constructor(readonly field: string) {
    super(`The ${field} must be on one line`);
    this.name = 'HeaderValueError';
  }
}

const LINE_BREAK = /[\r\n]/;

/** Throws HeaderValueError naming `field` when the value holds a CR or LF. */
export function assertOneLine(field: string, value: string | null | undefined): void {
  if (value && LINE_BREAK.test(value)) throw new HeaderValueError(field);
}

export interface Sender {
  name: string;
  email: string;
}

// Printable ASCII: a quoted display name is enough. Anything else is an RFC 2047 encoded word.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** UTF-8 bytes per encoded word: 45 bytes -> 60 base64 characters, under the 75-character limit. */
const ENCODED_WORD_BYTES = 45;

/** `"Name" <address>`, the name quoted or encoded (RFC 5322, RFC 2047). */
export function formatSender({ name, email }: Sender): string {
  assertOneLine('sender name', name);
  assertOneLine('sender email', email);
  const trimmed = name.trim();
  if (!trimmed) return email;
  if (PRINTABLE_ASCII.test(trimmed)) return `"${trimmed.replace(/(["\\])/g, '\\$1')}" <${email}>`;
  return `${encodedWords(trimmed)} <${email}>`;
}

function encodedWords(text: string): string {
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > ENCODED_WORD_BYTES) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join(' ');
}

export interface MailEnvelope {
  from: Sender;
  to: string;
  configurationSet: string | undefined;
  /** EmailTags: names and values of letters, digits, `_` and `-` only (SES's rule). */
  tags?: Record<string, string | number>;
}

const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;

export function sendEmailInput(mail: RenderedMail, envelope: MailEnvelope): SendEmailCommandInput {
  assertOneLine('subject', mail.subject);
  assertOneLine('recipient', envelope.to);
  const headers = mail.unsubscribeUrl
    ? [
        { Name: 'List-Unsubscribe', Value: `<${mail.unsubscribeUrl}>` },
        { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
      ]
    : [];
  for (const header of headers) assertOneLine(header.Name, header.Value);
  const tags = Object.entries(envelope.tags ?? {}).map(([Name, value]) => {
    const Value = String(value);
    if (!TAG_PART.test(Name) || !TAG_PART.test(Value)) throw new RangeError(`not a valid SES email tag: ${Name}=${Value}`);
    return { Name, Value };
  });
  return {
    FromEmailAddress: formatSender(envelope.from),
    // An address SES cannot take goes as it is: SES refuses it, and the mail records why.
    Destination: { ToAddresses: [sesRecipient(envelope.to) ?? envelope.to] },
    Content: {
      Simple: {
        Subject: { Data: mail.subject, Charset: 'UTF-8' },
        Body: { Html: { Data: mail.html, Charset: 'UTF-8' }, Text: { Data: mail.text, Charset: 'UTF-8' } },
        ...(headers.length > 0 ? { Headers: headers } : {}),
      },
    },
    ...(envelope.configurationSet ? { ConfigurationSetName: envelope.configurationSet } : {}),
    ...(tags.length > 0 ? { EmailTags: tags } : {}),
  };
}
