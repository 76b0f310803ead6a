/**
 * Domain limits (DOMAIN_RATE_LIMITS, issue 28) across two REAL worker processes (`src/workers/main.ts`)
 * on one RabbitMQ queue private to this file, against a local SES-compatible endpoint: every capped
 * domain stays at or under its limit in every sliding second, both processes together; the other
 * domains' mail is not held behind it; every contact gets one mail, no attempt is counted for a wait,
 * and the report's domain table counts the waits and deferrals.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_AMQP_URL, type TestApp } from '../../test/support/app.js';
import { deleteProductQueues } from '../../test/support/queues.js';
import { startApiProcess, waitFor, type ApiProcess } from '../../test/support/processes.js';
import { seedGeneratedAudience, seedTemplate } from '../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../test/support/ses-endpoint.js';
import { bearer } from '../../test/support/tokens.js';
import { createLogger } from '../logger.js';
import { RabbitMqMessageQueue } from '../queue/rabbitmq.js';

const prefix = `t-domains-${randomBytes(5).toString('hex')}.`;
const LIMITS = { 'capped.test': 8, 'one.edu': 4, 'two.edu': 4 };

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
const processes: ApiProcess[] = [];

function startWorker(name: string): ApiProcess {
  const worker = startApiProcess('worker', name, {
    DATABASE_URL: t.db.url,
    AMQP_URL: TEST_AMQP_URL,
    QUEUE_PREFIX: prefix,
    SES_ENDPOINT: ses.endpoint,
    SEND_CONCURRENCY: '10',
    DOMAIN_RATE_LIMITS: 'capped.test=8,*.edu=4',
    AWS_SDK_UA_APP_ID: name,
  });
  processes.push(worker);
  return worker;
}

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 60, max24HourSend: -1 });
  const queue = new RabbitMqMessageQueue(TEST_AMQP_URL, createLogger({ logLevel: 'silent' }), { prefix, deleteQueuesOnClose: true });
  t = await createTestApp({
    env: { AMQP_URL: TEST_AMQP_URL, QUEUE_PREFIX: prefix, SES_ENDPOINT: ses.endpoint },
    deps: { messageQueueAdapter: queue },
  });
  auth = await bearer();
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(processes.map((p) => p.kill()));
  await t?.close();
  await ses?.close();
  await deleteProductQueues(TEST_AMQP_URL, prefix);
}, 60_000);

/** The most mails inside any one second (sliding window). */
function maxPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let from = 0, to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= 1000) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

describe('domain limits across worker processes', () => {
  it('hold each capped domain to its limit across both workers while the other domains flow, each mail once', async () => {
    const CONTACTS = 400;
    const domains = ['capped.test', 'one.edu', 'two.edu', 'free.test', 'free.test', 'free.test', 'free.test', 'open.test'];
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, CONTACTS, domains);
    const templateId = await seedTemplate(t.db.pool, { html: '<p>Hello {{firstName}}</p>' });
    const workers = [startWorker('worker-e'), startWorker('worker-f')];
    let id = 0;
    try {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const api = () => request(t.app);
      const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Domains', templateId });
      id = created.body.id as number;
      await api()
        .put(`/api/campaigns/${id}`)
        .set('Authorization', auth)
        .send({ name: 'Domains', audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Hi' });
      expect((await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth)).status).toBe(202);
      await waitFor(
        'the campaign to be sent',
        async () => {
          const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id]);
          return rows[0]!.status === 'SENT' ? true : undefined;
        },
        { processes: workers, timeoutMs: 90_000 },
      );
    } finally {
      for (const worker of workers) expect(await worker.stop()).toEqual({ code: 0, signal: null });
    }

    const { rows: jobs } = await t.db.pool.query<{ email: string; status: string; attempts: number }>(
      'SELECT email, status, attempts FROM campaign_jobs WHERE campaign_id = $1',
      [id],
    );
    expect(jobs).toHaveLength(CONTACTS);
    // Never lost, never sent twice, a wait or a deferral never counted as an attempt.
    expect(jobs.every((job) => job.status === 'SENT_WAIT_ACK' && job.attempts === 1)).toBe(true);
    for (const job of jobs) expect(ses.countFor(job.email), job.email).toBe(1);

    const timesOf = (domain: string) => ses.mails.filter((mail) => mail.to.endsWith(`@${domain}`)).map((mail) => mail.at);
    if (process.env.DEBUG_DOMAINS) {
      const t0 = Math.min(...ses.mails.map((m) => m.at));
      console.log(
        JSON.stringify(
          Object.fromEntries(
            ['capped.test', 'one.edu', 'free.test'].map((d) => [
              d,
              timesOf(d)
                .map((x) => x - t0)
                .sort((a, b) => a - b),
            ]),
          ),
        ),
      );
      console.log(JSON.stringify((await t.db.pool.query('SELECT * FROM campaign_domain_throttles')).rows));
    }
    for (const [domain, limit] of Object.entries(LIMITS)) {
      const times = timesOf(domain);
      expect(times.length).toBeGreaterThan(20);
      expect(maxPerSecond(times), domain).toBeLessThanOrEqual(limit);
      // Not a crawl: 0.8 of the limit at best; on the two cores shared with other suites (load average near 30)
      // a deferral that comes back late loses its slot, and 2.2 to 3.8 a second of the 8 were measured.
      const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
      expect(times.length / seconds, domain).toBeGreaterThan(0.2 * limit);
    }
    // The other domains were not held behind the capped ones: they were done long before.
    const free = [...timesOf('free.test'), ...timesOf('open.test')];
    expect(Math.max(...free)).toBeLessThan(Math.max(...timesOf('capped.test')) - 1000);
    // Both processes sent capped mail: the limit is one for the deployment.
    for (const app of ['worker-e', 'worker-f'])
      expect(ses.mails.filter((mail) => mail.to.endsWith('@capped.test') && mail.userAgent.includes(`app/${app}`)).length).toBeGreaterThan(
        5,
      );

    // The report's domain table says what the limits did.
    const res = await request(t.app).get(`/api/reports/${id}/domains`).set('Authorization', auth);
    const rows = res.body.domains as { domain: string | null; limitWaits: number; deferrals: number; sesThrottles: number }[];
    const capped = rows.find((row) => row.domain === 'capped.test')!;
    expect(capped.limitWaits + capped.deferrals).toBeGreaterThan(0);
    expect(capped.deferrals).toBeGreaterThan(0);
    expect(rows.find((row) => row.domain === 'free.test')).toMatchObject({ limitWaits: 0, deferrals: 0 });
  }, 150_000);
});
