// `pnpm bench contacts-page`: latency of contact pages of a 1,000,000-contact audience (imported
// through the API first, as in the import benchmark): first, middle and last page, with the email
// filter (a rare and a frequent term; a search's first request, which reads its matches into the
// search index, is printed apart as `cold`), with each status filter. Requests run one after another over
// HTTP against the running API (auth, validation and all). Budget: p95 <= 50 ms for every case.
import { performance } from 'node:perf_hooks';
import { generateCsv, importThroughApi, ROWS } from './support/contacts.mjs';
import { startStack } from './support/stack.mjs';
import { percentile } from './support/stats.mjs';

const WARMUP = 20;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const LIMIT = 10;

async function main() {
  const csv = generateCsv();
  const stack = await startStack();
  try {
    console.log(`importing ${ROWS} contacts...`);
    const { id, audience } = await importThroughApi(stack, csv);
    csv.remove();
    const total = audience.numberOfContacts;
    const errors = audience.numberOfContactsWithErrors;
    const lastPage = (n) => Math.max(1, Math.ceil(n / LIMIT));
    const middle = (n) => Math.max(1, Math.floor(lastPage(n) / 2));
    const cases = {
      'all-first': `page=1`,
      'all-middle': `page=${middle(total)}`,
      'all-last': `page=${lastPage(total)}`,
      'valid-first': `page=1&hasError=false`,
      'valid-last': `page=${lastPage(total - errors)}&hasError=false`,
      'errors-first': `page=1&hasError=true`,
      'errors-middle': `page=${middle(errors)}&hasError=true`,
      'errors-last': `page=${lastPage(errors)}&hasError=true`,
      // 11 addresses contain it (user54321, user543210..user543219).
      'email-rare': `page=1&email=user54321`,
      'email-rare-errors': `page=1&email=user5432&hasError=true`,
      // Every address: 980,000 valid matches and the invalid ones; pages from the search's total.
      'email-frequent-first': `page=1&email=example.org`,
      'email-frequent-middle': (totals) => `page=${middle(totals['email-frequent-first'])}&email=example.org`,
      'email-frequent-last': (totals) => `page=${lastPage(totals['email-frequent-first'])}&email=example.org`,
      'email-frequent-valid': `page=500&email=EXAMPLE&hasError=false`,
    };
    const results = {};
    const totals = {};
    for (const [name, query] of Object.entries(cases)) {
      const url = `/api/audiences/${id}/contacts?limit=${LIMIT}&${typeof query === 'function' ? query(totals) : query}`;
      const times = [];
      let body;
      let coldMs;
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const started = performance.now();
        const res = await stack.api(url);
        body = await res.json();
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
        if (i === 0) coldMs = Number(ms.toFixed(2));
        if (i >= WARMUP) times.push(ms);
      }
      totals[name] = body.meta.totalItems;
      times.sort((a, b) => a - b);
      results[name] = {
        p50Ms: Number(percentile(times, 50).toFixed(2)),
        p95Ms: Number(percentile(times, 95).toFixed(2)),
        coldMs,
        items: body.meta.itemCount,
        totalItems: body.meta.totalItems,
      };
      console.log(
        `${name.padEnd(22)} p50 ${results[name].p50Ms.toFixed(2).padStart(7)} ms  p95 ${results[name].p95Ms.toFixed(2).padStart(7)} ms` +
          `  cold ${coldMs.toFixed(0).padStart(5)} ms  (${body.meta.itemCount} items of ${body.meta.totalItems}, page ${body.meta.currentPage})`,
      );
    }
    const worstP95Ms = Math.max(...Object.values(results).map((r) => r.p95Ms));
    console.log(`worst p95 ${worstP95Ms} ms (budget <= 50)`);
    console.log(JSON.stringify({ bench: 'contacts-page', worstP95Ms, cases: results }));
  } finally {
    await stack.stop();
    csv.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
