import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSesEndpoint, type SesEndpoint } from '../../test/support/ses-endpoint.js';
import { sendEmailInput } from './message.js';
import { createSesClient } from './ses.js';
import { ACCOUNT_SUSPENDED, classifySendError, DAILY_QUOTA_REACHED, SENDING_PAUSED, sendMail } from './ses-sender.js';

let ses: SesEndpoint;
const client = () => createSesClient({ aws: { region: 'us-east-1', sesEndpoint: ses.endpoint, sesConfigurationSet: undefined } });

const input = (to: string) =>
  sendEmailInput(
    { subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', unsubscribeUrl: 'https://x.example/unsubscribe/t' },
    { from: { name: 'News', email: 'news@example.org' }, to, configurationSet: 'mailroom', tags: { campaign_id: 1, job_id: 2 } },
  );

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 10, max24HourSend: 3, enforceDailyQuota: true });
});
afterAll(() => ses.close());

describe('sendMail against an SES-compatible endpoint', () => {
  it('sends once and answers the message id; the endpoint got the mail as built', async () => {
    const sender = client();
    const outcome = await sendMail(sender, input('one@example.org'));
    expect(outcome).toEqual({ kind: 'sent', messageId: expect.stringMatching(/^local-/) });
    expect(ses.mails[0]).toMatchObject({
      to: 'one@example.org',
      from: '"News" <news@example.org>',
      subject: 'Hi',
      headers: { 'List-Unsubscribe': '<https://x.example/unsubscribe/t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      tags: { campaign_id: '1', job_id: '2' },
      configurationSet: 'mailroom',
    });
    sender.destroy();
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
    expect(await sendMail(sender, input('throttled@example.org'))).toEqual({ kind: 'throttled', reason: 'Maximum sending rate exceeded.' });
    expect(await sendMail(sender, input('paused@example.org'))).toEqual({
      kind: 'stopped',
      reason: `${SENDING_PAUSED} (Sending is paused)`,
    });
    expect(await sendMail(sender, input('suspended@example.org'))).toEqual({ kind: 'stopped', reason: `${ACCOUNT_SUSPENDED} (Suspended)` });
    expect(await sendMail(sender, input('rejected@example.org'))).toEqual({ kind: 'rejected', reason: 'Email address is not verified.' });
    expect(await sendMail(sender, input('broken@example.org'))).toMatchObject({ kind: 'unknown' });
    for (const to of Object.keys(answers)) expect(ses.calls.get(to)).toBe(1);
    ses.options.intercept = undefined;
    sender.destroy();
  });

  it('stops at the daily quota', async () => {
    const sender = client();
    expect(await sendMail(sender, input('two@example.org'))).toMatchObject({ kind: 'sent' });
    expect(await sendMail(sender, input('three@example.org'))).toMatchObject({ kind: 'sent' });
    expect(await sendMail(sender, input('four@example.org'))).toEqual({ kind: 'stopped', reason: DAILY_QUOTA_REACHED });
    sender.destroy();
  });

  it('knows that a refused connection sent nothing', async () => {
    const sender = createSesClient({ aws: { region: 'us-east-1', sesEndpoint: 'http://127.0.0.1:9', sesConfigurationSet: undefined } });
    expect(await sendMail(sender, input('x@example.org'))).toEqual({
      kind: 'not-sent',
      reason: 'Amazon SES could not be reached (ECONNREFUSED)',
    });
    sender.destroy();
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
      classifySendError({
        name: 'TimeoutError',
        message: 'the request socket did not establish a connection with the server within 5000 ms',
      }),
    ).toMatchObject({ kind: 'not-sent' });
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
