// Part of `pnpm bench workflow`: the suppressions page (an addition to the spec) at 1,000,000
// suppressed addresses. Its first, a middle (reached by cursor, as Next reaches it) and last page,
// the same for a reason filter, and an address search (a rare term, and a term in seven addresses in
// ten: the first request reads the search index, its time is printed apart as `cold`). Requests run
// one after another over HTTP against the API process (auth, validation and all).
// Budget: p95 <= 50 ms each; `suppressionsP95Ms` is the worst of them.
//
// The rows are written straight into the table by one INSERT ... SELECT (the triggers of migration
// 0013 keep the counts as any insert would).
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { startStack } from '../support/stack.mjs';
import { floorCall, overFloor, timedCalls } from '../support/stats.mjs';

const ROWS = Number(process.env.BENCH_SUPPRESSIONS ?? 1_000_000);
const WARMUP = 10;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const LIMIT = 50;

const timed = (stack, url) => timedCalls(stack, url, { warmup: WARMUP, samples: SAMPLES });

export default async function measure() {
  const stack = await startStack();
  try {
    const seeded = performance.now();
    // Seven addresses in ten at gmail.com; reasons spread as a long-lived list would have them.
    await stack.pool.query(
      `INSERT INTO suppressions (email_lower, reason, campaign_id, created_at)
       SELECT 'person' || g || CASE WHEN g % 10 < 7 THEN '@gmail.com' ELSE '@example' || (g % 97) || '.org' END,
              (ARRAY['UNSUBSCRIBE', 'UNSUBSCRIBE', 'UNSUBSCRIBE', 'HARD_BOUNCE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER'])[1 + g % 8],
              NULL, now() - make_interval(secs => $1::int - g)
         FROM generate_series(1, $1::int) g`,
      [ROWS],
    );
    await stack.pool.query('VACUUM ANALYZE suppressions');
    console.log(`seeded ${ROWS} suppressions in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    const cases = {};
    const walk = async (name, base) => {
      const first = await timed(stack, `${base}`);
      const last = await timed(stack, `${base}&end=true`);
      // A middle page: the cursor of the row halfway down, as walking Next would reach it.
      const middleId = Math.floor(ROWS / 2);
      const middle = await timed(stack, `${base}&after=${middleId}`);
      cases[`${name} first`] = first;
      cases[`${name} middle`] = middle;
      cases[`${name} last`] = last;
      return first.body.totalItems;
    };
    const total = await walk('all', `/api/suppressions?limit=${LIMIT}`);
    if (total !== ROWS) throw new Error(`total ${total}, expected ${ROWS}`);
    await walk('complaints', `/api/suppressions?limit=${LIMIT}&reason=COMPLAINT`);
    const gmail = await walk('search gmail', `/api/suppressions?limit=${LIMIT}&email=gmail`);
    await walk('search gmail + hard bounce', `/api/suppressions?limit=${LIMIT}&email=gmail&reason=HARD_BOUNCE`);
    cases['search rare'] = await timed(stack, `/api/suppressions?limit=${LIMIT}&email=person123457%40`);

    let worst = 0;
    for (const [name, { coldMs, p50Ms, p95Ms }] of Object.entries(cases)) {
      console.log(`${name.padEnd(36)} p50 ${String(p50Ms).padStart(7)} ms  p95 ${String(p95Ms).padStart(7)} ms  cold ${coldMs} ms`);
      worst = Math.max(worst, p95Ms);
    }
    console.log(
      `gmail matches: ${gmail}; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}; budget 50 ms`,
    );
    const { floorP95Ms } = await floorCall(stack);
    const suppressionsFloorRatio = overFloor(worst, floorP95Ms);
    console.log(`ceiling: /healthz of the same API p95 ${floorP95Ms} ms; the worst page at ${suppressionsFloorRatio} x`);
    return { suppressionsP95Ms: Number(worst.toFixed(2)), suppressionsFloorP95Ms: floorP95Ms, suppressionsFloorRatio };
  } finally {
    await stack.stop();
  }
}

// Run alone: `node tests/bench/workflow/suppressions.mjs` (workflow.mjs imports it otherwise).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await measure()));
}
