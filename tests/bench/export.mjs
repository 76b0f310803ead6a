// `pnpm bench export`: the CSV export of a 1,000,000-contact audience (imported through the API
// first): seconds from the request to the last byte, read as fast as the client can, and the API's
// peak RSS during the export. Budget: <= 30 s and <= 300 MB.
// Its ceiling, in the same run: PostgreSQL's own COPY ... TO STDOUT of the same rows (the export's
// statement, in the same kind of transaction), read by a bare client; `exportRatio` is the export's
// seconds over the ceiling's.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { exportCopyStatement } from '../../api/src/services/contacts/export.ts';
import { generateCsv, importThroughApi, ROWS } from './support/contacts.mjs';
import { peakRssMb, resetPeakRss } from './support/processes.mjs';
import { API_DIR, startStack } from './support/stack.mjs';

const { to: copyTo } = createRequire(join(API_DIR, 'package.json'))('pg-copy-streams');

/** Seconds and bytes of the export's own COPY, run bare on one connection of the pool. */
async function rawCopySeconds(pool, audience) {
  const client = await pool.connect();
  try {
    const started = performance.now();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    let bytes = 0;
    for await (const chunk of client.query(copyTo(exportCopyStatement(audience, (value) => client.escapeLiteral(value))))) {
      bytes += chunk.length;
    }
    await client.query('COMMIT');
    return { seconds: (performance.now() - started) / 1000, bytes };
  } finally {
    client.release();
  }
}

async function main() {
  const csv = generateCsv();
  const stack = await startStack();
  try {
    console.log(`importing ${ROWS} contacts...`);
    const { id, audience } = await importThroughApi(stack, csv);
    csv.remove();
    // Once before, so that both read the rows from a warm cache.
    await rawCopySeconds(stack.pool, audience);
    resetPeakRss(stack.http.pid);
    const baseline = peakRssMb(stack.http.pid);

    const started = performance.now();
    const res = await stack.api(`/api/audiences/${id}/download`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    const rss = peakRssMb(stack.http.pid);
    const rows = lines - 1;
    if (rows !== audience.numberOfContacts) throw new Error(`exported ${rows} rows of ${audience.numberOfContacts}`);
    console.log(`Content-Disposition: ${res.headers.get('content-disposition')}`);
    console.log(`${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s (budget <= 30)`);
    console.log(`API peak RSS during the export ${rss} MB (before: ${baseline} MB; budget <= 300)`);
    const ceiling = await rawCopySeconds(stack.pool, audience);
    const exportRatio = seconds / ceiling.seconds;
    console.log(
      `ceiling: the bare COPY ... TO STDOUT of the same rows ${ceiling.seconds.toFixed(2)} s (${(ceiling.bytes / 1e6).toFixed(1)} MB); ` +
        `the export takes ${exportRatio.toFixed(2)} x`,
    );
    console.log(
      JSON.stringify({
        bench: 'export',
        rows,
        seconds: Number(seconds.toFixed(2)),
        copySeconds: Number(ceiling.seconds.toFixed(2)),
        exportRatio: Number(exportRatio.toFixed(2)),
        peakRssMb: rss,
      }),
    );
  } finally {
    await stack.stop();
    csv.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
