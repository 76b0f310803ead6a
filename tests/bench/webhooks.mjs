// `pnpm bench webhooks`: outgoing webhooks (issue 27) delivered by the API's worker process to a local receiver
// started here, which answers 204 at once and notes when each webhook-id arrived. BENCH_ENDPOINTS (4) endpoints,
// paths of that receiver, each want every event, so each event is that many deliveries. Events are recorded as the
// product records them (consent ledger entries, whose trigger writes the deliveries, migration 0034).
//  - Throughput: BENCH_EVENTS events recorded at once (their deliveries a backlog); `webhookRps` is deliveries per second from the first
//    delivery to the last. Budget: >= 500.
//  - Latency: BENCH_RATE deliveries a second (default 500, the budget's rate; events at that over the endpoints) for BENCH_SECONDS;
//    `webhookP99Ms` is the p99 from the event's commit (its delivery's created_at) to its arrival at the
//    receiver. Budget: <= 2000.
// Its ceiling, in the same run: a bare loop posting as many signed bodies of the same size to the same
// receiver, with the worker's concurrency, and no database or queue; `webhookRatio` is webhookRps over it. The machine's
// load average (1, 5, 15 minutes) is printed as the throughput part starts (`loadBefore`) and at the end (`loadAfter`):
// on shared cores the figures swing with it.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { signedHeaders } from '../../api/src/services/webhooks/signature.ts';
import { seedAudience } from '../../api/test/support/seed.ts';
import { percentile } from './support/stats.mjs';
import { API_DIR, startStack } from './support/stack.mjs';

// The HTTP client the worker uses, as the API package has it.
const { Agent, request } = createRequire(join(API_DIR, 'package.json'))('undici');

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
/** Deliveries a second in the latency part (events a second times endpoints). */
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Endpoints registered (paths of the one receiver), each for every event: deliveries = events x endpoints. */
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 4);
/** Attempts at once per endpoint (WEBHOOK_ENDPOINT_CONCURRENCY's default): the ceiling loop runs as many in all. */
const PER_ENDPOINT = 8;
const CONCURRENCY = ENDPOINTS * PER_ENDPOINT;
const log = (...args) => console.log(...args);
const load = () => loadavg().map((n) => Number(n.toFixed(2)));

/** The receiver: 204 at once; the time each id arrived (the first time), and how many requests came. */
async function startReceiver() {
  const arrived = new Map();
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      const id = req.headers['webhook-id'];
      if (id && !arrived.has(id)) arrived.set(id, Date.now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrived,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    },
  };
}

/** Records `n` contact.subscribed events in one statement (one consent ledger entry each). */
async function recordEvents(pool, audienceId, n, tag) {
  await pool.query(
    `INSERT INTO consent_ledger (audience_id, address_key, email, event)
     SELECT $1, $2 || '-' || i || '@example.org', $2 || '-' || i || '@example.org', 'SUBSCRIBED' FROM generate_series(1, $3) i`,
    [audienceId, tag, n],
  );
}

async function waitDelivered(pool, total, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`);
    if (rows[0].n >= total) return;
    if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${total} deliveries delivered in time`);
    await sleep(100);
  }
}

/** The ceiling: `n` signed POSTs of `body` by a bare loop, CONCURRENCY at once; seconds. */
async function bareLoopSeconds(url, n, body) {
  const agent = new Agent({ connections: CONCURRENCY });
  const secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const res = await request(url, { method: 'POST', body, dispatcher: agent, headers: signedHeaders(secret, `bare_${next++}`, body) });
        await res.body.dump();
        if (res.statusCode !== 204) throw new Error(`bare loop: ${res.statusCode}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return seconds;
}

async function main() {
  const receiver = await startReceiver();
  const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  try {
    for (let i = 1; i <= ENDPOINTS; i++) {
      const res = await stack.api('/api/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}/${i}`, events: ['contact.subscribed'], description: `bench receiver ${i}` }),
      });
      if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    }
    const { id: audienceId } = await seedAudience(stack.pool, { headers: ['email'], contacts: [] });

    // Throughput: a backlog of EVENTS.
    const loadBefore = load();
    const burstStarted = performance.now();
    await recordEvents(stack.pool, audienceId, EVENTS, 'burst');
    const burst = EVENTS * ENDPOINTS;
    await waitDelivered(stack.pool, burst, 600_000);
    const times = [...receiver.arrived.values()].sort((a, b) => a - b);
    const spanSeconds = Math.max(0.001, (times.at(-1) - times[0]) / 1000);
    const webhookRps = Math.round(burst / spanSeconds);
    log(
      `throughput: ${EVENTS} events recorded at once, ${burst} deliveries to ${ENDPOINTS} endpoints, delivered in ${((performance.now() - burstStarted) / 1000).toFixed(1)} s; ` +
        `${webhookRps} deliveries/s from the first to the last (budget >= 500)`,
    );

    // Latency: RATE deliveries a second (RATE / ENDPOINTS events), 10 batches a second, for SECONDS.
    const eventsPerSecond = RATE / ENDPOINTS;
    const paced = Math.round(eventsPerSecond * SECONDS);
    const perBatch = Math.max(1, Math.round(eventsPerSecond / 10));
    const pacedStarted = performance.now();
    for (let sent = 0, batch = 0; sent < paced; batch++) {
      const n = Math.min(perBatch, paced - sent);
      await recordEvents(stack.pool, audienceId, n, `paced-${batch}`);
      sent += n;
      const due = pacedStarted + ((batch + 1) * 1000 * perBatch) / eventsPerSecond;
      if (due > performance.now()) await sleep(due - performance.now());
    }
    await waitDelivered(stack.pool, burst + paced * ENDPOINTS, 600_000);
    const { rows } = await stack.pool.query(
      `SELECT message_id, (extract(epoch FROM created_at) * 1000)::float8 AS at FROM webhook_deliveries WHERE payload->'data'->>'email' LIKE 'paced-%'`,
    );
    const latencies = rows.map((row) => receiver.arrived.get(row.message_id) - row.at).sort((a, b) => a - b);
    const webhookP50Ms = Math.round(percentile(latencies, 50));
    const webhookP99Ms = Math.round(percentile(latencies, 99));
    log(
      `latency: ${paced} events at ${eventsPerSecond}/s (${RATE} deliveries/s): event to delivery p50 ${webhookP50Ms} ms, p99 ${webhookP99Ms} ms (budget <= 2000)`,
    );
    const duplicates = receiver.requests() - receiver.arrived.size;

    const body = JSON.stringify({
      type: 'contact.subscribed',
      timestamp: new Date().toISOString(),
      data: { email: 'burst-1@example.org', audienceId, source: 'form' },
    });
    const ceilingSeconds = await bareLoopSeconds(receiver.url, burst, body);
    const ceilingRps = Math.round(burst / ceilingSeconds);
    const webhookRatio = Number((webhookRps / ceilingRps).toFixed(2));
    log(
      `ceiling: ${burst} signed POSTs by a bare loop, ${CONCURRENCY} at once, in ${ceilingSeconds.toFixed(1)} s: ${ceilingRps}/s; deliveries at ${webhookRatio} x`,
    );
    log(`duplicates ${duplicates}`);
    const loadAfter = load();
    log(`load average ${loadBefore.join(' ')} before, ${loadAfter.join(' ')} after`);
    log(
      JSON.stringify({
        bench: 'webhooks',
        events: EVENTS,
        webhookRps,
        ceilingRps,
        webhookRatio,
        rate: RATE,
        webhookP50Ms,
        webhookP99Ms,
        duplicates,
        loadBefore,
        loadAfter,
      }),
    );
  } finally {
    await stack.stop();
    await receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
