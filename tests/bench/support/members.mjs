// A worker thread of the api-load benchmark: signed-in members using the app, each a loop that opens a screen
// (the calls that screen makes, at once, as the frontends make them), reads it for a while, and opens the next.
// It runs on a thread of its own so that the benchmark's SES endpoint, on the main thread, answers the workers as
// quickly as when nobody uses the app.
//
// workerData: { undici (its module path), baseUrl, tokens (one per member), thinkMs, org (ids and sizes, see
// api-load.mjs) }. Messages: { type: 'measure', sendingId } starts the figures afresh (and adds the campaign
// being sent to what members look at); { type: 'stop' } ends the loops and answers { type: 'result', ... }.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

const { Pool } = createRequire(import.meta.url)(workerData.undici);
const { baseUrl, tokens, thinkMs, org } = workerData;
const LIMIT = 10;

/** Mulberry32: each member's choices are its own and the same from run to run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const lastPage = (total) => Math.max(1, Math.ceil(total / LIMIT));

/**
 * A page a member reaches with the report's pager: mostly the first, often the next few, sometimes the last
 * ones (first, previous, next, last). Deep middle pages of a million rows are not a member's way through.
 */
function pagerPage(rand, total) {
  const last = lastPage(total);
  const r = rand();
  if (r < 0.6) return 1;
  if (r < 0.85) return Math.min(last, 2 + Math.floor(rand() * 4));
  return Math.max(1, last - Math.floor(rand() * 3));
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];

/** The screens, with how often members open them, each as the calls it makes. */
function screens(sendingId) {
  // Half the report visits are the big report's, a quarter the campaign being sent's (when there is one).
  const report = (rand) => {
    const r = rand();
    if (r < 0.5) return org.reportId;
    if (sendingId && r < 0.75) return sendingId;
    return pick(rand, org.sentIds);
  };
  return [
    [8, 'audiences list', (rand) => [['audiences list', `/api/audiences?page=${rand() < 0.8 ? 1 : 2}&limit=${LIMIT}`]]],
    [
      6,
      'audience detail',
      (rand) => {
        const audience = pick(rand, org.audiences);
        return [
          ['audience detail', `/api/audiences/${audience.id}`],
          ['contacts page', `/api/audiences/${audience.id}/contacts?page=1&limit=${LIMIT}`],
        ];
      },
    ],
    [
      14,
      'contacts page',
      (rand) => {
        const audience = pick(rand, org.audiences);
        const r = rand();
        const valid = audience.size - audience.errors;
        const query =
          r < 0.4
            ? `page=${1 + Math.floor(rand() * lastPage(audience.size))}`
            : r < 0.55
              ? `page=${1 + Math.floor(rand() * lastPage(valid))}&hasError=false`
              : r < 0.7
                ? `page=${1 + Math.floor(rand() * lastPage(audience.errors))}&hasError=true`
                : r < 0.85
                  ? `page=1&email=user${1 + Math.floor(rand() * audience.size)}`
                  : `page=${1 + Math.floor(rand() * 5)}&email=example.org`;
        return [['contacts page', `/api/audiences/${audience.id}/contacts?limit=${LIMIT}&${query}`]];
      },
    ],
    [
      8,
      'campaigns list',
      (rand) => [['campaigns list', `/api/campaigns?page=${1 + Math.floor(rand() * 3)}&limit=${LIMIT}${rand() < 0.2 ? '&name=news' : ''}`]],
    ],
    [
      6,
      'campaign editor',
      (rand) => [
        ['campaign detail', `/api/campaigns/${pick(rand, org.campaignIds)}`],
        ['templates list', `/api/templates?page=1&limit=${LIMIT}`],
        ['audiences list', `/api/audiences?page=1&limit=${LIMIT}`],
      ],
    ],
    [5, 'templates list', (rand) => [['templates list', `/api/templates?page=${rand() < 0.8 ? 1 : 2}&limit=${LIMIT}`]]],
    [
      10,
      'report',
      (rand) => {
        const id = report(rand);
        return [
          ['campaign detail', `/api/campaigns/${id}`],
          ['report overview', `/api/reports/${id}/overview-stat`],
          ['clicks', `/api/reports/${id}/clicks`],
        ];
      },
    ],
    [
      18,
      'email performance',
      (rand) => {
        const id = report(rand);
        // The big report's totals are known; other campaigns' first pages.
        const filter = pick(rand, org.reportFilters);
        const page = id === org.reportId ? pagerPage(rand, filter.total) : 1;
        return [['email performance', `/api/reports/${id}/email-performance?page=${page}&limit=${LIMIT}${filter.query}`]];
      },
    ],
    [5, 'quota', () => [['quota', '/api/ses-quota']]],
  ];
}

const pool = new Pool(baseUrl, { connections: tokens.length * 2, headersTimeout: 30_000, bodyTimeout: 30_000 });
let figures;
const reset = () => (figures = { started: performance.now(), latencies: new Map(), errors: new Map(), errorSamples: [] });
reset();
let choices = screens(undefined);
let running = true;

function record(name, ms, error) {
  let list = figures.latencies.get(name);
  if (!list) figures.latencies.set(name, (list = []));
  list.push(ms);
  if (error) {
    figures.errors.set(name, (figures.errors.get(name) ?? 0) + 1);
    if (figures.errorSamples.length < 10) figures.errorSamples.push(`${name}: ${error}`);
  }
}

async function call(token, name, path) {
  const started = performance.now();
  try {
    const { statusCode, body } = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${token}` } });
    const text = await body.text();
    record(name, performance.now() - started, statusCode >= 200 && statusCode < 300 ? undefined : `${statusCode} ${path} ${text}`);
  } catch (error) {
    record(name, performance.now() - started, `${path}: ${error.message}`);
  }
}

async function member(index) {
  const rand = random(index + 1);
  const token = tokens[index];
  // Members do not all arrive at the same moment.
  await sleep(rand() * Math.max(thinkMs, 100));
  while (running) {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let r = rand() * total;
    const screen = choices.find(([weight]) => (r -= weight) < 0) ?? choices[0];
    await Promise.all(screen[2](rand).map(([name, path]) => call(token, name, path)));
    if (thinkMs > 0) await sleep(thinkMs * (0.5 + rand()));
  }
}

const members = tokens.map((_, i) => member(i));

parentPort.on('message', async (message) => {
  if (message.type === 'measure') {
    choices = screens(message.sendingId);
    reset();
  } else if (message.type === 'stop') {
    // What finishes after this moment is not measured.
    const measured = figures;
    const seconds = (performance.now() - measured.started) / 1000;
    reset();
    running = false;
    await Promise.all(members);
    await pool.close();
    parentPort.postMessage({
      type: 'result',
      seconds,
      latencies: Object.fromEntries(measured.latencies),
      errors: Object.fromEntries(measured.errors),
      errorSamples: measured.errorSamples,
    });
  }
});
