/**
 * The SES event webhook through the whole app (contract validation on): SNS messages signed with a
 * test certificate that the verifier's injected fetcher serves, at a URL that passes the same
 * production rules; everything else about trust is the product's own code.
 */
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { snsVerifier, stringToSign, type SnsMessage } from '../../services/ses-events/sns-message.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/sns');
const KEY = readFileSync(join(FIXTURES, 'signing-key.pem'), 'utf8');
const CERT = readFileSync(join(FIXTURES, 'signing-cert.pem'), 'utf8');
const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem';
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:mailroom-ses-events';

let t: TestApp;
const fetched: string[] = [];
const confirmed = vi.fn(async (_url: string) => undefined);
let counter = 0;

beforeAll(async () => {
  const fetcher = async (url: string) => {
    fetched.push(url);
    if (url !== CERT_URL) throw new Error(`no certificate at ${url}`);
    return CERT;
  };
  t = await createTestApp({
    env: { SNS_TOPIC_ARNS: TOPIC },
    deps: { snsVerifier: snsVerifier(fetcher), confirmSubscription: confirmed },
  });
}, 60_000);
afterAll(() => t?.close());
beforeEach(() => {
  fetched.length = 0;
  confirmed.mockClear();
});

function signed(fields: Partial<SnsMessage> & Pick<SnsMessage, 'Type' | 'Message'>, version: '1' | '2' = '2'): SnsMessage {
  const message: SnsMessage = {
    MessageId: `msg-${++counter}-${Date.now()}`,
    TopicArn: TOPIC,
    Timestamp: new Date().toISOString(),
    SignatureVersion: version,
    SigningCertURL: CERT_URL,
    Signature: '',
    ...fields,
  };
  const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
  signer.update(stringToSign(message), 'utf8');
  return { ...message, Signature: signer.sign(KEY, 'base64') };
}

const post = (message: unknown, type = 'text/plain; charset=UTF-8') =>
  request(t.app)
    .post('/webhooks/ses')
    .set('Content-Type', type)
    .set('x-amz-sns-message-type', String((message as { Type?: string }).Type ?? ''))
    .send(typeof message === 'string' ? message : JSON.stringify(message));

async function jobWithMessageId(email: string): Promise<{ jobId: number; campaignId: number; sesMessageId: string }> {
  const sesMessageId = `ses-${++counter}-${Date.now()}`;
  const { rows: campaigns } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaigns (name, status) VALUES ('Events', 'SENDING') RETURNING id`,
  );
  const campaignId = campaigns[0]!.id;
  const { rows } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, ses_message_id) VALUES ($1, $2, $3, 'SENT_WAIT_ACK', $4) RETURNING id`,
    [campaignId, counter, email, sesMessageId],
  );
  return { jobId: rows[0]!.id, campaignId, sesMessageId };
}

async function job(id: number) {
  const { rows } = await t.db.pool.query('SELECT * FROM campaign_jobs WHERE id = $1', [id]);
  return rows[0];
}

async function suppression(email: string) {
  const { rows } = await t.db.pool.query('SELECT reason, campaign_id FROM suppressions WHERE email_lower = $1', [email.toLowerCase()]);
  return rows[0];
}

const delivery = (sesMessageId: string) => JSON.stringify({ eventType: 'Delivery', mail: { messageId: sesMessageId }, delivery: {} });

describe('SES events through SNS', () => {
  it('moves a job to SENT_SUCCESS on Delivery, with either signature version, as text/plain or JSON', async () => {
    for (const [version, type] of [
      ['1', 'text/plain; charset=UTF-8'],
      ['2', 'application/json'],
    ] as const) {
      const { jobId, sesMessageId } = await jobWithMessageId(`d${version}@example.org`);
      await post(signed({ Type: 'Notification', Message: delivery(sesMessageId) }, version), type).expect(204);
      expect(await job(jobId)).toMatchObject({ status: 'SENT_SUCCESS' });
    }
    // The certificate was fetched once and kept.
    expect(fetched).toEqual([CERT_URL]);
  });

  it('refuses a message changed after it was signed (403), changing nothing', async () => {
    const { jobId, sesMessageId } = await jobWithMessageId('tampered@example.org');
    const other = await jobWithMessageId('other@example.org');
    const message = signed({ Type: 'Notification', Message: delivery(other.sesMessageId) });
    const res = await post({ ...message, Message: delivery(sesMessageId) }).expect(403);
    expect(res.body.message).toMatch(/signature/i);
    expect(await job(jobId)).toMatchObject({ status: 'SENT_WAIT_ACK' });
    expect(await job(other.jobId)).toMatchObject({ status: 'SENT_WAIT_ACK' });
  });

  it('refuses certificates over http, on look-alike hosts or unexpected paths, without fetching them', async () => {
    const { jobId, sesMessageId } = await jobWithMessageId('cert@example.org');
    for (const url of [
      'http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
      'https://sns.eu-west-1.amazonaws.com.evil.test/SimpleNotificationService-0123456789abcdef.pem',
      'https://evil-sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
      'https://sns.eu-west-1.amazonaws.com.cn.evil.test/SimpleNotificationService-1.pem',
      'https://sns.eu-west-1.amazonaws.com:8443/SimpleNotificationService-0123456789abcdef.pem',
      'https://user@sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
      'https://sns.eu-west-1.amazonaws.com/evil.pem',
      'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem?x=1',
      'https://sns.eu-west-1.amazonaws.com/a/../SimpleNotificationService-../../etc.pem',
      'https://127.0.0.1/SimpleNotificationService-0123456789abcdef.pem',
      'file:///etc/passwd',
    ]) {
      const res = await post(signed({ Type: 'Notification', Message: delivery(sesMessageId), SigningCertURL: url })).expect(403);
      expect(res.body.message).toMatch(/certificate/i);
    }
    expect(fetched).toEqual([]);
    expect(await job(jobId)).toMatchObject({ status: 'SENT_WAIT_ACK' });
  });

  it('refuses a topic this deployment did not subscribe to', async () => {
    const { jobId, sesMessageId } = await jobWithMessageId('topic@example.org');
    await post(
      signed({ Type: 'Notification', Message: delivery(sesMessageId), TopicArn: 'arn:aws:sns:eu-west-1:123456789012:someone-else' }),
    ).expect(403);
    expect(await job(jobId)).toMatchObject({ status: 'SENT_WAIT_ACK' });
  });

  it('answers 503 to an event that overtook the record of its send, and applies it when SNS delivers it again', async () => {
    const { jobId, campaignId, sesMessageId } = await jobWithMessageId('early@example.org');
    // The worker has claimed the job and SES answered, but the message id is not written yet.
    await t.db.pool.query(`UPDATE campaign_jobs SET status = 'SENDING', ses_message_id = NULL WHERE id = $1`, [jobId]);
    const tags = { campaign_id: [String(campaignId)], job_id: [String(jobId)], 'ses:configuration-set': ['mailroom'] };
    const message = signed({
      Type: 'Notification',
      Message: JSON.stringify({ eventType: 'Delivery', mail: { messageId: sesMessageId, tags }, delivery: {} }),
    });
    await post(message).expect(503);
    expect(await job(jobId)).toMatchObject({ status: 'SENDING' });

    // The worker records the send; SNS's next delivery of the same message applies.
    await t.db.pool.query(`UPDATE campaign_jobs SET status = 'SENT_WAIT_ACK', ses_message_id = $2 WHERE id = $1`, [jobId, sesMessageId]);
    await post(message).expect(204);
    expect(await job(jobId)).toMatchObject({ status: 'SENT_SUCCESS' });

    // Tags naming no job of ours (or one not sending) change nothing and are not retried.
    const stray = { campaign_id: ['999999'], job_id: ['999999'] };
    await post(
      signed({ Type: 'Notification', Message: JSON.stringify({ eventType: 'Delivery', mail: { messageId: 'unknown', tags: stray } }) }),
    ).expect(204);
  });

  describe('an event for a job left UNKNOWN', () => {
    /** A job whose worker died before it recorded SES's answer: UNKNOWN, no message id, not counted as sent. */
    async function unknownJob(email: string) {
      const made = await jobWithMessageId(email);
      await t.db.pool.query(`UPDATE campaign_jobs SET status = 'UNKNOWN', ses_message_id = NULL, error_message = 'lost' WHERE id = $1`, [
        made.jobId,
      ]);
      const tags = { campaign_id: [String(made.campaignId)], job_id: [String(made.jobId)] };
      return { ...made, tags };
    }
    const counters = async (campaignId: number) =>
      (await t.db.pool.query('SELECT jobs_sent, jobs_failed FROM campaigns WHERE id = $1', [campaignId])).rows[0];
    const counted = async (campaignId: number) =>
      (
        await t.db.pool.query<{ status: string; bounce_type: string; jobs: number }>(
          'SELECT status, bounce_type, jobs FROM campaign_job_counts WHERE campaign_id = $1 AND jobs > 0 ORDER BY status',
          [campaignId],
        )
      ).rows;

    it('a Delivery moves it to SENT_SUCCESS with the message id, counted as sent', async () => {
      const { jobId, campaignId, sesMessageId, tags } = await unknownJob('Lost@Example.org');
      const mail = { messageId: sesMessageId, tags, destination: ['lost@example.org'], timestamp: '2026-11-01T10:00:00.000Z' };
      await post(signed({ Type: 'Notification', Message: JSON.stringify({ eventType: 'Delivery', mail, delivery: {} }) })).expect(204);
      expect(await job(jobId)).toMatchObject({ status: 'SENT_SUCCESS', ses_message_id: sesMessageId, error_message: null });
      expect((await job(jobId)).sent_at.toISOString()).toBe('2026-11-01T10:00:00.000Z');
      expect(await counters(campaignId)).toEqual({ jobs_sent: 1, jobs_failed: 0 });
      expect(await counted(campaignId)).toEqual([{ status: 'SENT_SUCCESS', bounce_type: 'NONE', jobs: 1 }]);
    });

    it('a Permanent bounce records it as sent and HARD, and suppresses the address; a complaint as delivered', async () => {
      const bounced = await unknownJob('vanished@example.org');
      await post(
        signed({
          Type: 'Notification',
          Message: JSON.stringify({
            eventType: 'Bounce',
            mail: { messageId: bounced.sesMessageId, tags: bounced.tags, destination: ['vanished@example.org'] },
            bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 'vanished@example.org' }] },
          }),
        }),
      ).expect(204);
      expect(await job(bounced.jobId)).toMatchObject({ status: 'SENT_WAIT_ACK', bounce_type: 'HARD' });
      expect(await counters(bounced.campaignId)).toEqual({ jobs_sent: 1, jobs_failed: 0 });
      expect(await suppression('vanished@example.org')).toMatchObject({ reason: 'HARD_BOUNCE', campaign_id: bounced.campaignId });

      const complained = await unknownJob('cross@example.org');
      await post(
        signed({
          Type: 'Notification',
          Message: JSON.stringify({
            eventType: 'Complaint',
            mail: { messageId: complained.sesMessageId, tags: complained.tags, destination: ['cross@example.org'] },
            complaint: { complainedRecipients: [{ emailAddress: 'cross@example.org' }] },
          }),
        }),
      ).expect(204);
      expect(await job(complained.jobId)).toMatchObject({ status: 'SENT_WAIT_ACK', complaint_type: 'complaint' });
      expect(await counters(complained.campaignId)).toEqual({ jobs_sent: 1, jobs_failed: 0 });
    });

    it('stays UNKNOWN when the mail went to another address, or the message id is already another job’s', async () => {
      const other = await unknownJob('mine@example.org');
      const mail = { messageId: other.sesMessageId, tags: other.tags, destination: ['someone-else@example.org'] };
      await post(signed({ Type: 'Notification', Message: JSON.stringify({ eventType: 'Delivery', mail, delivery: {} }) })).expect(204);
      expect(await job(other.jobId)).toMatchObject({ status: 'UNKNOWN', ses_message_id: null });

      const taken = await jobWithMessageId('taken@example.org');
      const stale = await unknownJob('stale@example.org');
      const reused = { messageId: taken.sesMessageId, tags: stale.tags, destination: ['stale@example.org'] };
      await post(signed({ Type: 'Notification', Message: JSON.stringify({ eventType: 'Delivery', mail: reused, delivery: {} }) })).expect(
        204,
      );
      expect(await job(stale.jobId)).toMatchObject({ status: 'UNKNOWN' });
      expect(await job(taken.jobId)).toMatchObject({ status: 'SENT_SUCCESS' });
      expect(await counters(stale.campaignId)).toEqual({ jobs_sent: 0, jobs_failed: 0 });
    });
  });

  it('applies a MessageId once, however often SNS repeats it', async () => {
    const { jobId, sesMessageId } = await jobWithMessageId('Repeat@Example.org');
    const bounce = signed({
      Type: 'Notification',
      Message: JSON.stringify({
        eventType: 'Bounce',
        mail: { messageId: sesMessageId },
        bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull', bouncedRecipients: [{ emailAddress: 'Repeat@Example.org' }] },
      }),
    });
    await post(bounce).expect(204);
    await t.db.pool.query('UPDATE campaign_jobs SET bounce_type = NULL WHERE id = $1', [jobId]);
    await post(bounce).expect(204);
    await post(bounce).expect(204);
    expect(await job(jobId)).toMatchObject({ bounce_type: null });
  });

  it('records a Permanent bounce as HARD with its message and time, and suppresses the address', async () => {
    const { jobId, campaignId, sesMessageId } = await jobWithMessageId('Gone@Example.org');
    const at = '2026-11-20T10:11:12.000Z';
    await post(
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          eventType: 'Bounce',
          mail: { messageId: sesMessageId },
          bounce: {
            bounceType: 'Permanent',
            bounceSubType: 'General',
            timestamp: at,
            bouncedRecipients: [{ emailAddress: 'Gone@Example.org', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
          },
        }),
      }),
    ).expect(204);
    expect(await job(jobId)).toMatchObject({
      bounce_type: 'HARD',
      bounce_message: 'smtp; 550 5.1.1 user unknown',
      bounce_time: new Date(at),
    });
    expect(await suppression('gone@example.org')).toEqual({ reason: 'HARD_BOUNCE', campaign_id: campaignId });
  });

  it('suppresses a recipient SES names by its domain in ASCII form under the address the contact has', async () => {
    const { campaignId, sesMessageId } = await jobWithMessageId('Ann@München.example');
    await post(
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          eventType: 'Complaint',
          mail: { messageId: sesMessageId },
          complaint: { complainedRecipients: [{ emailAddress: 'Ann@xn--mnchen-3ya.example' }] },
        }),
      }),
    ).expect(204);
    const { rows } = await t.db.pool.query(`SELECT reason, campaign_id FROM suppressions WHERE email_lower = address_key($1)`, [
      'ann@MÜNCHEN.example',
    ]);
    expect(rows).toEqual([{ reason: 'COMPLAINT', campaign_id: campaignId }]);
  });

  it('records a hard bounce and a complaint in the consent ledger once, for every audience, with the reason', async () => {
    const ledger = (email: string) =>
      t.db.pool
        .query(`SELECT event, audience_id, email, detail FROM consent_ledger WHERE address_key = address_key($1) ORDER BY id`, [email])
        .then((r) => r.rows);
    const bounceOf = (sesMessageId: string, email: string) =>
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          eventType: 'Bounce',
          mail: { messageId: sesMessageId },
          bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: email }] },
        }),
      });
    const first = await jobWithMessageId('Ledger.Bounce@Example.org');
    await post(bounceOf(first.sesMessageId, 'Ledger.Bounce@Example.org')).expect(204);
    // A second bounce of the same address, already suppressed, changes nothing and records nothing.
    const second = await jobWithMessageId('ledger.bounce@example.org');
    await post(bounceOf(second.sesMessageId, 'ledger.bounce@example.org')).expect(204);
    expect(await ledger('ledger.bounce@example.org')).toEqual([
      { event: 'SUPPRESSED', audience_id: null, email: 'Ledger.Bounce@Example.org', detail: { reason: 'HARD_BOUNCE' } },
    ]);

    const angry = await jobWithMessageId('ledger.angry@example.org');
    await post(
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          eventType: 'Complaint',
          mail: { messageId: angry.sesMessageId },
          complaint: { complainedRecipients: [{ emailAddress: 'ledger.angry@example.org' }] },
        }),
      }),
    ).expect(204);
    expect(await ledger('ledger.angry@example.org')).toEqual([
      { event: 'SUPPRESSED', audience_id: null, email: 'ledger.angry@example.org', detail: { reason: 'COMPLAINT' } },
    ]);
    // A soft bounce suppresses nothing, and records nothing.
    const full = await jobWithMessageId('ledger.full@example.org');
    await post(
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          eventType: 'Bounce',
          mail: { messageId: full.sesMessageId },
          bounce: {
            bounceType: 'Transient',
            bounceSubType: 'MailboxFull',
            bouncedRecipients: [{ emailAddress: 'ledger.full@example.org' }],
          },
        }),
      }),
    ).expect(204);
    expect(await ledger('ledger.full@example.org')).toEqual([]);
  });

  it('records other bounces as SOFT without suppressing', async () => {
    const { jobId, sesMessageId } = await jobWithMessageId('full@example.org');
    await post(
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          notificationType: 'Bounce',
          mail: { messageId: sesMessageId },
          bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull', bouncedRecipients: [{ emailAddress: 'full@example.org' }] },
        }),
      }),
    ).expect(204);
    expect(await job(jobId)).toMatchObject({ bounce_type: 'SOFT', bounce_message: 'Transient: MailboxFull' });
    expect(await suppression('full@example.org')).toBeUndefined();
  });

  it('records a Complaint with its type and time, and suppresses the address', async () => {
    const { jobId, campaignId, sesMessageId } = await jobWithMessageId('angry@example.org');
    const at = '2026-11-21T08:00:00.000Z';
    await post(
      signed({
        Type: 'Notification',
        Message: JSON.stringify({
          eventType: 'Complaint',
          mail: { messageId: sesMessageId },
          complaint: { complaintFeedbackType: 'abuse', timestamp: at, complainedRecipients: [{ emailAddress: 'angry@example.org' }] },
        }),
      }),
    ).expect(204);
    expect(await job(jobId)).toMatchObject({ complaint_type: 'abuse', complaint_time: new Date(at), status: 'SENT_WAIT_ACK' });
    expect(await suppression('angry@example.org')).toEqual({ reason: 'COMPLAINT', campaign_id: campaignId });
  });

  it('confirms a subscription only through a genuine SubscribeURL of the same topic', async () => {
    const genuine = `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=abc`;
    await post(signed({ Type: 'SubscriptionConfirmation', Message: 'confirm', SubscribeURL: genuine, Token: 'abc' })).expect(204);
    expect(confirmed).toHaveBeenCalledWith(genuine);
    confirmed.mockClear();
    for (const url of [
      'https://evil.test/?Action=ConfirmSubscription',
      'http://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=abc',
      `https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe&TopicArn=${encodeURIComponent(TOPIC)}&Token=abc`,
      'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:eu-west-1:123456789012:other&Token=abc',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      await post(signed({ Type: 'SubscriptionConfirmation', Message: 'confirm', SubscribeURL: url, Token: 'abc' })).expect(403);
    }
    expect(confirmed).not.toHaveBeenCalled();
  });

  it('answers 400 to a body that is not an SNS message, and ignores an unknown event', async () => {
    await post('not json at all').expect(400);
    await post({ Type: 'Notification', MessageId: 'x' }).expect(400);
    await post(signed({ Type: 'Notification', Message: JSON.stringify({ eventType: 'Open', mail: { messageId: 'nope' } }) })).expect(204);
    await post(signed({ Type: 'Notification', Message: 'plain text, not an SES event' })).expect(204);
  });
});

describe('repeated soft bounces (an addition: SOFT_BOUNCE_LIMIT, default 3)', () => {
  const softBounce = (sesMessageId: string, email: string) =>
    signed({
      Type: 'Notification',
      Message: JSON.stringify({
        eventType: 'Bounce',
        mail: { messageId: sesMessageId, destination: [email] },
        bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull', bouncedRecipients: [{ emailAddress: email }] },
      }),
    });
  const delivered = (sesMessageId: string, email: string) =>
    signed({
      Type: 'Notification',
      Message: JSON.stringify({ eventType: 'Delivery', mail: { messageId: sesMessageId, destination: [email] }, delivery: {} }),
    });

  it('suppresses an address at its third soft bounce in a row, not before, with the campaign of the last', async () => {
    const email = 'Often.Full@Example.org';
    const first = await jobWithMessageId(email);
    await post(softBounce(first.sesMessageId, email)).expect(204);
    // SNS repeating a message, or SES reporting the same mail's bounce again, counts once.
    const again = softBounce(first.sesMessageId, email);
    await post(again).expect(204);
    await post(again).expect(204);
    await post(softBounce(first.sesMessageId, email)).expect(204);
    const second = await jobWithMessageId(email);
    await post(softBounce(second.sesMessageId, email)).expect(204);
    expect(await suppression(email)).toBeUndefined();
    const third = await jobWithMessageId(email);
    await post(softBounce(third.sesMessageId, email)).expect(204);
    expect(await suppression(email)).toEqual({ reason: 'SOFT_BOUNCE', campaign_id: third.campaignId });
  });

  it('starts counting again after a delivery in between', async () => {
    const email = 'sometimes.full@example.org';
    for (const outcome of ['soft', 'soft', 'delivered', 'soft', 'soft'] as const) {
      const { sesMessageId } = await jobWithMessageId(email);
      await post(outcome === 'soft' ? softBounce(sesMessageId, email) : delivered(sesMessageId, email)).expect(204);
    }
    expect(await suppression(email)).toBeUndefined();
    const { sesMessageId } = await jobWithMessageId(email);
    await post(softBounce(sesMessageId, email)).expect(204);
    expect(await suppression(email)).toMatchObject({ reason: 'SOFT_BOUNCE' });
  });

  it('keeps the first reason of an address already suppressed', async () => {
    const email = 'quit.then.full@example.org';
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ($1, 'UNSUBSCRIBE')`, [email]);
    for (let i = 0; i < 3; i++) {
      const { sesMessageId } = await jobWithMessageId(email);
      await post(softBounce(sesMessageId, email)).expect(204);
    }
    expect(await suppression(email)).toEqual({ reason: 'UNSUBSCRIBE', campaign_id: null });
  });
});
