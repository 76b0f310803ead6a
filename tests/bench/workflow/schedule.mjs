// Part of `pnpm bench workflow`: the start delay of scheduled campaigns (an addition to the spec). The
// production processes (the API and two worker processes on RabbitMQ, send.mjs's stack) and a local SES
// endpoint; 20 runs, one after the other: a 200-contact draft is scheduled through the API for a time 1.5 to
// 2.5 s ahead (spread over the second, so the runs fall at every phase of the workers' one-second sweep),
// and its delay is when sending started (delivery_date, the dispatch transaction's time) minus
// scheduled_at, both read from PostgreSQL's clock. Each run also checks the campaign was dispatched once
// (its jobs are the audience's contacts, once). Budget: every start within 10 s of its time.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { seedGeneratedAudience, seedTemplate } from '../../../api/test/support/seed.ts';
import { draftCampaign, startCampaignStack, TEMPLATE } from '../send.mjs';
import { percentile } from '../support/stats.mjs';

const RUNS = Number(process.env.BENCH_SCHEDULE_RUNS ?? 20);
const CONTACTS = 200;
const BUDGET_S = 10;

async function schedule(stack, id, at) {
  const res = await stack.api(`/api/campaigns/${id}/schedule`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ at: at.toISOString() }),
  });
  if (res.status !== 200) throw new Error(`schedule ${id}: ${res.status} ${await res.text()}`);
}

/** Seconds from the scheduled time to the start of sending, once the campaign has left SCHEDULED. */
async function startDelay(stack, id) {
  const waitedFrom = performance.now();
  for (;;) {
    const { rows } = await stack.pool.query(
      `SELECT status, extract(epoch FROM delivery_date - scheduled_at)::float8 AS delay,
              (SELECT count(*)::int FROM campaign_jobs WHERE campaign_id = $1) AS jobs
         FROM campaigns WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row.status !== 'SCHEDULED') {
      if (row.status === 'DRAFT' || row.delay === null) throw new Error(`campaign ${id} did not start (${row.status})`);
      if (row.jobs !== CONTACTS) throw new Error(`campaign ${id} has ${row.jobs} jobs, not ${CONTACTS}`);
      return row.delay;
    }
    if (performance.now() - waitedFrom > 60_000) throw new Error(`campaign ${id} still scheduled after a minute`);
    await sleep(50);
  }
}

export default async function measure() {
  const stack = await startCampaignStack({ maxSendRate: 10_000, max24HourSend: -1 });
  try {
    const { id: audienceId } = await seedGeneratedAudience(stack.pool, CONTACTS);
    const templateId = await seedTemplate(stack.pool, { html: TEMPLATE });
    // A warm-up run, not counted: the stack starts the worker processes with a fixed wait, and on a loaded
    // machine their first sweep may come seconds after it (a time missed while no worker ran, which starts
    // as soon as one does). The runs measure the sweep of running workers.
    const warmUp = await draftCampaign(stack, audienceId, templateId);
    await schedule(stack, warmUp, new Date(Date.now() + 1000));
    console.log(`warm-up: started ${(await startDelay(stack, warmUp)).toFixed(3)} s after its time (not counted)`);
    const delays = [];
    for (let run = 0; run < RUNS; run++) {
      const id = await draftCampaign(stack, audienceId, templateId);
      await schedule(stack, id, new Date(Date.now() + 1500 + Math.round((run / RUNS) * 1000)));
      const delay = await startDelay(stack, id);
      delays.push(delay);
      console.log(`run ${run + 1}: started ${delay.toFixed(3)} s after its time`);
    }
    const sorted = [...delays].sort((a, b) => a - b);
    const figures = {
      scheduleDelayMedianS: Number(percentile(sorted, 50).toFixed(3)),
      scheduleDelayWorstS: Number(sorted.at(-1).toFixed(3)),
    };
    console.log(
      `start delay over ${RUNS} runs: median ${figures.scheduleDelayMedianS} s, worst ${figures.scheduleDelayWorstS} s (budget ${BUDGET_S} s)`,
    );
    if (figures.scheduleDelayWorstS > BUDGET_S) console.log(`OVER BUDGET: a scheduled campaign started more than ${BUDGET_S} s late`);
    return figures;
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(JSON.stringify(await measure()));
