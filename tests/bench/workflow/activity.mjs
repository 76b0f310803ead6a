// Part of `pnpm bench workflow`: the activity log page (GET /api/activity) at 1,000,000 entries, over HTTP
// against the API process (auth, validation and all): the newest page, a middle page (a cursor half-way
// down the log), the oldest page, and the newest, a middle and the oldest page of each filter (member,
// a part of a member's address, kind, object type, one object, and member with kind). Budget: p95 <=
// 50 ms for every case.
//
// The entries are written straight into the table by PostgreSQL (generate_series): 50 members, the
// kinds and objects in the proportions a busy organisation makes them, over the last 300 days.
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { startStack } from '../support/stack.mjs';
import { floorCall, overFloor, timedCalls } from '../support/stats.mjs';

const ROWS = Number(process.env.BENCH_ACTIVITY_ROWS ?? 1_000_000);
const WARMUP = 10;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const LIMIT = 25;
const BUDGET_MS = 50;
const KINDS = ['create', 'rename', 'delete', 'import', 'export', 'send', 'retry-all-failed', 'send-to-not-sent', 'test-send', 'continue'];
const TYPES = ['audience', 'template', 'campaign'];

async function seed(pool) {
  const started = performance.now();
  await pool.query(
    `INSERT INTO activity (created_at, member_email, kind, object_type, object_id, object_name, details)
     SELECT now() - (n::double precision / $1) * interval '300 days',
            'member' || (hashint4(n) & 2147483647) % 50 || '@example.org',
            ($2::text[])[1 + (hashint4(n + 7) & 2147483647) % cardinality($2::text[])],
            ($3::text[])[1 + (hashint4(n + 13) & 2147483647) % cardinality($3::text[])],
            1 + (hashint4(n + 29) & 2147483647) % 2000,
            'Object ' || n % 2000,
            jsonb_build_object('jobs', n % 1000)
       FROM generate_series(1, $1) AS n`,
    [ROWS, KINDS, TYPES],
  );
  await pool.query('VACUUM ANALYZE activity');
  console.log(`${ROWS} activity entries in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const timed = (stack, url) => timedCalls(stack, url, { warmup: WARMUP, samples: SAMPLES });

/** The id of the entry half-way down the log of `where` (the cursor of a middle page). */
async function middleCursor(pool, where, params) {
  const { rows } = await pool.query(
    `SELECT id FROM activity ${where ? `WHERE ${where}` : ''} ORDER BY created_at DESC, id DESC
      OFFSET (SELECT count(*) / 2 FROM activity ${where ? `WHERE ${where}` : ''}) LIMIT 1`,
    params,
  );
  return rows[0].id;
}

export default async function measure() {
  const stack = await startStack();
  try {
    await seed(stack.pool);
    const objectId = 1234;
    const filters = {
      all: ['', '', []],
      member: [`member=${encodeURIComponent('member7@example.org')}`, `member_email LIKE $1`, ['%member7@example.org%']],
      // A part of an address, as a member types it: one member of the fifty has it.
      memberPart: ['member=MBER7%40', `member_email LIKE $1`, ['%mber7@%']],
      kind: ['kind=export', `kind = $1`, ['export']],
      objectType: ['objectType=campaign', `object_type = $1`, ['campaign']],
      object: [`objectType=campaign&objectId=${objectId}`, `object_type = $1 AND object_id = $2`, ['campaign', objectId]],
      memberAndKind: [
        `member=${encodeURIComponent('member7@example.org')}&kind=send`,
        `member_email LIKE $1 AND kind = $2`,
        ['%member7@example.org%', 'send'],
      ],
    };
    const cases = {};
    for (const [name, [query, where, params]] of Object.entries(filters)) {
      const q = query ? `${query}&` : '';
      const middle = await middleCursor(stack.pool, where, params);
      for (const [place, url] of Object.entries({
        first: `/api/activity?${q}limit=${LIMIT}`,
        middle: `/api/activity?${q}limit=${LIMIT}&before=${middle}`,
        last: `/api/activity?${q}limit=${LIMIT}&oldest=true`,
      })) {
        const { p50Ms, p95Ms, body } = await timed(stack, url);
        if (body.items.length === 0) throw new Error(`${url}: an empty page`);
        cases[`${name}.${place}`] = { p50Ms, p95Ms };
        console.log(`activity ${name} ${place}: p50 ${p50Ms} ms, p95 ${p95Ms} ms (${body.items.length} entries)`);
      }
    }
    const activityP95Ms = Math.max(...Object.values(cases).map((c) => c.p95Ms));
    const over = Object.entries(cases).filter(([, c]) => c.p95Ms > BUDGET_MS);
    console.log(`activity page p95 worst ${activityP95Ms} ms (budget ${BUDGET_MS} ms), load ${loadavg()[0].toFixed(1)}`);
    if (over.length > 0) console.log(`over budget: ${over.map(([name]) => name).join(', ')}`);
    const { floorP95Ms } = await floorCall(stack);
    const activityFloorRatio = overFloor(activityP95Ms, floorP95Ms);
    console.log(`ceiling: /healthz of the same API p95 ${floorP95Ms} ms; the worst page at ${activityFloorRatio} x`);
    return { activityP95Ms, activityFloorP95Ms: floorP95Ms, activityFloorRatio, activityCases: cases };
  } finally {
    await stack.stop();
  }
}

// Run alone: `node tests/bench/workflow/activity.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measure()));
