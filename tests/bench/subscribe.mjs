// `pnpm bench subscribe`: 1,000 distinct addresses signing up to one form at once (issue 25), each as its
// own client address (X-Forwarded-For from loopback, TRUST_PROXY's default), each with the proof-of-work
// solved beforehand as the widget solves it, through the JSON call, against the API and worker processes
// with a local SES. Every sign-up stores a pending sign-up and its confirmation mail's row and is answered;
// the worker sends the mail from the queue (through the shared send rate). Prints requests per second
// (1,000 over the wall time of the burst), p50, p95 and p99 of the answers, and, once the worker has dealt
// with every mail, the confirmation mails SES took per pending sign-up.
// Budget: p99 <= 100 ms, confirmationMailsPerContact exactly 1.
// Its ceiling, in the same run: the API's HTTP processes stopped, a bare Node server in as many processes
// on the same port answering every post with the API's own answer byte for byte (support/bare-server.mjs),
// under the same burst; `subscribeRatio` is the API's requests per second over the bare server's.
import { Buffer } from 'node:buffer';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { solvedPayload } from '../../api/test/support/altcha.ts';
import { percentile } from './support/stats.mjs';
import { bareAnswer, onBareServer } from './support/bare-server.mjs';
import { startCampaignStack } from './send.mjs';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1000);

/** The N-th person's client address: distinct, so no per-client limit is what is measured. */
const clientOf = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** One POST on a connection of its own (as 1,000 browsers would open): status, headers, body. */
function post(url, client, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-forwarded-for': client,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function burst(url, bodies) {
  const latencies = [];
  let failures = 0;
  let answer;
  const started = performance.now();
  await Promise.all(
    bodies.map(async ({ client, body }) => {
      const sent = performance.now();
      const response = await post(url, client, body).catch((error) => ({ status: 0, error }));
      latencies.push(performance.now() - sent);
      if (response.status !== 200) failures++;
      else answer ??= response;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ms = (p) => Number(percentile(latencies, p).toFixed(1));
  return { rps: Math.round(bodies.length / seconds), p50: ms(50), p95: ms(95), p99: ms(99), failures, answer };
}

async function main() {
  // The burst comes through loopback: the public routes' per-address limit is not what is measured.
  process.env.RATE_LIMIT_PUBLIC = '100000000';
  const stack = await startCampaignStack({ maxSendRate: 100_000, max24HourSend: -1 });
  try {
    const { rows } = await stack.pool.query(`INSERT INTO audiences (name) VALUES ('Bench sign-ups') RETURNING id`);
    const audienceId = Number(rows[0].id);
    const created = await stack.api(`/api/audiences/${audienceId}/forms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench news', consentWording: 'I agree.' }),
    });
    if (created.status !== 201) throw new Error(`creating the form: ${created.status} ${await created.text()}`);
    const { slug } = await created.json();
    const url = `${stack.baseUrl}/subscribe/${slug}`;

    const solvingStarted = performance.now();
    const bodies = [];
    for (let n = 0; n < PEOPLE; n++) {
      const challenge = await (await fetch(`${url}/challenge`)).json();
      const altcha = await solvedPayload(challenge);
      bodies.push({ client: clientOf(n + 1), body: JSON.stringify({ email: `person${n}@bench.example.org`, consent: 'yes', altcha }) });
    }
    console.log(`${PEOPLE} challenges fetched and solved in ${((performance.now() - solvingStarted) / 1000).toFixed(1)} s (not measured)`);

    const api = await burst(url, bodies);
    // The mails leave after the answers: wait until the worker has dealt with each (none queued or being sent).
    const mailsStarted = performance.now();
    const unsettled = async () =>
      Number((await stack.pool.query(`SELECT count(*) AS n FROM signup_mails WHERE outcome IN ('queued', 'sending')`)).rows[0].n);
    while ((await unsettled()) > 0) {
      if (performance.now() - mailsStarted > 300_000) throw new Error('the confirmation mails were not all sent within 5 minutes');
      await sleep(100);
    }
    const mailSeconds = (performance.now() - mailsStarted) / 1000;
    const pending = Number((await stack.pool.query('SELECT count(*) AS n FROM pending_signups')).rows[0].n);
    const mails = stack.ses.acceptedTotal();
    const perAddress = [...stack.ses.accepted.values()];
    const confirmationMailsPerContact = Number((mails / Math.max(pending, 1)).toFixed(3));
    console.log(
      `API: ${PEOPLE} sign-ups at once: ${api.rps} requests/s, p50 ${api.p50} ms, p95 ${api.p95} ms, p99 ${api.p99} ms (budget <= 100), ` +
        `${api.failures} not 200`,
    );
    console.log(`the worker had sent every confirmation mail ${mailSeconds.toFixed(1)} s after the burst`);
    console.log(
      `${pending} pending sign-ups, ${mails} confirmation mails taken by SES (${perAddress.filter((n) => n !== 1).length} addresses with other than one): ` +
        `${confirmationMailsPerContact} a pending sign-up (must be 1)`,
    );

    // The ceiling: the same port, the same burst, the API's answer without the API.
    if (!api.answer) throw new Error('no sign-up was answered 200');
    const processes = Number(process.env.HTTP_PROCESSES ?? availableParallelism());
    const answer = bareAnswer('/subscribe/', api.answer.status, api.answer.headers, api.answer.body);
    const ceiling = await onBareServer(stack, processes, [answer], async () => {
      await burst(url, bodies.slice(0, 100)); // warm-up
      return burst(url, bodies);
    });
    const subscribeRatio = Number((api.rps / ceiling.rps).toFixed(2));
    console.log(
      `ceiling: a bare Node server in ${processes} processes on the same port with the same answer: ${ceiling.rps} requests/s, ` +
        `p99 ${ceiling.p99} ms; the API answers at ${subscribeRatio} x`,
    );
    console.log(
      JSON.stringify({
        bench: 'subscribe',
        subscribeRps: api.rps,
        subscribeP50Ms: api.p50,
        subscribeP95Ms: api.p95,
        subscribeP99Ms: api.p99,
        failures: api.failures,
        ceilingRps: ceiling.rps,
        ceilingP99Ms: ceiling.p99,
        subscribeRatio,
        confirmationMailsPerContact,
        mailsSettledSeconds: Number(mailSeconds.toFixed(1)),
      }),
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
