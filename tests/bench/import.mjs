// `pnpm bench import`: a generated CSV of 1,000,000 contacts x 5 columns (~70 MB) uploaded through
// the API and imported by the worker, against a fresh database on the local PostgreSQL and the local
// RabbitMQ. Prints seconds from the start of the upload to isImporting false, rows per second, the
// peak RSS (VmHWM) of the API and worker processes, and, in the same run and into the same (empty)
// table, the seconds PostgreSQL's own COPY takes for the same rows.
// Budget: >= 70,000 rows/s, <= 1.4 x the raw COPY time, peak RSS <= 300 MB.
// At ten million rows (`IMPORT_MAX_BYTES=2000000000 BENCH_ROWS=10000000 pnpm bench import`, ~750 MB):
// peak RSS still <= 300 MB (memory does not grow with the rows), throughput >= 0.9 x the raw COPY's.
// `BENCH_FIELDS=5 pnpm bench import` (issue 24): five typed columns more (number, date, yes/no, choice, text),
// imported with a mapping that types them and the four text columns; the raw COPY copies the same typed rows.
// Budget: <= 1.15 x the raw COPY time, peak RSS <= 300 MB.
// It also prints the CPU seconds of the worker and of the database's backends during the import, and of the raw
// COPY's backend: on a shared machine they say where the time went when the wall clock cannot.
// `BENCH_SPOOL=s3 pnpm bench import`: the same with the import spool in a bucket of the local
// S3-compatible endpoint (the API streams the upload as a multipart upload, the worker reads the
// object); the same budgets hold.
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { BAD_AGE_ERROR, FIELDS, generateCsv, importThroughApi, ROWS, TYPED_MAPPING, typedValues } from './support/contacts.mjs';
import { cpuSeconds, peakRssMb, resetPeakRss } from './support/processes.mjs';
import { API_DIR, startStack } from './support/stack.mjs';

const apiRequire = createRequire(join(API_DIR, 'package.json'));
const { from: copyFrom } = apiRequire('pg-copy-streams');

const log = (...args) => console.log(...args);

/**
 * The same rows as COPY text, exactly as the importer writes them (numbering, error messages,
 * data json), for PostgreSQL's own COPY.
 */
function generateCopyText(audienceId, rows = ROWS) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-bench-copy-'));
  const path = join(dir, 'contacts.tsv');
  const fd = openSync(path, 'w');
  let buffer = '';
  let valid = 0;
  let errors = 0;
  for (let i = 1; i <= rows; i++) {
    const { email, error, data } = copyRow(i);
    const ok = error === null;
    buffer += `${audienceId}\t${i}\t${ok ? ++valid : '\\N'}\t${ok ? '\\N' : ++errors}\t${email}\t${error ?? '\\N'}\t${data}\n`;
    if (buffer.length > 1 << 20) {
      writeSync(fd, buffer);
      buffer = '';
    }
  }
  writeSync(fd, buffer);
  closeSync(fd);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Row i as the importer stores it: its address, error and data json (FIELDS: typed, under the mapping's keys). */
function copyRow(i) {
  const invalid = i % 50 === 0;
  // A field's error makes a row an error row: a later row with its address is then the first valid one, no duplicate.
  const badField = FIELDS > 0 && typedValues(i).badAge;
  const previousValid = (i - 1) % 50 !== 0 && !(FIELDS > 0 && typedValues(i - 1).badAge);
  const duplicate = !invalid && !badField && i % 101 === 0 && previousValid;
  const email = invalid ? `user${i}@example` : i % 101 === 0 ? `USER${i - 1}@example.org` : `user${i}@example.org`;
  const error = invalid
    ? 'Invalid email address'
    : badField
      ? BAD_AGE_ERROR
      : duplicate
        ? 'Duplicate email address in this audience'
        : null;
  const data =
    FIELDS > 0
      ? `{"firstName":"First${i}","lastName":"Last${i}","city":"City ${i % 1000}","company":"Company ${i % 5000}"${typedValues(i).json}}`
      : `{"First Name":"First${i}","Last Name":"Last${i}","City":"City ${i % 1000}","Company":"Company ${i % 5000}"}`;
  return { email, error, data };
}

/**
 * CPU seconds so far of the database's other backends (the API's and the worker's connections), by pid: on a
 * shared machine, the CPU each side spends tells where an import's time goes better than its wall clock.
 */
async function backendCpu(pool) {
  const { rows } = await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return new Map(rows.map(({ pid }) => [pid, cpuSeconds(pid) ?? 0]));
}

function cpuSince(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** The import stored what the raw COPY copied (a sample of rows, each kind): the two times compare the same work. */
async function checkSameRows(pool, audienceId) {
  const sample = [1, 2, 7, 50, 101, 1007, 2007, 10100, ROWS].filter((i) => i <= ROWS);
  const { rows } = await pool.query('SELECT seq, email, error_message, data FROM contacts WHERE audience_id = $1 AND seq = ANY($2)', [
    audienceId,
    sample,
  ]);
  for (const row of rows) {
    const expected = copyRow(row.seq);
    const same =
      row.email === expected.email && row.error_message === expected.error && isDeepStrictEqual(row.data, JSON.parse(expected.data));
    if (!same) throw new Error(`row ${row.seq} differs from the raw COPY's: ${JSON.stringify(row)} vs ${JSON.stringify(expected)}`);
  }
  if (rows.length !== sample.length) throw new Error(`expected rows ${sample} in the import`);
}

/**
 * Seconds PostgreSQL takes to COPY the rows (one transaction) into contacts: with the server's
 * settings, or with `settings` (SET LOCAL statements) first; and the CPU seconds its backend used.
 */
async function rawCopySeconds(pool, settings = []) {
  const { rows } = await pool.query(`INSERT INTO audiences (name) VALUES ('raw copy') RETURNING id`);
  const audienceId = rows[0].id;
  const file = generateCopyText(audienceId);
  const client = await pool.connect();
  try {
    await client.query('CHECKPOINT');
    const backend = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const cpuBefore = cpuSeconds(backend);
    const started = performance.now();
    await client.query('BEGIN');
    for (const statement of settings) await client.query(statement);
    await pipeline(
      createReadStream(file.path, { highWaterMark: 1 << 20 }),
      client.query(copyFrom('COPY contacts (audience_id, seq, valid_seq, error_seq, email, error_message, data) FROM STDIN')),
    );
    await client.query('COMMIT');
    return { seconds: (performance.now() - started) / 1000, backendCpu: cpuSeconds(backend) - cpuBefore };
  } finally {
    client.release();
    file.remove();
    // The import then starts from the same empty table.
    await pool.query('TRUNCATE contacts');
    await pool.query(`DELETE FROM audiences WHERE id = $1`, [audienceId]);
    await pool.query('CHECKPOINT');
  }
}

async function main() {
  log(`generating ${ROWS} rows...`);
  const csv = generateCsv(ROWS, FIELDS);
  log(`CSV: ${(csv.size / 1e6).toFixed(1)} MB`);
  const stack = await startStack();
  log(`import spool: ${stack.spool}`);
  try {
    const raw = await rawCopySeconds(stack.pool);
    const copySeconds = raw.seconds;
    log(`raw COPY of the same rows: ${copySeconds.toFixed(2)} s (its backend's CPU ${raw.backendCpu.toFixed(2)} s)`);
    // For reference: the same COPY with the session settings the importer uses (importer.ts).
    const tuned = await rawCopySeconds(stack.pool, [`SET LOCAL work_mem = '64MB'`, `SET LOCAL gin_pending_list_limit = '16MB'`]);
    const tunedSeconds = tuned.seconds;
    log(`raw COPY with the importer's session settings: ${tunedSeconds.toFixed(2)} s (its backend's CPU ${tuned.backendCpu.toFixed(2)} s)`);
    for (const pid of [stack.http.pid, stack.worker.pid]) resetPeakRss(pid);
    const workerCpuBefore = cpuSeconds(stack.worker.pid);
    const backendsBefore = await backendCpu(stack.pool);
    const { audience, seconds, uploadSeconds } = await importThroughApi(
      stack,
      csv,
      'Bench audience',
      FIELDS > 0 ? TYPED_MAPPING : undefined,
    );
    const workerCpu = cpuSeconds(stack.worker.pid) - workerCpuBefore;
    const backendsCpu = cpuSince(backendsBefore, await backendCpu(stack.pool));
    const apiRss = peakRssMb(stack.http.pid);
    const workerRss = peakRssMb(stack.worker.pid);
    const rows = audience.numberOfContacts;
    log(`upload ${uploadSeconds.toFixed(2)} s; upload to isImporting false ${seconds.toFixed(2)} s`);
    log(`contacts ${rows} (${audience.numberOfContactsWithErrors} with errors), headers ${JSON.stringify(audience.headers)}`);
    await checkSameRows(stack.pool, audience.id);
    log(`peak RSS: API ${apiRss} MB, worker ${workerRss} MB`);
    log(
      `CPU during the import: worker ${workerCpu.toFixed(2)} s, database backends ${backendsCpu.toFixed(2)} s; load ${loadavg()[0].toFixed(2)}`,
    );
    if (stack.s3) {
      const left = async () => (await stack.s3.objects()).length + (await stack.s3.pendingUploads()).length;
      // The worker deletes the object right after the commit, a moment after isImporting turns false.
      for (let i = 0; i < 40 && (await left()) > 0; i++) await sleep(50);
      log(`S3: ${stack.s3.requests.get('PUT uploadId') ?? 0} parts uploaded; objects and multipart uploads left: ${await left()}`);
    }
    const rowsPerSecond = Math.round(rows / seconds);
    log(
      `${rowsPerSecond} rows/s (budget >= 70000); ${(seconds / copySeconds).toFixed(2)} x raw COPY (budget <= 1.4), ` +
        `${(seconds / tunedSeconds).toFixed(2)} x the tuned raw COPY; ` +
        `peak RSS ${Math.max(apiRss, workerRss)} MB (budget <= 300)`,
    );
    log(
      JSON.stringify({
        bench: 'import',
        spool: stack.spool,
        fields: FIELDS,
        copyRatio: Number((seconds / copySeconds).toFixed(2)),
        rows,
        seconds: Number(seconds.toFixed(2)),
        rowsPerSecond,
        copySeconds: Number(copySeconds.toFixed(2)),
        peakRssMb: Math.max(apiRss, workerRss),
        apiPeakRssMb: apiRss,
        workerPeakRssMb: workerRss,
        workerCpuSeconds: Number(workerCpu.toFixed(2)),
        importBackendCpuSeconds: Number(backendsCpu.toFixed(2)),
        copyBackendCpuSeconds: Number(raw.backendCpu.toFixed(2)),
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
