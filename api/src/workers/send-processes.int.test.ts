/**
 * Campaign sending by REAL worker processes (`src/workers/main.ts`), side by side on one RabbitMQ
 * queue private to this file, against a local SES-compatible endpoint:
 *  - a worker SIGKILLed in the middle of a campaign and another started: every contact is sent
 *    exactly once, or its job is UNKNOWN (claimed by the dead worker; maybe sent once), never twice;
 *  - two workers together stay under SES's MaxSendRate in every second (sliding), and near it.
 * The processes tell themselves apart to the endpoint by their SDK app id (AWS_SDK_UA_APP_ID).
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

const prefix = `t-send-${randomBytes(5).toString('hex')}.`;
const STALE_SECONDS = 3;
/** SES calls in flight per worker: what a killed worker may leave UNKNOWN. */
const SEND_CONCURRENCY = 10;

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let templateId: number;
const processes: ApiProcess[] = [];

function startWorker(name: string): ApiProcess {
  const worker = startApiProcess('worker', name, {
    DATABASE_URL: t.db.url,
    AMQP_URL: TEST_AMQP_URL,
    QUEUE_PREFIX: prefix,
    SES_ENDPOINT: ses.endpoint,
    SEND_STALE_SECONDS: String(STALE_SECONDS),
    SEND_CONCURRENCY: String(SEND_CONCURRENCY),
    AWS_SDK_UA_APP_ID: name,
  });
  processes.push(worker);
  return worker;
}

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 400, max24HourSend: -1 });
  const queue = new RabbitMqMessageQueue(TEST_AMQP_URL, createLogger({ logLevel: 'silent' }), { prefix, deleteQueuesOnClose: true });
  t = await createTestApp({
    env: { AMQP_URL: TEST_AMQP_URL, QUEUE_PREFIX: prefix, SES_ENDPOINT: ses.endpoint },
    deps: { messageQueueAdapter: queue },
  });
  auth = await bearer();
  templateId = await seedTemplate(t.db.pool, { html: '<p>Hello {{firstName}} of {{city}}</p><a href="https://example.org/x">X</a>' });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(processes.map((p) => p.kill()));
  await t?.close();
  await ses?.close();
  // The queues the worker processes declared (the app deletes those it declared itself).
  await deleteProductQueues(TEST_AMQP_URL, prefix);
}, 60_000);

async function sendCampaign(audienceId: number): Promise<number> {
  const api = () => request(t.app);
  const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Processes', templateId });
  const id = created.body.id as number;
  await api().put(`/api/campaigns/${id}`).set('Authorization', auth).send({
    name: 'Processes',
    audienceId,
    templateId,
    fromName: 'News',
    fromEmail: 'newsletter@example.org',
    subject: 'Hi {{firstName}}',
  });
  const sent = await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth);
  expect(sent.status).toBe(202);
  return id;
}

const jobStatuses = async (id: number) =>
  (await t.db.pool.query<{ email: string; status: string }>('SELECT email, status FROM campaign_jobs WHERE campaign_id = $1', [id])).rows;

const campaignStatus = async (id: number) =>
  (await t.db.pool.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id])).rows[0]!.status;

/** The most mails SES accepted inside any one second (sliding window). */
function maxPerSecond(times: number[]): number {
  let best = 0;
  for (let from = 0, to = 0; to < times.length; to++) {
    while (times[to]! - times[from]! >= 1000) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

describe('worker processes', () => {
  it('a worker killed with SIGKILL mid-campaign leaves every contact sent once or UNKNOWN, never twice', async () => {
    const CONTACTS = 1500;
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, CONTACTS, 'crash.example.org');
    // Each mail takes SES a few milliseconds: the campaign is still going when the worker dies.
    ses.options.intercept = () => ({ delayMs: 4 });
    const id = await sendCampaign(audienceId);
    const crashing = startWorker('worker-a');
    await waitFor('the first worker to have sent 300 mails', async () => (ses.acceptedTotal() >= 300 ? true : undefined), {
      processes: [crashing],
    });
    await crashing.kill();
    expect((await crashing.exited).signal).toBe('SIGKILL');
    const sentBeforeCrash = ses.acceptedTotal();
    expect(sentBeforeCrash).toBeLessThan(CONTACTS);

    const next = startWorker('worker-b');
    try {
      await waitFor('the campaign to be sent', async () => ((await campaignStatus(id)) === 'SENT' ? true : undefined), {
        processes: [next],
        timeoutMs: 90_000,
      });
    } finally {
      ses.options.intercept = undefined;
      await next.stop();
    }

    const jobs = await jobStatuses(id);
    expect(jobs).toHaveLength(CONTACTS);
    const unknown = jobs.filter((job) => job.status === 'UNKNOWN');
    expect(jobs.every((job) => job.status === 'SENT_WAIT_ACK' || job.status === 'UNKNOWN')).toBe(true);
    for (const job of jobs) {
      const received = ses.countFor(job.email);
      if (job.status === 'SENT_WAIT_ACK') expect(received, job.email).toBe(1);
      else expect(received, job.email).toBeLessThanOrEqual(1);
    }
    // Only what the dead worker had on its way to SES can be UNKNOWN: it claims no more jobs than it
    // has call slots, whatever the batches it holds (4 at once, each of up to 50 jobs a claim).
    expect(unknown.length).toBeLessThanOrEqual(SEND_CONCURRENCY);
    expect(Math.max(...ses.accepted.values())).toBe(1);
    expect(ses.acceptedTotal()).toBeGreaterThanOrEqual(CONTACTS - unknown.length);
    // Both processes sent part of it.
    const by = (app: string) =>
      ses.mails.filter((mail) => mail.to.endsWith('@crash.example.org') && mail.userAgent.includes(`app/${app}`)).length;
    expect(by('worker-a')).toBeGreaterThanOrEqual(300);
    expect(by('worker-b')).toBeGreaterThan(0);
  }, 150_000);

  it('two workers together stay under MaxSendRate in every second', async () => {
    const RATE = 25;
    const CONTACTS = 200;
    ses.options.maxSendRate = RATE;
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, CONTACTS, 'rate.example.org');
    const workers = [startWorker('worker-c'), startWorker('worker-d')];
    try {
      // Both are up (they read SES's account as they start sending; wait for them to consume).
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const id = await sendCampaign(audienceId);
      await waitFor('the campaign to be sent', async () => ((await campaignStatus(id)) === 'SENT' ? true : undefined), {
        processes: workers,
        timeoutMs: 60_000,
      });
    } finally {
      for (const worker of workers) expect(await worker.stop()).toEqual({ code: 0, signal: null });
    }
    const times = ses.mails.filter((mail) => mail.to.endsWith('@rate.example.org')).map((mail) => mail.at);
    expect(times).toHaveLength(CONTACTS);
    expect(maxPerSecond(times)).toBeLessThanOrEqual(RATE);
    const seconds = (times.at(-1)! - times[0]!) / 1000;
    // Near it: the machine running the tests is shared, so this only shows they did not crawl.
    expect(CONTACTS / seconds).toBeGreaterThan(0.5 * RATE);
    for (const app of ['worker-c', 'worker-d']) {
      expect(
        ses.mails.filter((mail) => mail.to.endsWith('@rate.example.org') && mail.userAgent.includes(`app/${app}`)).length,
      ).toBeGreaterThan(CONTACTS / 5);
    }
  }, 120_000);
});
