/**
 * Outgoing webhooks through outages (issue 27), run as the other outage tests are (outages.int.test.ts): two
 * REAL worker processes deliver to a local receiver while events keep being recorded, and meanwhile
 *  - RabbitMQ stops for a few seconds,
 *  - PostgreSQL stops for a few seconds,
 *  - a worker is SIGKILLed and started again.
 * Then: no delivery is lost (every one DELIVERED, and its webhook-id received), and a delivery received more
 * than once carries the same id and body each time. The broken services are this file's own
 * (test/support/outages.ts), never the machine's. Prints deliveries, duplicates and the seconds to drain.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { startOwnPostgres, startOwnRabbitMq, type OwnService } from '../../test/support/outages.js';
import { startApiProcess, waitFor, type ApiProcess } from '../../test/support/processes.js';
import { seedAudience } from '../../test/support/seed.js';
import { bearer } from '../../test/support/tokens.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/support/webhook-receiver.js';
import { createLogger } from '../logger.js';
import { RabbitMqMessageQueue } from '../queue/rabbitmq.js';

/** Events recorded: in batches, before, during and after the outages. */
const BATCHES = 40;
const PER_BATCH = 100;
const OUTAGE_MS = 5_000;

const prefix = `t-whout-${randomBytes(5).toString('hex')}.`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let pg: OwnService | undefined;
let mq: OwnService | undefined;
let t: TestApp;
let receiver: WebhookReceiver;
let workDir: string;
const processes: ApiProcess[] = [];

function startWorker(name: string): ApiProcess {
  const worker = startApiProcess('worker', name, {
    DATABASE_URL: t.db.url,
    AMQP_URL: mq!.url,
    QUEUE_PREFIX: prefix,
    SES_ENDPOINT: 'http://127.0.0.1:9',
    IMPORT_DIR: join(workDir, 'spool'),
    WEBHOOK_TIMEOUT_SECONDS: '2',
    WEBHOOK_RETRY_BASE_MS: '200',
  });
  processes.push(worker);
  return worker;
}

/** A probe of the test's own database; undefined while the database is away. */
async function query<R>(text: string, params: unknown[] = []): Promise<R[] | undefined> {
  try {
    return (await t.db.pool.query(text, params)).rows as R[];
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  [pg, mq] = await Promise.all([startOwnPostgres(), startOwnRabbitMq()]);
  workDir = await mkdtemp(join(tmpdir(), 'mailroom-webhook-outages-'));
  receiver = await startWebhookReceiver();
  const queue = new RabbitMqMessageQueue(mq.url, createLogger({ logLevel: 'silent' }), { prefix });
  t = await createTestApp({ serverUrl: pg.url, env: { AMQP_URL: mq.url, QUEUE_PREFIX: prefix }, deps: { messageQueueAdapter: queue } });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(processes.map((p) => p.kill()));
  await t?.close().catch(() => undefined);
  await receiver?.close();
  // The node and the cluster go with everything on them (queues, the test database).
  await Promise.allSettled([pg?.close(), mq?.close()]);
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 120_000);

it('loses no delivery through broker and database outages and a killed worker; duplicates carry the same id', async () => {
  const created = await request(t.app)
    .post('/api/webhooks')
    .set('Authorization', await bearer())
    .send({ url: `${receiver.url}/in`, events: ['contact.subscribed'] });
  expect(created.status).toBe(201);
  const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [] });
  const workers = [startWorker('worker-1'), startWorker('worker-2')];

  // Events keep coming, whatever is down (a batch meeting a database outage is written again after).
  let recorded = 0;
  const recording = (async () => {
    for (let batch = 0; batch < BATCHES; batch++) {
      for (;;) {
        const done = await query(
          `INSERT INTO consent_ledger (audience_id, address_key, email, event)
           SELECT $1, 'p' || $2 || '-' || n || '@example.org', 'p' || $2 || '-' || n || '@example.org', 'SUBSCRIBED'
             FROM generate_series(1, $3) n`,
          [audience.id, batch, PER_BATCH],
        );
        if (done) break;
        await sleep(200);
      }
      recorded += PER_BATCH;
      await sleep(250);
    }
  })();

  await waitFor('deliveries flowing', async () => (receiver.received.length >= 500 ? true : undefined), {
    processes: workers,
    timeoutMs: 60_000,
  });
  await mq!.stop();
  await sleep(OUTAGE_MS);
  await mq!.start();
  await waitFor('deliveries after the broker came back', async () => (receiver.received.length >= 1500 ? true : undefined), {
    processes: workers,
    timeoutMs: 90_000,
  });
  await pg!.stop();
  await sleep(OUTAGE_MS);
  await pg!.start();
  await workers[0]!.kill();
  workers[0] = startWorker('worker-1-again');
  await recording;
  expect(recorded).toBe(BATCHES * PER_BATCH);

  const started = Date.now();
  const pending = async () =>
    (await query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'DELIVERED'`))?.[0]?.n;
  await waitFor('every delivery delivered', async () => ((await pending()) === 0 ? true : undefined), {
    processes: [workers[1]!],
    timeoutMs: 120_000,
  });
  const drainSeconds = (Date.now() - started) / 1000;

  const deliveries = (await query<{ message_id: string; payload: unknown }>('SELECT message_id, payload FROM webhook_deliveries'))!;
  expect(deliveries).toHaveLength(BATCHES * PER_BATCH);
  const bodies = new Map<string, Set<string>>();
  for (const hit of receiver.received) {
    const id = String(hit.headers['webhook-id']);
    bodies.set(id, (bodies.get(id) ?? new Set()).add(hit.body));
  }
  const known = new Set(deliveries.map((d) => d.message_id));
  // None lost: every delivery's id arrived; nothing arrived that is not a delivery.
  expect(deliveries.filter((d) => !bodies.has(d.message_id))).toEqual([]);
  expect([...bodies.keys()].filter((id) => !known.has(id))).toEqual([]);
  // A copy is the same delivery: one body per id, the one stored.
  for (const d of deliveries) {
    expect(bodies.get(d.message_id)!.size).toBe(1);
    expect(JSON.parse([...bodies.get(d.message_id)!][0]!)).toEqual(d.payload);
  }
  const duplicates = receiver.received.length - bodies.size;
  console.log(
    `webhook outages: ${deliveries.length} deliveries, ${receiver.received.length} received (${duplicates} duplicates), drained ${drainSeconds.toFixed(1)} s after the last fault`,
  );
}, 400_000);
