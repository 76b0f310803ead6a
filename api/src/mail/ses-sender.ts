/**
 * SES v2 SendEmail, one call per mail, and what its outcome means for the job:
 *  - sent: SES took the mail (its message id);
 *  - throttled: SES refused for the sending rate; the mail was not sent, try later and slower;
 *  - stopped: the account cannot send now (daily quota used up, sending paused, account suspended,
 *    a sender or configuration SES does not accept, no credentials): nothing of this campaign can
 *    go, so the campaign stops in ERROR with the reason; the mail was not sent;
 *  - rejected: SES refused this one message for good (MessageRejected, a bad address...);
 *  - not-sent: the connection was never made; try later;
 *  - unknown: no answer we can trust (time-out, reset, a server error): the mail may have gone,
 *    so the job is never sent again by itself.
 *
 * The call is the SDK client's own, without its per-call pipeline: the request is the
 * SendEmailCommandInput as JSON (SES v2's REST-JSON protocol puts every member of SendEmail in the
 * body under its own name), signed by the SDK's SigV4 signer with the client's credentials, region
 * and endpoint, and sent over a keep-alive undici pool. Measured on the two-core machine, the
 * client's middleware stack, schema serialiser and endpoint rules cost about 0.5 ms of CPU per call,
 * more than everything else a worker does for a mail together; at 1,500 mails a second that is most
 * of a core (README, Architecture). GetAccount and every other call still go through the client.
 * Nothing is ever retried here: a call that timed out may have sent (docs/architecture.md, Data; Sending, at most once per job).
 */
import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';
import type { SendEmailCommandInput, SESv2Client } from '@aws-sdk/client-sesv2';
import { SignatureV4 } from '@smithy/signature-v4';
import { Pool } from 'undici';
import { SES_TIMEOUTS } from './ses.js';

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
// Errors before the request was written: the connection never opened (or timed out opening).
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

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
  if (status !== undefined && status >= 400 && status < 500) return { kind: 'rejected', reason: message || name };
  return { kind: 'unknown', reason: `No reliable answer from Amazon SES: ${name || 'error'}${detail}` };
}

export interface MailSender {
  /**
   * Serialises and signs one SendEmail call. Done before the mail's send slot, so that when the slot
   * comes the request is written at once: work between the slot and the wire is time in which a busy
   * process can be descheduled, and mails held up together would reach SES together.
   */
  prepare(input: SendEmailCommandInput): Promise<PreparedMail>;
  /** The call, once; never repeated here. */
  send(mail: PreparedMail): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** A signed SendEmail request, or why it could not be made (no credentials...). */
export type PreparedMail =
  | { input: SendEmailCommandInput; body: Buffer; headers: Record<string, string>; signedAt: number }
  | { input: SendEmailCommandInput; failure: unknown };

const SEND_EMAIL_PATH = '/v2/email/outbound-emails';
/** A signature older than this is made again (SES refuses one more than five minutes off). */
const SIGNATURE_MAX_AGE_MS = 60_000;

type SignableRequest = Parameters<SignatureV4['sign']>[0];

interface Target {
  url: URL;
  path: string;
  pool: Pool;
  signer: SignatureV4;
  userAgent: string;
}

/** SendEmail through `ses`'s configuration (credentials, region, endpoint); see the file's comment. */
export function createMailSender(ses: SESv2Client): MailSender {
  let target: Promise<Target> | undefined;
  // Read from the client on the first send: its settings are providers, and some are asynchronous.
  const resolveTarget = async (): Promise<Target> => {
    const { config } = ses;
    const region = await config.region();
    const custom = config.isCustomEndpoint && config.endpoint ? await config.endpoint() : undefined;
    const url = custom
      ? new URL(`${custom.protocol}//${custom.hostname}${custom.port ? `:${custom.port}` : ''}${custom.path}`)
      : new URL(
          config.endpointProvider({
            Region: region,
            UseFIPS: await config.useFipsEndpoint(),
            UseDualStack: await config.useDualstackEndpoint(),
          }).url.href,
        );
    const appId = await config.userAgentAppId();
    return {
      url,
      path: url.pathname.replace(/\/+$/, '') + SEND_EMAIL_PATH,
      pool: new Pool(url.origin, {
        connect: { timeout: SES_TIMEOUTS.connectMs },
        headersTimeout: SES_TIMEOUTS.answerMs,
        bodyTimeout: SES_TIMEOUTS.answerMs,
      }),
      signer: new SignatureV4({ service: 'ses', region, credentials: config.credentials, sha256: KeyedSha256 }),
      userAgent: `mailroom${appId ? ` app/${appId}` : ''}`,
    };
  };

  // Resolved once; a failure (a region provider that throws) is tried again with the next mail.
  const resolved = (): Promise<Target> =>
    (target ??= resolveTarget().catch((error: unknown) => {
      target = undefined;
      throw error;
    }));

  const prepare = async (input: SendEmailCommandInput): Promise<PreparedMail> => {
    try {
      const { url, path, signer, userAgent } = await resolved();
      const body = Buffer.from(JSON.stringify(input));
      const request: SignableRequest = {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path,
        query: {},
        headers: { host: url.host, 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': userAgent },
        body,
      };
      const signedAt = Date.now();
      // The SDK's clock correction, as its own calls use it.
      const signed = await signer.sign(request, { signingDate: new Date(signedAt + ses.config.systemClockOffset) });
      return { input, body, headers: signed.headers, signedAt };
    } catch (failure) {
      return { input, failure };
    }
  };

  return {
    prepare,
    async send(mail) {
      const ready = 'failure' in mail || Date.now() - mail.signedAt <= SIGNATURE_MAX_AGE_MS ? mail : await prepare(mail.input);
      if ('failure' in ready) return classifySendError(ready.failure);
      try {
        const { pool, path } = await resolved();
        const answer = await pool.request({ method: 'POST', path, headers: ready.headers, body: ready.body });
        return outcomeOfAnswer(answer.statusCode, answer.headers['x-amzn-errortype'], await answer.body.text());
      } catch (error) {
        return classifySendError(error);
      }
    },
    async close() {
      if (target) await (await target.catch(() => undefined))?.pool.close();
    },
  };
}

/** SES's answer: the message id, or the error named by `x-amzn-ErrorType` (or the body) with its message. */
function outcomeOfAnswer(status: number, errorType: string | string[] | undefined, text: string): SendOutcome {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: an answer from something in front of SES; the status says the rest.
  }
  if (status >= 200 && status < 300) {
    const { MessageId } = body;
    return typeof MessageId === 'string' && MessageId
      ? { kind: 'sent', messageId: MessageId }
      : { kind: 'unknown', reason: 'Amazon SES answered without a message id' };
  }
  // `TooManyRequestsException:http://...` in the header; `namespace#Name` in a body's __type or code.
  const named = (Array.isArray(errorType) ? errorType[0] : errorType) ?? body.__type ?? body.code ?? body.Code;
  const name = typeof named === 'string' ? (named.split(':')[0]!.split('#').pop() ?? '') : '';
  const message = body.message ?? body.Message;
  return classifySendError({
    name: name || `HTTP ${status}`,
    message: typeof message === 'string' ? message : '',
    $metadata: { httpStatusCode: status },
  });
}

/**
 * The signer's hash, as the SDK's own but with one KeyObject per HMAC key: Node makes a new key
 * object inside every createHmac given the key as bytes (about 20 µs each), and every signature
 * takes an HMAC under the same cached signing key.
 */
const keyObjects = new WeakMap<Uint8Array, KeyObject>();

class KeyedSha256 {
  private readonly hash: Hash | Hmac;

  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    if (secret === undefined) this.hash = createHash('sha256');
    else if (typeof secret === 'string') this.hash = createHmac('sha256', secret);
    else if (secret instanceof Uint8Array) {
      let key = keyObjects.get(secret);
      if (!key) keyObjects.set(secret, (key = createSecretKey(secret)));
      this.hash = createHmac('sha256', key);
    } else
      this.hash = createHmac(
        'sha256',
        ArrayBuffer.isView(secret) ? new Uint8Array(secret.buffer, secret.byteOffset, secret.byteLength) : new Uint8Array(secret),
      );
  }

  update(data: string | Uint8Array): void {
    this.hash.update(data);
  }

  digest(): Promise<Uint8Array> {
    const digest = this.hash.digest();
    return Promise.resolve(new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength));
  }
}
