/**
 * One SES v2 SendEmail call (the client has maxAttempts 1: the SDK never repeats a call that may
 * have sent) and what its outcome means for the job:
 *  - sent: SES took the mail (its message id);
 *  - throttled: SES refused for the sending rate; the mail was not sent, try later and slower;
 *  - stopped: the account cannot send now (daily quota used up, sending paused, account suspended,
 *    a sender or configuration SES does not accept, no credentials): nothing of this campaign can
 *    go, so the campaign stops in ERROR with the reason; the mail was not sent;
 *  - rejected: SES refused this one message for good (MessageRejected, a bad address...);
 *  - not-sent: the connection was never made; try later;
 *  - unknown: no answer we can trust (time-out, reset, a server error): the mail may have gone,
 *    so the job is never sent again by itself.
 */
import { SendEmailCommand, type SendEmailCommandInput, type SESv2Client } from '@aws-sdk/client-sesv2';

export type SendOutcome =
  | { kind: 'sent'; messageId: string }
  | { kind: 'throttled'; reason: string }
  | { kind: 'stopped'; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'not-sent'; reason: string }
  | { kind: 'unknown'; reason: string };

export const DAILY_QUOTA_REACHED = 'The daily sending quota of Amazon SES is used up. Continue the campaign once the quota allows.';
export const SENDING_PAUSED = 'Amazon SES has paused sending for this account.';
export const ACCOUNT_SUSPENDED = 'The Amazon SES account is suspended.';

const THROTTLING = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling', 'LimitExceededException']);
const ACCOUNT_STOPS = new Set([
  'MailFromDomainNotVerifiedException',
  'NotFoundException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'ExpiredTokenException',
  'CredentialsProviderError',
]);
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

export function classifySendError(error: unknown): Exclude<SendOutcome, { kind: 'sent' }> {
  const e = (error ?? {}) as SdkError;
  const name = e.name ?? '';
  const message = (e.message ?? String(error)).slice(0, 500);
  const status = e.$metadata?.httpStatusCode;
  const detail = message ? ` (${message})` : '';

  if (/daily (message |sending )?quota/i.test(message)) return { kind: 'stopped', reason: DAILY_QUOTA_REACHED };
  if (THROTTLING.has(name) || status === 429) return { kind: 'throttled', reason: message || name };
  if (name === 'SendingPausedException') return { kind: 'stopped', reason: `${SENDING_PAUSED}${detail}` };
  if (name === 'AccountSuspendedException') return { kind: 'stopped', reason: `${ACCOUNT_SUSPENDED}${detail}` };
  if (ACCOUNT_STOPS.has(name) || status === 403) return { kind: 'stopped', reason: `Amazon SES refused to send: ${name}${detail}` };
  if (e.code && NEVER_CONNECTED.has(e.code)) return { kind: 'not-sent', reason: `Amazon SES could not be reached (${e.code})` };
  if (/did not establish a connection|without establishing a connection/i.test(message))
    return { kind: 'not-sent', reason: `Amazon SES could not be reached${detail}` };
  if (status !== undefined && status >= 400 && status < 500) return { kind: 'rejected', reason: message || name };
  return { kind: 'unknown', reason: `No reliable answer from Amazon SES: ${name || 'error'}${detail}` };
}

export async function sendMail(ses: SESv2Client, input: SendEmailCommandInput): Promise<SendOutcome> {
  try {
    const { MessageId } = await ses.send(new SendEmailCommand(input));
    if (!MessageId) return { kind: 'unknown', reason: 'Amazon SES answered without a message id' };
    return { kind: 'sent', messageId: MessageId };
  } catch (error) {
    return classifySendError(error);
  }
}
