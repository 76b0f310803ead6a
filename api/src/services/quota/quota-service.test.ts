import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { startTestSes, type TestSes } from '../../../test/support/ses.js';
import { bearer } from '../../../test/support/tokens.js';
import { createQuotaService, quotaFrom, type SendQuota } from './quota-service.js';

describe('quotaFrom', () => {
  it('computes the percentage used and what remains', () => {
    expect(quotaFrom({ max24HourSend: 200, maxSendRate: 1, sentLast24Hours: 50 })).toEqual({
      emailsSent: 50,
      remainingSends: 150,
      quotaUsedPercentage: 25,
      maxSendRate: 1,
      max24HourSend: 200,
    });
    expect(quotaFrom({ max24HourSend: 3, maxSendRate: 14, sentLast24Hours: 1 }).quotaUsedPercentage).toBeCloseTo(33.333, 3);
  });

  it('answers 0 percent when there is no quota, and never a negative remainder', () => {
    expect(quotaFrom({ max24HourSend: 0, maxSendRate: 0, sentLast24Hours: 0 })).toEqual({
      emailsSent: 0,
      remainingSends: 0,
      quotaUsedPercentage: 0,
      maxSendRate: 0,
      max24HourSend: 0,
    });
    const over = quotaFrom({ max24HourSend: 100, maxSendRate: 1, sentLast24Hours: 130 });
    expect(over.remainingSends).toBe(0);
    expect(over.quotaUsedPercentage).toBe(130);
    // SES uses -1 for "unlimited" in places: shown as no quota rather than as negative figures.
    expect(quotaFrom({ max24HourSend: -1, maxSendRate: -1, sentLast24Hours: 10 })).toMatchObject({
      remainingSends: 0,
      quotaUsedPercentage: 0,
      max24HourSend: 0,
      maxSendRate: 0,
    });
  });

  it('shares one SES call between close asks and forgets failures', async () => {
    let calls = 0;
    let fail = true;
    let clock = 0;
    const source = {
      async sendQuota(): Promise<SendQuota> {
        calls++;
        if (fail) throw new Error('throttled');
        return { max24HourSend: 10, maxSendRate: 1, sentLast24Hours: calls };
      },
    };
    const service = createQuotaService(source, { cacheMs: 1000, now: () => clock });
    await expect(service.getQuota()).rejects.toThrow('throttled');
    fail = false;
    const [a, b] = await Promise.all([service.getQuota(), service.getQuota()]);
    expect(a).toBe(b);
    expect(calls).toBe(2);
    clock = 1000;
    expect((await service.getQuota()).emailsSent).toBe(3);
  });
});

describe('the quota against the local SES server (the embedded default)', () => {
  let ses: TestSes;
  let t: TestApp;
  beforeAll(async () => {
    ses = await startTestSes({ max24HourSend: 200, maxSendRate: 1 });
    t = await createTestApp({ ses: ses.client });
  });
  afterAll(async () => {
    await t?.close();
    await ses?.close();
  });

  it('GET /api/ses-quota answers the account quota, counting what the server really sent', async () => {
    await ses.client.send(
      new SendEmailCommand({
        FromEmailAddress: 'newsletter@example.org',
        Destination: { ToAddresses: ['mia@example.org'] },
        Content: { Simple: { Subject: { Data: 'Hello' }, Body: { Text: { Data: 'Hi' } } } },
      }),
    );
    const res = await request(t.app)
      .get('/api/ses-quota')
      .set('Authorization', await bearer())
      .expect(200);
    expect(res.body).toEqual({
      emailsSent: 1,
      remainingSends: 199,
      quotaUsedPercentage: 0.5,
      maxSendRate: 1,
      max24HourSend: 200,
      // No SES_CONFIGURATION_SET in this test's settings: no delivery event will come (an addition).
      deliveryEventsConfigured: false,
      // The in-process queue is always there: nothing is paused (an addition).
      sendingAndImportsPaused: false,
    });
  });
});
