// `pnpm bench tracking`: the open pixel and click redirect under load on loopback (autocannon against
// the API process), for the jobs of a 1,000-contact campaign really sent through the pipeline (five
// links, and the hidden link no person sees, left out here): half opens, half clicks, spread over every job and link. Prints requests per second, p99
// latency and errors (anything but the image or the redirect). Budget: >= 5,000 requests/s,
// p99 <= 20 ms, no errors.
// Its ceiling, in the same run: the API's HTTP processes stopped, a bare Node server in as many
// processes on the same port answering the same requests with the API's own 302 and GIF, byte for
// byte (support/bare-server.mjs), under the same load; `trackingRatio` is the API's requests per
// second over the bare server's.
import autocannon from 'autocannon';
import { Buffer } from 'node:buffer';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTrackingTokens } from '../../api/src/mail/tracking-tokens.ts';
import { bareAnswer, onBareServer } from './support/bare-server.mjs';
import { seedCampaign, sendCampaign, startCampaignStack } from './send.mjs';

/** An answer of the API's as the bare server replays it: status, headers (less the per-connection ones), body. */
/** The API's answer to a GET of `url`, for the bare server to repeat to every URL starting with `prefix`. */
async function recorded(url, prefix) {
  const response = await fetch(url, { redirect: 'manual' });
  return bareAnswer(prefix, response.status, Object.fromEntries(response.headers), Buffer.from(await response.arrayBuffer()));
}

const CONTACTS = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** startStack's TRACKING_SECRET. */
const SECRET = 'bench-tracking-secret-0123456789';

async function main() {
  // All the load comes from one address; the per-address limit of the public routes is not what is measured.
  process.env.RATE_LIMIT_PUBLIC = '100000000';
  const stack = await startCampaignStack({ maxSendRate: 10_000, max24HourSend: -1 });
  try {
    const id = await seedCampaign(stack, CONTACTS);
    await sendCampaign(stack, id);
    for (;;) {
      const { rows } = await stack.pool.query('SELECT status FROM campaigns WHERE id = $1', [id]);
      if (rows[0].status === 'SENT') break;
      await sleep(200);
    }
    const jobs = (await stack.pool.query('SELECT id FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id', [id])).rows.map((r) =>
      Number(r.id),
    );
    const links = (
      await stack.pool.query('SELECT id FROM campaign_links WHERE campaign_id = $1 AND NOT hidden ORDER BY id', [id])
    ).rows.map((r) => Number(r.id));
    const tokens = createTrackingTokens(SECRET);
    const requests = jobs.flatMap((job, i) => [
      { method: 'GET', path: `/t/o/${tokens.open(job)}` },
      { method: 'GET', path: `/t/c/${tokens.click(job, links[i % links.length])}` },
    ]);

    const run = (duration) =>
      new Promise((resolve, reject) => {
        autocannon({ url: stack.baseUrl, connections: CONNECTIONS, duration, requests }, (err, result) =>
          err ? reject(err) : resolve(result),
        );
      });
    await run(3); // warm-up: JIT, connection pools
    const result = await run(SECONDS);
    const unexpected = result.non2xx - result['3xx'];
    const errors = result.errors + result.timeouts + unexpected;
    const requestsPerSecond = Math.round(result.requests.average);
    const p99Ms = result.latency.p99;
    const { rows } = await stack.pool.query(
      `SELECT count(*) FILTER (WHERE kind = 'OPEN')::int AS opens, count(*) FILTER (WHERE kind = 'CLICK')::int AS clicks FROM tracking_events`,
    );
    console.log(
      `${result.requests.total} requests in ${SECONDS} s over ${CONNECTIONS} connections; recorded ${rows[0].opens} opens, ${rows[0].clicks} clicks`,
    );
    console.log(`latency p50 ${result.latency.p50} ms, p99 ${p99Ms} ms; 2xx ${result['2xx']}, 3xx ${result['3xx']}, errors ${errors}`);
    console.log(`${requestsPerSecond} requests/s (budget >= 5000), p99 ${p99Ms} ms (budget <= 20), errors ${errors} (must be 0)`);

    // The ceiling: the same port, the same requests, the API's answers without the API.
    const answers = [await recorded(stack.baseUrl + requests[0].path, '/t/o/'), await recorded(stack.baseUrl + requests[1].path, '/t/c/')];
    const processes = Number(process.env.HTTP_PROCESSES ?? availableParallelism());
    const ceiling = await onBareServer(stack, processes, answers, async () => {
      await run(3);
      return run(SECONDS);
    });
    const ceilingPerSecond = Math.round(ceiling.requests.average);
    const trackingRatio = Number((requestsPerSecond / ceilingPerSecond).toFixed(2));
    console.log(
      `ceiling: a bare Node server in ${processes} processes on the same port with the same answers: ${ceilingPerSecond} requests/s, ` +
        `p99 ${ceiling.latency.p99} ms; the API answers at ${trackingRatio} x`,
    );
    console.log(JSON.stringify({ bench: 'tracking', requestsPerSecond, p99Ms, errors, ceilingPerSecond, trackingRatio }));
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
