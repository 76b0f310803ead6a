import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSesEndpoint, type SesEndpoint } from '../../test/support/ses-endpoint.js';
import { sendEmailInput } from './message.js';
import { createSesClient } from './ses.js';
import { ACCOUNT_SUSPENDED, classifySendError, createMailSender, DAILY_QUOTA_REACHED, SENDING_PAUSED } from './ses-sender.js';

let ses: SesEndpoint;
/** A sender through a client of its own, as the sending service builds one; `send` prepares, then sends. */
function senderTo(sesEndpoint: string) {
  const client = createSesClient({ aws: { region: 'us-east-1', sesEndpoint, sesConfigurationSet: undefined } });
  const mailer = createMailSender(client);
  return {
    mailer,
    send: async (mail: SendEmailCommandInput) => mailer.send(await mailer.prepare(mail)),
    close: async () => {
      await mailer.close();
      client.destroy();
    },
  };
}
const client = () => senderTo(ses.endpoint);

const input = (to: string) =>
  sendEmailInput(
    { subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', unsubscribeUrl: 'https://x.example/unsubscribe/t' },
    { from: { name: 'News', email: 'news@example.org' }, to, configurationSet: 'mailroom', tags: { campaign_id: 1, job_id: 2 } },
  );

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 10, max24HourSend: 3, enforceDailyQuota: true });
});
afterAll(() => ses.close());

describe('a mail sender against an SES-compatible endpoint', () => {
  it('sends once and answers the message id; the endpoint got the mail as built', async () => {
    const sender = client();
    const outcome = await sender.send(input('one@example.org'));
    expect(outcome).toEqual({ kind: 'sent', messageId: expect.stringMatching(/^local-/) });
    expect(ses.mails[0]).toMatchObject({
      to: 'one@example.org',
      from: '"News" <news@example.org>',
      subject: 'Hi',
      headers: { 'List-Unsubscribe': '<https://x.example/unsubscribe/t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      tags: { campaign_id: '1', job_id: '2' },
      configurationSet: 'mailroom',
    });
    await sender.close();
  });

  it('tells throttling, account stops, rejections and unknown outcomes apart, each after exactly one call', async () => {
    const sender = client();
    const answers: Record<string, { error: string; status: number; message: string }> = {
      'throttled@example.org': { error: 'TooManyRequestsException', status: 429, message: 'Maximum sending rate exceeded.' },
      'paused@example.org': { error: 'SendingPausedException', status: 400, message: 'Sending is paused' },
      'suspended@example.org': { error: 'AccountSuspendedException', status: 400, message: 'Suspended' },
      'rejected@example.org': { error: 'MessageRejected', status: 400, message: 'Email address is not verified.' },
      'broken@example.org': { error: 'InternalFailure', status: 500, message: 'Oops' },
    };
    ses.options.intercept = ({ to }) => answers[to];
    expect(await sender.send(input('throttled@example.org'))).toEqual({ kind: 'throttled', reason: 'Maximum sending rate exceeded.' });
    expect(await sender.send(input('paused@example.org'))).toEqual({
      kind: 'stopped',
      reason: `${SENDING_PAUSED} (Sending is paused)`,
    });
    expect(await sender.send(input('suspended@example.org'))).toEqual({ kind: 'stopped', reason: `${ACCOUNT_SUSPENDED} (Suspended)` });
    expect(await sender.send(input('rejected@example.org'))).toEqual({ kind: 'rejected', reason: 'Email address is not verified.' });
    expect(await sender.send(input('broken@example.org'))).toMatchObject({ kind: 'unknown' });
    for (const to of Object.keys(answers)) expect(ses.calls.get(to)).toBe(1);
    ses.options.intercept = undefined;
    await sender.close();
  });

  it('stops at the daily quota', async () => {
    const sender = client();
    expect(await sender.send(input('two@example.org'))).toMatchObject({ kind: 'sent' });
    expect(await sender.send(input('three@example.org'))).toMatchObject({ kind: 'sent' });
    expect(await sender.send(input('four@example.org'))).toEqual({ kind: 'stopped', reason: DAILY_QUOTA_REACHED });
    await sender.close();
  });

  it('knows that a refused connection sent nothing', async () => {
    const sender = senderTo('http://127.0.0.1:9');
    expect(await sender.send(input('x@example.org'))).toEqual({
      kind: 'not-sent',
      reason: 'Amazon SES could not be reached (ECONNREFUSED)',
    });
    await sender.close();
  });
});

describe('a mail sender against answers SES gives rarely', () => {
  let server: Server;
  let answer: { status: number; headers?: Record<string, string>; body: string };
  const seen: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      req.on('end', () => res.writeHead(answer.status, answer.headers).end(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const endpoint = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('posts SigV4-signed JSON to SendEmail', async () => {
    answer = { status: 200, body: '{"MessageId":"m-1"}' };
    const sender = senderTo(endpoint());
    expect(await sender.send(input('signed@example.org'))).toEqual({ kind: 'sent', messageId: 'm-1' });
    const req = seen.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v2/email/outbound-emails');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/us-east-1\/ses\/aws4_request, SignedHeaders=\S*host\S*, Signature=[0-9a-f]{64}$/,
    );
    expect(req.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    await sender.close();
  });

  it('signs again a mail prepared more than a minute before its slot', async () => {
    answer = { status: 200, body: '{"MessageId":"m-2"}' };
    const sender = senderTo(endpoint());
    const prepared = await sender.mailer.prepare(input('late@example.org'));
    if ('failure' in prepared) throw prepared.failure;
    const stale = {
      ...prepared,
      signedAt: prepared.signedAt - 120_000,
      headers: { ...prepared.headers, 'x-amz-date': '20000101T000000Z' },
    };
    expect(await sender.mailer.send(stale)).toEqual({ kind: 'sent', messageId: 'm-2' });
    expect(seen.at(-1)!.headers['x-amz-date']).toMatch(/^2\d{3}[01]\d[0-3]\dT\d{6}Z$/);
    expect(seen.at(-1)!.headers['x-amz-date']).not.toBe('20000101T000000Z');
    await sender.close();
  });

  it('reads the error from the body when there is no header, and distrusts what is not an answer', async () => {
    const sender = senderTo(endpoint());
    answer = { status: 400, body: '{"__type":"com.amazonaws.ses#MessageRejected","message":"Bad address."}' };
    expect(await sender.send(input('a@example.org'))).toEqual({ kind: 'rejected', reason: 'Bad address.' });
    answer = { status: 429, body: '<html>Slow down</html>' };
    expect(await sender.send(input('a@example.org'))).toMatchObject({ kind: 'throttled' });
    answer = { status: 502, body: '<html>Bad gateway</html>' };
    expect(await sender.send(input('a@example.org'))).toMatchObject({ kind: 'unknown' });
    answer = { status: 200, body: '{}' };
    expect(await sender.send(input('a@example.org'))).toEqual({ kind: 'unknown', reason: 'Amazon SES answered without a message id' });
    answer = { status: 200, body: 'not json' };
    expect(await sender.send(input('a@example.org'))).toMatchObject({ kind: 'unknown' });
    await sender.close();
  });
});

describe('classifySendError', () => {
  it('reads the daily quota from the message whatever the error name, and a time-out as unknown', () => {
    expect(classifySendError({ name: 'Throttling', message: 'Daily message quota exceeded' })).toEqual({
      kind: 'stopped',
      reason: DAILY_QUOTA_REACHED,
    });
    expect(
      classifySendError({ name: 'TimeoutError', code: 'ETIMEDOUT', message: 'a request has exceeded the configured 30000 ms' }),
    ).toMatchObject({
      kind: 'unknown',
    });
    expect(
      classifySendError({ name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' }),
    ).toMatchObject({
      kind: 'not-sent',
    });
    expect(
      classifySendError({ name: 'HeadersTimeoutError', code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' }),
    ).toMatchObject({
      kind: 'unknown',
    });
    expect(classifySendError({ name: 'Error', code: 'ECONNRESET', message: 'socket hang up' })).toMatchObject({ kind: 'unknown' });
    expect(
      classifySendError({ name: 'BadRequestException', message: 'Missing final @domain', $metadata: { httpStatusCode: 400 } }),
    ).toEqual({
      kind: 'rejected',
      reason: 'Missing final @domain',
    });
    expect(classifySendError({ name: 'AccessDeniedException', message: 'no', $metadata: { httpStatusCode: 403 } })).toMatchObject({
      kind: 'stopped',
    });
  });
});
