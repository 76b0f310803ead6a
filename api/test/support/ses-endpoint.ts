/**
 * A local SES v2-compatible endpoint that the test (or benchmark) controls, for the sending
 * pipeline: it answers SendEmail and GetAccount as SES does (JSON, `x-amzn-ErrorType` on errors),
 * keeps every mail it accepted (or only counts them), and can behave like SES under pressure:
 *  - `enforcedRate`: more accepted mails than this in the trailing second -> 429 TooManyRequests;
 *  - `trueRate`: the rate SES really grants, whatever MaxSendRate says (other senders share the
 *    account, SES lowered it): a token bucket of that many mails a second, holding a fifth of a
 *    second's worth, answers 429 "Maximum sending rate exceeded" when empty;
 *  - `enforceDailyQuota`: past `max24HourSend` accepted mails -> "Daily message quota exceeded";
 *  - `intercept`: any other answer for a given request (SendingPaused, MessageRejected, a delay...).
 * The worker talks to it through the real SDK with SES_ENDPOINT; nothing in the code knows.
 *
 *   const ses = await startSesEndpoint({ maxSendRate: 50 });
 *   ... SES_ENDPOINT: ses.endpoint ...
 *   expect(ses.countFor('a@example.org')).toBe(1);
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface AcceptedMail {
  messageId: string;
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  tags: Record<string, string>;
  configurationSet: string | undefined;
  /** The SDK's user agent: `app/<AWS_SDK_UA_APP_ID>` in it tells worker processes apart. */
  userAgent: string;
  /** performance.now() of the answer. */
  at: number;
}

export interface SendEmailRequest {
  to: string;
  body: SendEmailBody;
  /** 1 for the first call for this recipient, then 2, 3... (accepted or not). */
  callForRecipient: number;
}

/** What `intercept` may answer instead of accepting. */
export type SesAnswer = { error: string; status: number; message: string } | { delayMs: number } | undefined;

export interface SesEndpointOptions {
  maxSendRate?: number;
  /** -1: unlimited, as SES reports it. */
  max24HourSend?: number;
  /** Accepted earlier (counted in SentLast24Hours and the daily quota). */
  sentBefore?: number;
  enforcedRate?: number;
  /** Mails a second SES really grants (a token bucket); undefined: no such limit. */
  trueRate?: number;
  enforceDailyQuota?: boolean;
  /** false: count calls per recipient only, keep no mail (benchmarks). Default true. */
  keepMail?: boolean;
  intercept?: (request: SendEmailRequest) => SesAnswer | Promise<SesAnswer>;
}

interface SendEmailBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[] };
  ConfigurationSetName?: string;
  EmailTags?: { Name: string; Value: string }[];
  Content?: {
    Simple?: {
      Subject?: { Data?: string };
      Body?: { Html?: { Data?: string }; Text?: { Data?: string } };
      Headers?: { Name: string; Value: string }[];
    };
  };
}

export interface SesEndpoint {
  endpoint: string;
  /** Change at any time: the account's figures and behaviour. */
  options: SesEndpointOptions;
  mails: AcceptedMail[];
  /** Accepted mails per recipient. */
  accepted: Map<string, number>;
  /** SendEmail calls per recipient, whatever the answer. */
  calls: Map<string, number>;
  /** performance.now() of every accepted mail, in order. */
  acceptedAt: number[];
  /** Answers 429 given for the enforced or the true rate. */
  throttled: number;
  /** performance.now() of every SendEmail call, whatever the answer, in order. */
  calledAt: number[];
  /** performance.now() of every 429 for the rate, in order. */
  throttledAt: number[];
  getAccountCalls: number;
  countFor(email: string): number;
  acceptedTotal(): number;
  close(): Promise<void>;
}

/** The true rate's bucket holds this many seconds' worth: jitter of a few tens of milliseconds passes, a faster pace does not. */
const TRUE_RATE_BURST_S = 0.2;

export async function startSesEndpoint(initial: SesEndpointOptions = {}): Promise<SesEndpoint> {
  const options: SesEndpointOptions = { maxSendRate: 14, max24HourSend: 50_000, keepMail: true, ...initial };
  let nextId = 1;
  let acceptedTotal = 0;
  const state: SesEndpoint = {
    endpoint: '',
    options,
    mails: [],
    accepted: new Map(),
    calls: new Map(),
    acceptedAt: [],
    throttled: 0,
    calledAt: [],
    throttledAt: [],
    getAccountCalls: 0,
    countFor: (email) => state.accepted.get(email) ?? 0,
    acceptedTotal: () => acceptedTotal,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /** Accepted mails in the trailing second (acceptedAt is in order: walk back from the end). */
  const acceptedInLastSecond = (now: number): number => {
    let n = 0;
    for (let i = state.acceptedAt.length - 1; i >= 0 && now - state.acceptedAt[i]! < 1000; i--) n++;
    return n;
  };

  /** The true rate's token bucket: tokens left, and when it was last filled. */
  const bucket = { tokens: Number.NaN, at: 0 };
  /** Takes a token of the true rate's bucket; false when it is empty. */
  const takeToken = (rate: number, now: number): boolean => {
    const capacity = Math.max(1, rate * TRUE_RATE_BURST_S);
    bucket.tokens = Number.isNaN(bucket.tokens) ? capacity : Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };

  const throttle = (res: ServerResponse, now: number) => {
    state.throttled++;
    state.throttledAt.push(now);
    error(res, 429, 'TooManyRequestsException', 'Maximum sending rate exceeded.');
  };

  const sendEmail = async (body: SendEmailBody, userAgent: string, res: ServerResponse) => {
    const to = body.Destination?.ToAddresses?.[0] ?? '';
    const callForRecipient = (state.calls.get(to) ?? 0) + 1;
    state.calls.set(to, callForRecipient);
    const answer = await options.intercept?.({ to, body, callForRecipient });
    if (answer && 'delayMs' in answer) await sleep(answer.delayMs);
    else if (answer) return error(res, answer.status, answer.error, answer.message);

    const now = performance.now();
    state.calledAt.push(now);
    if (options.enforcedRate !== undefined && acceptedInLastSecond(now) >= options.enforcedRate) return throttle(res, now);
    if (options.trueRate !== undefined && !takeToken(options.trueRate, now)) return throttle(res, now);
    const daily = options.max24HourSend ?? -1;
    if (options.enforceDailyQuota && daily >= 0 && (options.sentBefore ?? 0) + acceptedTotal >= daily) {
      return error(res, 400, 'ThrottlingException', 'Daily message quota exceeded.');
    }
    const messageId = `local-${nextId++}`;
    acceptedTotal++;
    state.acceptedAt.push(now);
    state.accepted.set(to, (state.accepted.get(to) ?? 0) + 1);
    if (options.keepMail !== false) {
      const simple = body.Content?.Simple;
      state.mails.push({
        messageId,
        to,
        from: body.FromEmailAddress ?? '',
        subject: simple?.Subject?.Data ?? '',
        html: simple?.Body?.Html?.Data ?? '',
        text: simple?.Body?.Text?.Data ?? '',
        headers: Object.fromEntries((simple?.Headers ?? []).map((h) => [h.Name, h.Value])),
        tags: Object.fromEntries((body.EmailTags ?? []).map((t) => [t.Name, t.Value])),
        configurationSet: body.ConfigurationSetName,
        userAgent,
        at: now,
      });
    }
    json(res, 200, { MessageId: messageId });
  };

  const getAccount = (res: ServerResponse) => {
    state.getAccountCalls++;
    json(res, 200, {
      ProductionAccessEnabled: true,
      SendingEnabled: true,
      EnforcementStatus: 'HEALTHY',
      SendQuota: {
        Max24HourSend: options.max24HourSend ?? -1,
        MaxSendRate: options.maxSendRate ?? 14,
        SentLast24Hours: (options.sentBefore ?? 0) + acceptedTotal,
      },
    });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && path === '/v2/email/outbound-emails') {
        let body: SendEmailBody;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SendEmailBody;
        } catch {
          return error(res, 400, 'BadRequestException', 'Body is not JSON');
        }
        const userAgent = `${req.headers['user-agent'] ?? ''} ${req.headers['x-amz-user-agent'] ?? ''}`;
        sendEmail(body, userAgent, res).catch((err: unknown) => error(res, 500, 'InternalFailure', String(err)));
      } else if (req.method === 'GET' && path === '/v2/email/account') {
        getAccount(res);
      } else {
        error(res, 404, 'NotFoundException', `No such operation: ${req.method} ${path}`);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function error(res: ServerResponse, status: number, type: string, message: string): void {
  const text = JSON.stringify({ message });
  res.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
