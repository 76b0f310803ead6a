// `pnpm bench api-load`: the API as an organisation uses it while a campaign sends. The organisation has 20
// audiences (the report's 1,000,000 contacts, and 1,000,000 more over 19 others: two of 100,000 to send to, 17
// smaller ones with an invalid contact in every 50), 50 campaigns (drafts, sent ones with their jobs, among them
// a report of 1,000,000 jobs) and 10 templates, written straight into the tables as the other benchmarks seed.
//
// A 100,000-contact campaign is sent first alone, then, to the other audience of that size, while 50 signed-in
// members use the app on loopback (support/members.mjs: each opens a screen, which makes its calls at once, reads
// it for about BENCH_THINK_MS, and opens the next). Both sends go through two workers to a local SES-compatible
// endpoint and are timed alike (send.mjs's timeSend). Prints requests per second, p50/p95/p99 per call and
// overall, errors (a status other than 2xx, or no answer), and the send rate under load as a fraction of the
// send alone. Budget: p95 <= 100 ms, p99 <= 250 ms, no errors, send under load >= 0.8 of the send alone.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { seedGeneratedAudience, seedTemplate } from '../../api/test/support/seed.ts';
import { mintToken } from '../../api/test/support/tokens.ts';
import { seedReportCampaign } from './report-page.mjs';
import { cpuSeconds, draftCampaign, startCampaignStack, TEMPLATE, timeSend } from './send.mjs';
import { API_DIR } from './support/stack.mjs';
import { percentile } from './support/stats.mjs';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const REPORT_JOBS = Number(process.env.BENCH_REPORT_JOBS ?? 1_000_000);
const SEND = Number(process.env.BENCH_SEND ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const SMALL_AUDIENCES = 17;
const SENT_CAMPAIGNS = 12;
const TEMPLATES = 10;
const CAMPAIGNS = 50;
const INVALID_EVERY = 50;

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const round = (n) => Number(n.toFixed(2));

/** Five tracked links with clicks, as a sent campaign's click map lists them. */
async function seedLinks(pool, campaignId) {
  await pool.query(
    `INSERT INTO campaign_links (campaign_id, href, position, clicks, unique_clicks)
     SELECT $1, 'https://example.org/story/' || n, n, c.unique_clicks * 2 / n, c.unique_clicks / n
       FROM generate_series(1, 5) AS n, campaigns c WHERE c.id = $1`,
    [campaignId],
  );
}

/** The organisation's audiences, templates and campaigns; what members look at (support/members.mjs `org`). */
async function seedOrganisation(pool) {
  let started = performance.now();
  const report = { size: REPORT_JOBS, errors: 0, ...(await seedGeneratedAudience(pool, REPORT_JOBS, 'example.org', { name: 'Everyone' })) };
  const sendAlone = await seedGeneratedAudience(pool, SEND, 'alone.example.org', { name: 'Send alone' });
  const sendUnderLoad = await seedGeneratedAudience(pool, SEND, 'load.example.org', { name: 'Send under load' });
  // The rest in lists of growing size (weights 1..17).
  const rest = CONTACTS - 2 * SEND;
  if (rest < SMALL_AUDIENCES * INVALID_EVERY)
    throw new Error('BENCH_CONTACTS must leave room for the small audiences beside the two sends');
  const weights = (SMALL_AUDIENCES * (SMALL_AUDIENCES + 1)) / 2;
  const small = [];
  for (let i = 1, left = rest; i <= SMALL_AUDIENCES; i++) {
    const size = i === SMALL_AUDIENCES ? left : Math.floor((rest * i) / weights);
    left -= size;
    const { id } = await seedGeneratedAudience(pool, size, `list${i}.example.org`, {
      name: `Newsletter list ${i}`,
      invalidEvery: INVALID_EVERY,
    });
    small.push({ id, size, errors: Math.floor(size / INVALID_EVERY) });
  }
  console.log(`${REPORT_JOBS + CONTACTS} contacts in 20 audiences in ${seconds(started)} s`);

  started = performance.now();
  const templateIds = [];
  for (let i = 1; i <= TEMPLATES; i++) templateIds.push(await seedTemplate(pool, { name: `Newsletter template ${i}`, html: TEMPLATE }));
  const reportId = await seedReportCampaign(pool, report.id, 'Annual newsletter');
  await seedLinks(pool, reportId);
  console.log(`${REPORT_JOBS} jobs of the report in ${seconds(started)} s`);

  started = performance.now();
  // Sent campaigns to the smaller lists, the biggest of them (their jobs as the report's).
  const sentIds = [];
  for (const audience of small.slice(-SENT_CAMPAIGNS)) {
    const id = await seedReportCampaign(pool, audience.id, `Newsletter ${sentIds.length + 1}`);
    await seedLinks(pool, id);
    sentIds.push(id);
  }
  const sentJobs = small.slice(-SENT_CAMPAIGNS).reduce((sum, a) => sum + a.size, 0);
  // Drafts to every list, leaving room for the two campaigns sent here.
  const drafts = CAMPAIGNS - 1 - SENT_CAMPAIGNS - 2;
  const { rows } = await pool.query(
    `INSERT INTO campaigns (name, audience_id, template_id, from_name, from_email, subject, preview_text)
     SELECT 'Draft ' || n, ($2::bigint[])[1 + n % cardinality($2)], ($3::bigint[])[1 + n % cardinality($3)],
            'Example News', 'newsletter@example.org', 'News for {{firstName}}', 'What happened in {{city}}'
       FROM generate_series(1, $1::int) AS n RETURNING id`,
    [drafts, small.map((a) => a.id), templateIds],
  );
  console.log(`${SENT_CAMPAIGNS} sent campaigns (${sentJobs} jobs) and ${drafts} drafts in ${seconds(started)} s`);

  started = performance.now();
  // What autovacuum does on its own after imports and sends: visibility map and statistics.
  await pool.query('VACUUM ANALYZE contacts, campaign_jobs, campaign_job_counts, campaigns, audiences');
  console.log(`VACUUM ANALYZE in ${seconds(started)} s`);

  // The big report's filters and how many rows each has (members page through them to the last page).
  const { rows: counts } = await pool.query(
    `SELECT count(*)::int AS all, count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
            count(*) FILTER (WHERE status = 'SENT_SUCCESS')::int AS success, count(*) FILTER (WHERE bounce_type = 'HARD')::int AS hard,
            count(*) FILTER (WHERE opened_at IS NOT NULL)::int AS opened, count(*) FILTER (WHERE clicked_at IS NOT NULL)::int AS clicked
       FROM campaign_jobs WHERE campaign_id = $1`,
    [reportId],
  );
  const c = counts[0];
  const reportFilters = [
    { query: '', total: c.all },
    { query: '&sendStatus=FAILED', total: c.failed },
    { query: '&sendStatus=SENT_SUCCESS', total: c.success },
    { query: '&bounceStatus=HARD', total: c.hard },
    { query: '&opened=true', total: c.opened },
    { query: '&clicked=true', total: c.clicked },
    { query: '&clicked=false', total: c.all - c.clicked },
    // A rare and a frequent address search: their first pages.
    { query: '&email=user54321', total: 1 },
    { query: '&email=example.org', total: 1 },
  ];
  return {
    audiences: [report, { ...sendAlone, size: SEND, errors: 0 }, { ...sendUnderLoad, size: SEND, errors: 0 }, ...small],
    sendAloneId: sendAlone.id,
    sendUnderLoadId: sendUnderLoad.id,
    templateIds,
    reportId,
    sentIds,
    campaignIds: [reportId, ...sentIds, ...rows.map((r) => Number(r.id))],
    reportFilters,
  };
}

/** Times a send of a fresh campaign to the audience; CPU seconds of the API and the workers meanwhile. */
async function measureSend(stack, audienceId, templateId, onDraft = () => {}) {
  const id = await draftCampaign(stack, audienceId, templateId);
  await onDraft(id);
  const pids = { api: stack.http.pid, worker1: stack.workers[0].pid, worker2: stack.workers[1].pid };
  const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const took = await timeSend(stack, id);
  const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, round(cpuSeconds(pid) - cpuBefore[name])]));
  return { id, seconds: took, emailsPerSecond: Math.round(SEND / took), cpuSeconds: cpu };
}

function summary(latencies, errors = 0) {
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: sorted.length,
    p50Ms: round(percentile(sorted, 50) ?? 0),
    p95Ms: round(percentile(sorted, 95) ?? 0),
    p99Ms: round(percentile(sorted, 99) ?? 0),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    errors,
  };
}

async function main() {
  const stack = await startCampaignStack({ maxSendRate: 10_000, max24HourSend: -1 });
  let members;
  try {
    const org = await seedOrganisation(stack.pool);

    console.log(`sending ${SEND} mails alone...`);
    const alone = await measureSend(stack, org.sendAloneId, org.templateIds[0]);
    console.log(`alone: ${alone.emailsPerSecond} emails/s (${alone.seconds.toFixed(1)} s); CPU s ${JSON.stringify(alone.cpuSeconds)}`);

    const tokens = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => mintToken({ email: `member${i + 1}@example.org`, expiresIn: 3 * 3600 })),
    );
    members = new Worker(new URL('./support/members.mjs', import.meta.url), {
      workerData: {
        undici: createRequire(join(API_DIR, 'package.json')).resolve('undici'),
        baseUrl: stack.baseUrl,
        tokens,
        thinkMs: THINK_MS,
        org,
      },
    });
    const result = new Promise((resolve, reject) => {
      members.on('message', (message) => message.type === 'result' && resolve(message));
      members.once('error', reject);
    });
    console.log(`${CLIENTS} members using the app (think time about ${THINK_MS} ms); ${WARMUP_SECONDS} s of warm-up...`);
    await sleep(WARMUP_SECONDS * 1000);
    console.log(`sending ${SEND} mails under load...`);
    const cpuBench = process.cpuUsage();
    const underLoad = await measureSend(stack, org.sendUnderLoadId, org.templateIds[1], (id) =>
      members.postMessage({ type: 'measure', sendingId: id }),
    );
    members.postMessage({ type: 'stop' });
    const load = await result;
    const benchCpu = process.cpuUsage(cpuBench);
    console.log(
      `under load: ${underLoad.emailsPerSecond} emails/s (${underLoad.seconds.toFixed(1)} s); CPU s ${JSON.stringify(underLoad.cpuSeconds)}`,
    );

    const calls = {};
    for (const [name, latencies] of Object.entries(load.latencies)) calls[name] = summary(latencies, load.errors[name] ?? 0);
    const all = summary(
      Object.values(load.latencies).flat(),
      Object.values(load.errors).reduce((a, b) => a + b, 0),
    );
    const rps = Math.round(all.requests / load.seconds);
    for (const [name, s] of Object.entries(calls).sort(([a], [b]) => a.localeCompare(b)))
      console.log(
        `${name.padEnd(18)} ${String(s.requests).padStart(6)} requests  p50 ${s.p50Ms.toFixed(1).padStart(6)} ms  p95 ${s.p95Ms.toFixed(1).padStart(6)} ms` +
          `  p99 ${s.p99Ms.toFixed(1).padStart(6)} ms  max ${s.maxMs.toFixed(0).padStart(5)} ms  errors ${s.errors}`,
      );
    for (const sample of load.errorSamples) console.log(`  error: ${sample.slice(0, 300)}`);

    // Each send mailed each of its contacts once.
    let duplicates = 0;
    for (const n of stack.ses.accepted.values()) duplicates += Math.max(0, n - 1);
    const lost = 2 * SEND - stack.ses.accepted.size;
    const sendUnderLoadRatio = round(underLoad.emailsPerSecond / alone.emailsPerSecond);
    const loadAverage = loadavg().map((n) => round(n));
    console.log(
      `${all.requests} requests in ${load.seconds.toFixed(1)} s: ${rps} requests/s, p50 ${all.p50Ms} ms, p95 ${all.p95Ms} ms (budget <= 100), ` +
        `p99 ${all.p99Ms} ms (budget <= 250), errors ${all.errors} (must be 0)`,
    );
    console.log(
      `send alone ${alone.emailsPerSecond} emails/s, under load ${underLoad.emailsPerSecond} emails/s: ratio ${sendUnderLoadRatio} (budget >= 0.8); ` +
        `duplicates ${duplicates}, lost ${lost}`,
    );
    console.log(
      `load generator CPU ${round((benchCpu.user + benchCpu.system) / 1e6)} s (with the SES endpoint); load average ${loadAverage.join(' ')}`,
    );
    console.log(
      JSON.stringify({
        bench: 'api-load',
        clients: CLIENTS,
        thinkMs: THINK_MS,
        contacts: REPORT_JOBS + CONTACTS,
        reportJobs: REPORT_JOBS,
        send: SEND,
        rps,
        requests: all.requests,
        p50Ms: all.p50Ms,
        p95Ms: all.p95Ms,
        p99Ms: all.p99Ms,
        errors: all.errors,
        sendAloneRate: alone.emailsPerSecond,
        sendUnderLoadRate: underLoad.emailsPerSecond,
        sendUnderLoadRatio,
        duplicates,
        lost,
        // CPU seconds of the API and the workers during each send: on a shared machine, what they were given.
        sendAloneCpuSeconds: alone.cpuSeconds,
        sendUnderLoadCpuSeconds: underLoad.cpuSeconds,
        loadAverage,
        calls,
      }),
    );
  } finally {
    await members?.terminate();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
