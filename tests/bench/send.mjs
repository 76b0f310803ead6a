// `pnpm bench send`: a 100,000-contact campaign sent by two worker processes (beside the API process,
// as in the import benchmark) against a local SES-compatible endpoint that answers at once, started
// here, counting SendEmail calls per recipient. Prints emails per second from the send request until
// no job is QUEUED, duplicates (recipients mailed more than once; must be 0), lost (contacts never
// mailed; must be 0) and the peak RSS of each process. Budget: >= 1,500 emails per second.
// Its ceiling, in the same run: as many SendEmail calls to the same endpoint by a bare loop in two
// processes started as the workers are, with the workers' signer, pool and concurrency and no
// database or queue (support/bare-send.mjs); `sendRatio` is the campaign's emails per second over
// the loop's.
//
// With BENCH_SES_TRUE_RATE (for example 200), the endpoint grants that many mails a second (a token
// bucket answering 429 "Maximum sending rate exceeded" beyond it) while its account advertises five
// times as many as MaxSendRate, as when other senders share the account or SES lowered its rate
// (issue 28). The campaign is then 20,000 contacts unless BENCH_CONTACTS says otherwise, there is no
// ceiling loop, and it prints `trueRateRatio` (mails accepted per second from the first 429 to the
// last mail, over the true rate; budget >= 0.85), `throttledShare` (429s among the calls made after
// the first 10 s; budget < 0.02), duplicates and lost (must be 0).
//
// With BENCH_DEAD_WEBHOOK=1 (issue 27), a webhook endpoint that accepts connections and never answers (a black
// hole, started here) is registered for every event, and contacts sign up at BENCH_WEBHOOK_EVENTS_PER_SECOND
// (default 100 then, else 0) during the send, so the worker keeps attempting it, timing out and retrying. Compare
// `sendRatio` with `BENCH_WEBHOOK_EVENTS_PER_SECOND=100 pnpm bench send` (the same sign-ups, no webhook):
// budget, the dead endpoint's run at least 0.95 of it.
// With BENCH_DOMAIN_LIMITS (for example `capped-a.test=50,capped-b.test=20`), the workers run with that
// DOMAIN_RATE_LIMITS and the campaign mails those domains and an uncapped one (other.test), sized so the
// capped ones take about BENCH_DOMAIN_SECONDS (60) at their pace while other.test takes the rest of the
// shared rate (BENCH_SHARED_RATE, 200 a second: MaxSendRate 215). It prints, per capped domain, the largest
// number of mails in any sliding second against its limit (`maxWindow`, must be <= the limit) and its
// rate over its limit (`cappedDomainRate`), and `otherDomainsRatio`: the mails a second of every domain
// while other.test was being sent, over the shared rate (0.93 of MaxSendRate), i.e. whether the others
// flowed at the shared rate while the capped domains waited; duplicates and lost (must be 0), and the
// jobs with more than one attempt (must be 0: a deferral is no attempt).
//
// This file also exports what the rate-cap and tracking benchmarks share: the stack with two workers
// and the endpoint, a realistic template, a campaign sent through the API.
import { readFileSync } from 'node:fs';
import { createServer as createTcpServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { seedGeneratedAudience, seedTemplate } from '../../api/test/support/seed.ts';
import { startSesEndpoint } from '../../api/test/support/ses-endpoint.ts';
import { peakRssMb, processTree, spawnNode, stopAll } from './support/processes.mjs';
import { API_DIR, scriptArgs, startStack } from './support/stack.mjs';

/** The rate the SES stand-in really grants (mails a second); undefined: it takes all it is sent. */
const TRUE_RATE = process.env.BENCH_SES_TRUE_RATE ? Number(process.env.BENCH_SES_TRUE_RATE) : undefined;
if (TRUE_RATE !== undefined && !(TRUE_RATE > 0)) throw new Error(`BENCH_SES_TRUE_RATE must be a positive number of mails a second`);
export const CONTACTS = Number(process.env.BENCH_CONTACTS ?? (TRUE_RATE ? 20_000 : 100_000));
const DEAD_WEBHOOK = process.env.BENCH_DEAD_WEBHOOK === '1' || process.env.BENCH_DEAD_WEBHOOK === 'true';
const WEBHOOK_EVENTS_PER_SECOND = Number(process.env.BENCH_WEBHOOK_EVENTS_PER_SECOND ?? (DEAD_WEBHOOK ? 100 : 0));
const log = (...args) => console.log(...args);

/** About 9 KB of newsletter html: five tracked links, merge tags in text and an attribute. */
export const TEMPLATE =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title><style>body{margin:0;font-family:Arial,sans-serif}' +
  '.btn{background:#0f6cbd;color:#fff;padding:12px 24px;text-decoration:none}</style></head><body>' +
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">' +
  '<table role="presentation" width="600" cellpadding="0" cellspacing="0">' +
  '<tr><td><h1>Hello {{firstName}}!</h1><p title="News for {{firstName}}">This month in {{city}}, and for {{email}}:</p></td></tr>' +
  Array.from(
    { length: 5 },
    (_, i) =>
      `<tr><td style="padding:16px"><h2>Story ${i + 1}</h2><p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20)}</p>` +
      `<a class="btn" href="https://example.org/story/${i + 1}?utm_source=mailroom&amp;utm_medium=email">Read story ${i + 1}</a></td></tr>`,
  ).join('') +
  '</table></td></tr></table></body></html>';

/** CPU seconds (user + system) a process and its descendants have used so far; this machine is shared, so they say more than wall time. */
export function cpuSeconds(pid) {
  let seconds = 0;
  for (const id of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime, in clock ticks of 1/100 s.
      seconds += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // Gone meanwhile.
    }
  }
  return seconds;
}

/**
 * The SES endpoint (SES's account as `account` says), the API process and two worker processes on a
 * fresh database and private queues.
 */
export async function startCampaignStack(account, env = {}) {
  const ses = await startSesEndpoint({ keepMail: false, ...account });
  let stack;
  try {
    stack = await startStack({ env: { SES_ENDPOINT: ses.endpoint, ...env } });
  } catch (error) {
    await ses.close();
    throw error;
  }
  const workers = [stack.worker, stack.startWorker()];
  // The second worker's consumers, before any work is published.
  await sleep(1500);
  return {
    ...stack,
    ses,
    workers,
    stop: async () => {
      await stack.stop();
      await ses.close();
    },
  };
}

async function call(stack, method, path, body) {
  const res = await stack.api(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const BARE_SEND = join(import.meta.dirname, 'support/bare-send.mjs');

/**
 * The ceiling: `calls` SendEmail calls to `endpoint` split over `processes` bare loops, each started
 * with the worker's Node flags and SEND_CONCURRENCY (50) in flight. Seconds from the go to the last
 * answer; the processes start and resolve their settings before it.
 */
export async function bareSendSeconds(endpoint, calls, processes = 2, concurrency = Number(process.env.SEND_CONCURRENCY ?? 50)) {
  const flags = scriptArgs('worker').slice(0, -1);
  const share = Math.ceil(calls / processes);
  const children = Array.from({ length: processes }, (_, i) =>
    spawnNode([...flags, BARE_SEND, endpoint, String(Math.min(share, calls - i * share)), String(concurrency), String(i * share + 1)], {
      cwd: API_DIR,
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  try {
    const lines = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
    for (const line of lines) if ((await line.next()).value !== 'ready') throw new Error('a bare send loop did not start');
    const started = performance.now();
    for (const child of children) child.stdin.write('go\n');
    const results = await Promise.all(lines.map(async (line) => JSON.parse((await line.next()).value)));
    const seconds = (performance.now() - started) / 1000;
    const failed = results.reduce((sum, result) => sum + result.failed, 0);
    if (failed > 0) throw new Error(`${failed} bare SendEmail calls failed`);
    return seconds;
  } finally {
    await stopAll(children);
  }
}

/** A draft to the audience, ready to send. */
export async function draftCampaign(stack, audienceId, templateId) {
  const { id } = await call(stack, 'POST', '/api/campaigns', { name: 'Bench campaign', templateId });
  await call(stack, 'PUT', `/api/campaigns/${id}`, {
    name: 'Bench campaign',
    audienceId,
    templateId,
    fromName: 'Example News',
    fromEmail: 'newsletter@example.org',
    subject: 'News for {{firstName}}',
    previewText: 'What happened in {{city}}',
  });
  return id;
}

export const sendCampaign = (stack, id) => call(stack, 'POST', `/api/campaigns/${id}/send`);

export async function seedCampaign(stack, contacts) {
  const started = performance.now();
  const { id: audienceId } = await seedGeneratedAudience(stack.pool, contacts);
  const templateId = await seedTemplate(stack.pool, { html: TEMPLATE });
  log(`seeded ${contacts} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return draftCampaign(stack, audienceId, templateId);
}

/**
 * Sends the campaign through the API and times it as this benchmark measures a send: from the send request
 * until no job is QUEUED (emails per second = contacts / seconds). Resolves with those seconds once the
 * last claimed jobs are done too and the campaign has left SENDING.
 */
export async function timeSend(stack, id) {
  const queued = async () =>
    (await stack.pool.query(`SELECT EXISTS (SELECT 1 FROM campaign_jobs WHERE campaign_id = $1 AND status = 'QUEUED') AS left`, [id]))
      .rows[0].left;
  const started = performance.now();
  await sendCampaign(stack, id);
  log(`send request answered after ${((performance.now() - started) / 1000).toFixed(2)} s`);
  let lastReport = started;
  while (await queued()) {
    await sleep(100);
    if (performance.now() - lastReport > 5000) {
      lastReport = performance.now();
      log(`  ${stack.ses.acceptedTotal()} mails after ${((lastReport - started) / 1000).toFixed(0)} s`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  // The last claimed jobs finish, then the campaign is SENT.
  for (let i = 0; i < 600; i++) {
    const { rows } = await stack.pool.query('SELECT status FROM campaigns WHERE id = $1', [id]);
    if (rows[0].status !== 'SENDING') break;
    await sleep(100);
  }
  return seconds;
}

/** Duplicates (recipients mailed more than once) and lost (contacts never mailed) of the campaign. */
function countErrors(ses) {
  let duplicates = 0;
  for (const n of ses.accepted.values()) duplicates += Math.max(0, n - 1);
  return { duplicates, lost: CONTACTS - ses.accepted.size };
}

/** The send against an SES that grants `trueRate` a second while advertising five times as many. */
async function trueRateMain(trueRate) {
  const stack = await startCampaignStack({ maxSendRate: 5 * trueRate, max24HourSend: -1, trueRate });
  try {
    const id = await seedCampaign(stack, CONTACTS);
    const seconds = await timeSend(stack, id);
    const { calledAt, acceptedAt, throttledAt } = stack.ses;
    const { duplicates, lost } = countErrors(stack.ses);
    const firstThrottle = throttledAt[0];
    const end = acceptedAt.at(-1);
    const afterThrottle = firstThrottle === undefined ? 0 : acceptedAt.filter((at) => at >= firstThrottle).length;
    const trueRateRatio =
      firstThrottle === undefined || end <= firstThrottle
        ? null
        : Number((afterThrottle / (((end - firstThrottle) / 1000) * trueRate)).toFixed(3));
    const settledFrom = calledAt[0] + 10_000;
    const callsAfter = calledAt.filter((at) => at >= settledFrom).length;
    const throttledAfter = throttledAt.filter((at) => at >= settledFrom).length;
    const throttledShare = callsAfter === 0 ? 0 : Number((throttledAfter / callsAfter).toFixed(4));
    const { rows: campaign } = await stack.pool.query('SELECT status, jobs_sent, jobs_failed FROM campaigns WHERE id = $1', [id]);
    const { rows: attempts } = await stack.pool.query('SELECT max(attempts)::int AS most FROM campaign_jobs WHERE campaign_id = $1', [id]);
    log(
      `${CONTACTS} contacts in ${seconds.toFixed(1)} s against a true rate of ${trueRate}/s (MaxSendRate says ${5 * trueRate}); ` +
        `campaign ${campaign[0].status}, jobsSent ${campaign[0].jobs_sent}, jobsFailed ${campaign[0].jobs_failed}, most attempts ${attempts[0].most}`,
    );
    log(
      `${calledAt.length} SendEmail calls, ${throttledAt.length} answered 429; after the first 10 s ${throttledAfter} of ${callsAfter} ` +
        `(throttledShare ${throttledShare}, budget < 0.02)`,
    );
    log(
      `${afterThrottle} mails accepted from the first 429 to the last mail, ${((end - (firstThrottle ?? end)) / 1000).toFixed(1)} s: ` +
        `trueRateRatio ${trueRateRatio} (budget >= 0.85); duplicates ${duplicates}, lost ${lost}`,
    );
    log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    log(
      JSON.stringify({
        bench: 'send',
        contacts: CONTACTS,
        trueRate,
        advertisedRate: 5 * trueRate,
        seconds: Number(seconds.toFixed(1)),
        trueRateRatio,
        throttledShare,
        calls: calledAt.length,
        throttled: throttledAt.length,
        duplicates,
        lost,
      }),
    );
  } finally {
    await stack.stop();
  }
}

/** A TCP endpoint that takes connections and never answers: a webhook receiver that is gone. */
async function startBlackHole() {
  const sockets = new Set();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((done) => server.close(done));
    },
  };
}

const WEBHOOK_EVENTS = [
  'contact.subscribed',
  'contact.confirmed',
  'contact.unsubscribed',
  'contact.erased',
  'contact.bounced',
  'contact.complained',
  'campaign.sent',
  'import.finished',
];

/** Sign-ups at `perSecond` (ten statements a second) until stopped; resolves with how many. */
function signUpsDuring(stack, perSecond) {
  let running = perSecond > 0;
  let recorded = 0;
  const done = (async () => {
    const { id: audienceId } = await seedGeneratedAudience(stack.pool, 1);
    const perTick = Math.max(1, Math.round(perSecond / 10));
    for (let tick = 0; running; tick++) {
      const started = performance.now();
      await stack.pool.query(
        `INSERT INTO consent_ledger (audience_id, address_key, email, event)
         SELECT $1, $2 || '-' || i || '@example.org', $2 || '-' || i || '@example.org', 'SUBSCRIBED' FROM generate_series(1, $3) i`,
        [audienceId, `signup-${tick}`, perTick],
      );
      recorded += perTick;
      await sleep(Math.max(0, 100 - (performance.now() - started)));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return recorded;
    },
  };
}

/** The largest number of `times` (milliseconds) inside any sliding second. */
function maxWindow(times) {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let from = 0, to = 0; to < sorted.length; to++) {
    while (sorted[to] - sorted[from] >= 1000) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

/** The send with per-domain limits (BENCH_DOMAIN_LIMITS): capped domains held, the others at the shared rate. */
async function domainLimitsMain(limitsText) {
  const limits = Object.fromEntries(
    limitsText.split(',').map((entry) => {
      const [domain, rate] = entry.split('=').map((part) => part.trim().toLowerCase());
      if (!domain || domain.startsWith('*') || !(Number(rate) > 0)) throw new Error(`BENCH_DOMAIN_LIMITS: "${entry}" is not domain=rate`);
      return [domain, Number(rate)];
    }),
  );
  const sharedRate = Number(process.env.BENCH_SHARED_RATE ?? 200);
  const seconds = Number(process.env.BENCH_DOMAIN_SECONDS ?? 60);
  const maxSendRate = Math.ceil(sharedRate / 0.93);
  // Mails per domain for `seconds` of sending: the capped ones at 0.7 of their limit (their pace), other.test the rest.
  const perDomain = Object.fromEntries(Object.entries(limits).map(([domain, limit]) => [domain, Math.round(0.7 * limit * seconds)]));
  const cappedPace = Object.values(limits).reduce((sum, limit) => sum + 0.7 * limit, 0);
  perDomain['other.test'] = Math.max(100, Math.round((sharedRate - cappedPace) * seconds));
  // seedGeneratedAudience spreads contacts evenly over its list: each domain appears in proportion to its mails.
  const unit = Math.max(1, Math.min(...Object.values(perDomain)) / 4);
  const list = Object.entries(perDomain).flatMap(([domain, n]) => Array.from({ length: Math.max(1, Math.round(n / unit)) }, () => domain));
  const contacts = Object.values(perDomain).reduce((a, b) => a + b, 0);

  const ses = await startSesEndpoint({ keepMail: true, maxSendRate, max24HourSend: -1 });
  let stack;
  try {
    stack = await startStack({ env: { SES_ENDPOINT: ses.endpoint, DOMAIN_RATE_LIMITS: limitsText } });
  } catch (error) {
    await ses.close();
    throw error;
  }
  stack.startWorker();
  await sleep(1500);
  try {
    const started = performance.now();
    const { id: audienceId } = await seedGeneratedAudience(stack.pool, contacts, list);
    const templateId = await seedTemplate(stack.pool, { html: TEMPLATE });
    log(`seeded ${contacts} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s over ${Object.keys(perDomain).join(', ')}`);
    const id = await draftCampaign({ ...stack, ses }, audienceId, templateId);
    const took = await timeSend({ ...stack, ses }, id);
    const domainOf = (email) => email.slice(email.lastIndexOf('@') + 1);
    const timesOf = (domain) => ses.mails.filter((mail) => domainOf(mail.to) === domain).map((mail) => mail.at);
    const spanOf = (times) => (Math.max(...times) - Math.min(...times)) / 1000;
    const capped = Object.fromEntries(
      Object.entries(limits).map(([domain, limit]) => {
        const times = timesOf(domain);
        return [
          domain,
          { limit, mails: times.length, maxWindow: maxWindow(times), rate: Number((times.length / spanOf(times)).toFixed(2)) },
        ];
      }),
    );
    const other = timesOf('other.test');
    const [from, to] = [Math.min(...other), Math.max(...other)];
    const allDuring = ses.mails.filter((mail) => mail.at >= from && mail.at <= to).length;
    const otherDomainsRatio = Number((allDuring / ((to - from) / 1000) / (0.93 * maxSendRate)).toFixed(3));
    const cappedDomainRate = Object.fromEntries(
      Object.entries(capped).map(([domain, c]) => [domain, Number((c.rate / c.limit).toFixed(3))]),
    );
    let duplicates = 0;
    for (const n of ses.accepted.values()) duplicates += Math.max(0, n - 1);
    const lost = contacts - ses.accepted.size;
    const { rows: attempts } = await stack.pool.query(
      'SELECT count(*) FILTER (WHERE attempts > 1)::int AS retried, max(attempts)::int AS most FROM campaign_jobs WHERE campaign_id = $1',
      [id],
    );
    const { rows: held } = await stack.pool.query(
      'SELECT domain, limit_waits::int, deferrals::int, ses_throttles::int FROM campaign_domain_throttles WHERE campaign_id = $1 ORDER BY domain',
      [id],
    );
    for (const [domain, c] of Object.entries(capped))
      log(`${domain}: ${c.mails} mails at ${c.rate}/s, limit ${c.limit}/s, largest sliding second ${c.maxWindow} (must be <= ${c.limit})`);
    log(
      `other.test: ${other.length} mails in ${((to - from) / 1000).toFixed(1)} s; every domain meanwhile ${otherDomainsRatio} of the shared rate`,
    );
    log(`waits and deferrals: ${JSON.stringify(held)}; jobs with more than one attempt ${attempts[0].retried}`);
    log(`${contacts} contacts in ${took.toFixed(1)} s; duplicates ${duplicates}, lost ${lost}`);
    log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    log(
      JSON.stringify({
        bench: 'send',
        domainLimits: limits,
        sharedRate: Number((0.93 * maxSendRate).toFixed(1)),
        contacts,
        seconds: Number(took.toFixed(1)),
        maxWindow: Object.fromEntries(Object.entries(capped).map(([domain, c]) => [domain, c.maxWindow])),
        cappedAtLimit: Object.values(capped).every((c) => c.maxWindow <= c.limit),
        cappedDomainRate,
        otherDomainsRatio,
        retriedJobs: attempts[0].retried,
        duplicates,
        lost,
      }),
    );
  } finally {
    await stack.stop();
    await ses.close();
  }
}

async function main() {
  if (process.env.BENCH_DOMAIN_LIMITS) return domainLimitsMain(process.env.BENCH_DOMAIN_LIMITS);
  if (TRUE_RATE !== undefined) return trueRateMain(TRUE_RATE);
  const blackHole = DEAD_WEBHOOK ? await startBlackHole() : undefined;
  const stack = await startCampaignStack(
    { maxSendRate: 10_000, max24HourSend: -1 },
    DEAD_WEBHOOK ? { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } : {},
  );
  try {
    if (blackHole) {
      const res = await stack.api('/api/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: blackHole.url, events: WEBHOOK_EVENTS, description: 'black hole' }),
      });
      if (res.status !== 201) throw new Error(`registering the dead webhook: ${res.status} ${await res.text()}`);
      log(`a dead webhook endpoint is registered for every event (${blackHole.url})`);
    }
    const id = await seedCampaign(stack, CONTACTS);
    const signUps = signUpsDuring(stack, WEBHOOK_EVENTS_PER_SECOND);
    const processes = { api: stack.http.pid, worker1: stack.workers[0].pid, worker2: stack.workers[1].pid };
    const cpuBefore = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const seconds = await timeSend(stack, id);
    const webhookEvents = await signUps.stop();
    if (WEBHOOK_EVENTS_PER_SECOND > 0) {
      const { rows } = await stack.pool.query(
        `SELECT count(*)::int AS n, coalesce(sum(attempts), 0)::int AS attempts FROM webhook_deliveries`,
      );
      log(`${webhookEvents} sign-ups during the send; webhook deliveries ${rows[0].n}, attempts so far ${rows[0].attempts}`);
    }
    const cpuMsPerMail = Object.fromEntries(
      Object.entries(processes).map(([name, pid]) => [name, Number((((cpuSeconds(pid) - cpuBefore[name]) * 1000) / CONTACTS).toFixed(3))]),
    );
    const peakRss = { api: peakRssMb(stack.http.pid), worker1: peakRssMb(stack.workers[0].pid), worker2: peakRssMb(stack.workers[1].pid) };

    const { rows: jobs } = await stack.pool.query(
      `SELECT status, count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1 GROUP BY status ORDER BY status`,
      [id],
    );
    const { rows: campaign } = await stack.pool.query('SELECT status, jobs_sent FROM campaigns WHERE id = $1', [id]);
    const { duplicates, lost } = countErrors(stack.ses);
    const emailsPerSecond = Math.round(CONTACTS / seconds);
    log(`jobs: ${jobs.map((j) => `${j.status} ${j.n}`).join(', ')}; campaign ${campaign[0].status}, jobsSent ${campaign[0].jobs_sent}`);
    log(`SendEmail calls ${[...stack.ses.calls.values()].reduce((a, b) => a + b, 0)}, recipients mailed ${stack.ses.accepted.size}`);
    log(
      `${CONTACTS} contacts in ${seconds.toFixed(1)} s: ${emailsPerSecond} emails/s (budget >= 1500); duplicates ${duplicates}, lost ${lost}`,
    );
    log(`peak RSS: API ${peakRss.api} MB, worker 1 ${peakRss.worker1} MB, worker 2 ${peakRss.worker2} MB`);
    log(
      `CPU per mail: ${JSON.stringify(cpuMsPerMail)} ms; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );

    const ceilingSeconds = await bareSendSeconds(stack.ses.endpoint, CONTACTS);
    const ceilingPerSecond = Math.round(CONTACTS / ceilingSeconds);
    const sendRatio = Number((emailsPerSecond / ceilingPerSecond).toFixed(2));
    log(
      `ceiling: ${CONTACTS} SendEmail calls by a bare loop in two processes (same signer, pool, concurrency, endpoint) in ` +
        `${ceilingSeconds.toFixed(1)} s: ${ceilingPerSecond} calls/s; the campaign sends at ${sendRatio} x`,
    );
    log(
      JSON.stringify({
        bench: 'send',
        contacts: CONTACTS,
        emailsPerSecond,
        ceilingPerSecond,
        sendRatio,
        deadWebhook: DEAD_WEBHOOK,
        webhookEventsPerSecond: WEBHOOK_EVENTS_PER_SECOND,
        duplicates,
        lost,
        peakRssMb: peakRss,
        cpuMsPerMail,
      }),
    );
  } finally {
    await stack.stop();
    await blackHole?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
