/**
 * The quota call also tells whether the deployment takes SES delivery events (an addition to the
 * spec): the report warns when it does not, as no mail would ever leave 'Sent (waiting Ack)'.
 */
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';

const sendQuota = { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 20 };
const ses = { send: async () => ({ SendQuota: sendQuota }), destroy() {} };
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:mailroom-ses-events';

describe('GET /api/ses-quota: whether delivery events are configured', () => {
  const apps: TestApp[] = [];
  const appWith = async (env: Record<string, string | undefined>) => {
    const app = await createTestApp({ ses: ses as never, env: { SES_CONFIGURATION_SET: undefined, SNS_TOPIC_ARNS: undefined, ...env } });
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('is true with both the configuration set and an SNS topic, and false without either', async () => {
    for (const [env, configured] of [
      [{ SES_CONFIGURATION_SET: 'mailroom', SNS_TOPIC_ARNS: TOPIC }, true],
      [{ SES_CONFIGURATION_SET: 'mailroom' }, false],
      [{ SNS_TOPIC_ARNS: TOPIC }, false],
      [{}, false],
    ] as const) {
      const t = await appWith(env);
      const res = await request(t.app)
        .get('/api/ses-quota')
        .set('Authorization', await bearer())
        .expect(200);
      expect(res.body, JSON.stringify(env)).toMatchObject({
        emailsSent: 20,
        max24HourSend: 200,
        deliveryEventsConfigured: configured,
        // The in-process queue is always there (the broker's outage: ../broker-outage.test.ts).
        sendingAndImportsPaused: false,
      });
    }
    // Four apps, each with its own database: slow on a busy machine.
  }, 90_000);
});
