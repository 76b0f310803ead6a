// `pnpm bench report-page`: latency of email performance pages of a campaign of 1,000,000 jobs, first
// and last page of each filter alone (every send status the spec names, both bounce types, clicked
// and opened either way), address searches (a term in every address, the common domain alone and with
// each kind of filter, a rare term), and NOT_SENT on a 1,000,000-contact audience half of whose
// contacts (a pseudo-random half) have a job, with and without the common domain. Requests run one
// after another over HTTP against the API process (auth, validation and all). The spec's own NOT_SENT
// request (page 1, limit 999999: half a million rows, streamed) is timed once, apart.
// Budget: p95 <= 50 ms for every case. A search's first request reads its matches into the search
// index (api/src/services/search-index.ts); its time is printed apart as `cold`.
// The report's overview, timeline and domain calls (additions to the spec) on the same campaign with
// about 2,000,000 open and click hits recorded: budget p95 <= 100 ms each (overviewP95Ms,
// timelineP95Ms, domainsP95Ms on the last line); their figures are checked once against a count of
// the rows.
//
// The rows are written straight into the tables (PostgreSQL generates them; the triggers of migrations
// 0006 and 0016 keep the counts and the report's aggregates as the sending and tracking statements would). This file also exports that seeding for the
// export benchmark.
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { seedGeneratedAudience } from '../../api/test/support/seed.ts';
import { ROWS } from './support/contacts.mjs';
import { startStack } from './support/stack.mjs';
import { floorCall, overFloor, timedCalls } from './support/stats.mjs';

const WARMUP = 20;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const LIMIT = 10;
/** The overview, timeline and domain calls' budget (p95). */
const OVERVIEW_BUDGET_MS = 100;

/**
 * A SENT campaign with one job per contact of the audience, in every state a sent campaign shows:
 * 3% FAILED, 5% SENT_WAIT_ACK, 0.1% UNKNOWN, the rest SENT_SUCCESS; of the delivered, about 1% HARD
 * and 1% SOFT bounces, 1% complaints, 26% opened (two thirds of them by a person), 4% clicked (three
 * in five by a person). Sending started ten days ago and went on for five hours.
 */
export async function seedReportCampaign(pool, audienceId, name = 'Report bench') {
  const { rows } = await pool.query(
    `INSERT INTO campaigns (name, status, audience_id, html, delivery_date)
     VALUES ($1, 'SENT', $2, '<p>Bench</p>', now() - interval '10 days') RETURNING id`,
    [name, audienceId],
  );
  const id = rows[0].id;
  await pool.query(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, ses_message_id, error_message, bounce_type, bounce_message,
                                bounce_time, complaint_type, complaint_time, opened_at, clicked_at, human_opened_at,
                                human_clicked_at, sent_at)
     SELECT $1::bigint, c.id, c.email,
            CASE WHEN r < 30 THEN 'FAILED' WHEN r < 80 THEN 'SENT_WAIT_ACK' WHEN r = 999 THEN 'UNKNOWN' ELSE 'SENT_SUCCESS' END,
            CASE WHEN r >= 30 AND r < 999 THEN 'bench-' || $1::bigint || '-' || c.seq END,
            CASE WHEN r < 30 THEN 'Email address is not verified.' END,
            CASE WHEN delivered AND b = 0 THEN 'HARD' WHEN delivered AND b = 1 THEN 'SOFT' END,
            CASE WHEN delivered AND b < 2 THEN 'smtp; 550 5.1.1 user unknown' END,
            CASE WHEN delivered AND b < 2 THEN now() END,
            CASE WHEN delivered AND b = 2 THEN 'abuse' END,
            CASE WHEN delivered AND b = 2 THEN now() END,
            CASE WHEN delivered AND b >= 2 AND o < 30 THEN now() END,
            CASE WHEN delivered AND b >= 2 AND o < 5 THEN now() END,
            CASE WHEN delivered AND b >= 2 AND o < 20 THEN now() END,
            CASE WHEN delivered AND b >= 2 AND o < 3 THEN now() END,
            CASE WHEN r >= 30 THEN now() - interval '10 days' + (c.seq::bigint * 7 % 18000) * interval '1 second' END
       FROM (SELECT id, email, seq, (seq::bigint * 7919) % 1000 AS r, (seq::bigint * 31) % 100 AS b, (seq::bigint * 13) % 100 AS o,
                    (seq::bigint * 7919) % 1000 BETWEEN 80 AND 998 AS delivered
               FROM contacts WHERE audience_id = $2) c
      ORDER BY c.seq`,
    [id, audienceId],
  );
  await pool.query(
    `UPDATE campaigns c SET contact_count = k.jobs, jobs_sent = k.sent, jobs_failed = k.failed, unique_opens = k.opened, unique_clicks = k.clicked
       FROM (SELECT sum(jobs) AS jobs, sum(jobs) FILTER (WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')) AS sent,
                    sum(jobs) FILTER (WHERE status = 'FAILED') AS failed, sum(jobs) FILTER (WHERE opened) AS opened,
                    sum(jobs) FILTER (WHERE clicked) AS clicked
               FROM campaign_job_counts WHERE campaign_id = $1) k
      WHERE c.id = $1`,
    [id],
  );
  return id;
}

/**
 * The campaign's opens and clicks, recorded as the tracking would leave them: eight open hits per
 * opened job and three click hits per clicked job (about 2,150,000 hits at a million jobs), spread over the
 * ten days since sending started. A job opened by machines only has machine hits only; a person's job
 * has a machine's first hit (a privacy proxy's fetch) and the person's after. One INSERT ... SELECT:
 * the triggers of migration 0016 build the hourly aggregates as they do for record_tracking_hits.
 */
export async function seedReportHits(pool, campaignId) {
  const { rows } = await pool.query(
    `INSERT INTO campaign_links (campaign_id, href, position) VALUES ($1, 'https://example.org/bench', 1) RETURNING id`,
    [campaignId],
  );
  const { rowCount } = await pool.query(
    `INSERT INTO tracking_events (campaign_id, job_id, kind, link_id, user_agent, machine, created_at)
     SELECT j.campaign_id, j.id, CASE WHEN g > 8 THEN 'CLICK' ELSE 'OPEN' END, CASE WHEN g > 8 THEN $2::bigint END, 'bench',
            CASE WHEN g > 8 THEN j.human_clicked_at IS NULL OR g = 9 ELSE j.human_opened_at IS NULL OR g = 1 END,
            j.sent_at + ((j.id * 131 + g * 7919) % 864000) * interval '1 second'
       FROM campaign_jobs j, generate_series(1, 11) AS g
      WHERE j.campaign_id = $1 AND j.opened_at IS NOT NULL AND (g <= 8 OR j.clicked_at IS NOT NULL)`,
    [campaignId, rows[0].id],
  );
  return rowCount;
}

/** The addresses' domains: seven in ten at gmail.com (the common domain a search for 'gmail' matches), spread over the file. */
export const DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'example.org',
  'yahoo.com',
  'outlook.com',
];

/** The stack with a ROWS-contact audience and a SENT campaign with one job per contact. */
export async function startReportStack() {
  const stack = await startStack();
  try {
    let started = performance.now();
    const audience = await seedGeneratedAudience(stack.pool, ROWS, DOMAINS);
    console.log(`${ROWS} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const campaignId = await seedReportCampaign(stack.pool, audience.id);
    console.log(`${ROWS} jobs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { stack, audienceId: audience.id, campaignId };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

const timed = (stack, url, samples = SAMPLES) => timedCalls(stack, url, { warmup: WARMUP, samples });

async function main() {
  const { stack, audienceId, campaignId } = await startReportStack();
  try {
    // NOT_SENT: a second campaign of the same audience, sent to a pseudo-random half of it.
    const { rows } = await stack.pool.query(
      `INSERT INTO campaigns (name, status, audience_id, html) VALUES ('Half sent', 'SENT', $1, '<p>Half</p>') RETURNING id`,
      [audienceId],
    );
    const halfId = rows[0].id;
    await stack.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, ses_message_id, sent_at)
       SELECT $1, id, email, 'SENT_SUCCESS', 'half-' || seq, now() FROM contacts
        WHERE audience_id = $2 AND hashint4(seq) & 1 = 0 ORDER BY seq`,
      [halfId, audienceId],
    );
    await stack.pool.query(
      'UPDATE campaigns SET contact_count = (SELECT sum(jobs) FROM campaign_job_counts WHERE campaign_id = $1) WHERE id = $1',
      [halfId],
    );
    let started = performance.now();
    const hits = await seedReportHits(stack.pool, campaignId);
    console.log(`${hits} hits in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // What autovacuum does on its own after a send: visibility map and statistics.
    await stack.pool.query(
      'VACUUM ANALYZE contacts, campaign_jobs, campaign_job_counts, tracking_events, campaign_hourly_counts, campaign_domain_counts',
    );

    // The overview, its timeline and deliverability by domain: the aggregates, checked once against a count of the rows.
    const overview = await timed(stack, `/api/reports/${campaignId}/overview`);
    const timeline = await timed(stack, `/api/reports/${campaignId}/timeline`);
    const domains = await timed(stack, `/api/reports/${campaignId}/domains`);
    const { rows: counted } = await stack.pool.query(
      `SELECT (SELECT count(*) FROM tracking_events WHERE campaign_id = $1 AND NOT machine)::int AS "humanHits",
              (SELECT count(*) FROM tracking_events WHERE campaign_id = $1 AND machine)::int AS "machineHits",
              (SELECT count(*) FROM campaign_jobs WHERE campaign_id = $1 AND human_opened_at IS NOT NULL)::int AS "openedHuman",
              (SELECT count(*) FROM campaign_jobs WHERE campaign_id = $1 AND complaint_type IS NOT NULL)::int AS complaints`,
      [campaignId],
    );
    const sum = (keys) => timeline.body.buckets.reduce((n, b) => n + keys.reduce((m, key) => m + b[key], 0), 0);
    const read = {
      humanHits: sum(['opensHuman', 'clicksHuman']),
      machineHits: sum(['opensMachine', 'clicksMachine']),
      openedHuman: overview.body.openedHuman,
      complaints: overview.body.complaints,
    };
    if (JSON.stringify(read) !== JSON.stringify(counted[0]) || read.humanHits + read.machineHits !== hits)
      throw new Error(`aggregates ${JSON.stringify(read)} differ from the rows ${JSON.stringify(counted[0])}`);
    const outcome = {
      overview: { p50Ms: overview.p50Ms, p95Ms: overview.p95Ms, coldMs: overview.coldMs },
      timeline: { p50Ms: timeline.p50Ms, p95Ms: timeline.p95Ms, coldMs: timeline.coldMs, buckets: timeline.body.buckets.length },
      domains: { p50Ms: domains.p50Ms, p95Ms: domains.p95Ms, coldMs: domains.coldMs, domains: domains.body.domains.length },
    };
    for (const [name, r] of Object.entries(outcome))
      console.log(
        `${name.padEnd(30)} p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p95 ${r.p95Ms.toFixed(2).padStart(7)} ms  cold ${r.coldMs.toFixed(0).padStart(5)} ms`,
      );
    console.log(`overview of ${hits} hits: ${JSON.stringify(overview.body)}`);
    const overviewOverBudget = Object.entries(outcome).filter(([, r]) => r.p95Ms > OVERVIEW_BUDGET_MS);
    if (overviewOverBudget.length > 0)
      console.log(`over the ${OVERVIEW_BUDGET_MS} ms budget: ${overviewOverBudget.map(([n]) => n).join(', ')}`);

    const filters = {
      all: '',
      FAILED: 'sendStatus=FAILED',
      SENT_WAIT_ACK: 'sendStatus=SENT_WAIT_ACK',
      SENT_SUCCESS: 'sendStatus=SENT_SUCCESS',
      HARD: 'bounceStatus=HARD',
      SOFT: 'bounceStatus=SOFT',
      'clicked-yes': 'clicked=true',
      'clicked-no': 'clicked=false',
      'opened-yes': 'opened=true',
      'opened-no': 'opened=false',
      // Every address contains it.
      'email-every': 'email=user',
      // The common domain: seven addresses in ten, with each kind of filter.
      'email-gmail': 'email=gmail',
      'email-gmail-FAILED': 'email=gmail&sendStatus=FAILED',
      'email-gmail-SENT_SUCCESS': 'email=gmail&sendStatus=SENT_SUCCESS',
      'email-gmail-HARD': 'email=GMAIL&bounceStatus=HARD',
      'email-gmail-clicked-yes': 'email=gmail&clicked=true',
      'email-gmail-opened-no': 'email=gmail&opened=false',
      // 11 addresses contain it (user54321, user543210..user543219).
      'email-rare': 'email=user54321',
      'email-rare-SENT_SUCCESS': 'email=user54321&sendStatus=SENT_SUCCESS',
    };
    const results = {};
    const measure = async (name, id, query) => {
      const base = `/api/reports/${id}/email-performance?limit=${LIMIT}${query ? `&${query}` : ''}`;
      const first = await timed(stack, `${base}&page=1`);
      const lastPage = Math.max(1, first.body.meta.totalPages);
      const last = await timed(stack, `${base}&page=${lastPage}`);
      const ends = [
        ['first', first],
        ['last', last],
      ];
      // A page in the middle of a search: the index finds it as fast as the ends.
      if (query.includes('email=') && lastPage > 2) ends.push(['middle', await timed(stack, `${base}&page=${Math.floor(lastPage / 2)}`)]);
      for (const [end, r] of ends) {
        const key = `${name}-${end}`;
        results[key] = {
          p50Ms: r.p50Ms,
          p95Ms: r.p95Ms,
          coldMs: r.coldMs,
          items: r.body.meta.itemCount,
          totalItems: r.body.meta.totalItems,
        };
        console.log(
          `${key.padEnd(30)} p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p95 ${r.p95Ms.toFixed(2).padStart(7)} ms` +
            `  cold ${r.coldMs.toFixed(0).padStart(5)} ms  (${r.body.meta.itemCount} items of ${r.body.meta.totalItems}, page ${r.body.meta.currentPage})`,
        );
      }
    };
    for (const [name, query] of Object.entries(filters)) await measure(name, campaignId, query);
    await measure('NOT_SENT', halfId, 'sendStatus=NOT_SENT');
    await measure('NOT_SENT-email-gmail', halfId, 'sendStatus=NOT_SENT&email=gmail');

    // The spec's NOT_SENT request: everything at once, streamed.
    started = performance.now();
    const res = await stack.api(`/api/reports/${halfId}/email-performance?sendStatus=NOT_SENT&page=1&limit=999999`);
    const all = await res.json();
    const notSentAll = {
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      rows: all.items.length,
      totalItems: all.meta.totalItems,
    };
    if (res.status !== 200 || notSentAll.rows !== notSentAll.totalItems)
      throw new Error(`NOT_SENT limit=999999: ${JSON.stringify(notSentAll)}`);
    console.log(`NOT_SENT limit=999999: ${notSentAll.rows} rows in ${notSentAll.seconds} s`);

    const worstP95Ms = Math.max(...Object.values(results).map((r) => r.p95Ms));
    const worstColdMs = Math.max(...Object.values(results).map((r) => r.coldMs));
    const load = loadavg().map((n) => Number(n.toFixed(2)));
    console.log(`worst p95 ${worstP95Ms} ms (budget <= 50); worst cold ${worstColdMs} ms; load average ${load.join(' ')} on this machine`);
    const { floorP95Ms } = await floorCall(stack);
    const floorRatios = {
      pages: overFloor(worstP95Ms, floorP95Ms),
      overview: overFloor(outcome.overview.p95Ms, floorP95Ms),
      timeline: overFloor(outcome.timeline.p95Ms, floorP95Ms),
      domains: overFloor(outcome.domains.p95Ms, floorP95Ms),
    };
    console.log(`ceiling: /healthz of the same API p95 ${floorP95Ms} ms; as multiples of it: ${JSON.stringify(floorRatios)}`);
    console.log(
      JSON.stringify({
        bench: 'report-page',
        jobs: ROWS,
        hits,
        worstP95Ms,
        worstColdMs,
        overviewP95Ms: outcome.overview.p95Ms,
        timelineP95Ms: outcome.timeline.p95Ms,
        domainsP95Ms: outcome.domains.p95Ms,
        floorP95Ms,
        floorRatios,
        loadAverage: load,
        notSentAll,
        outcome,
        cases: results,
      }),
    );
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
