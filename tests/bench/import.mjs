// `pnpm bench import`: a generated CSV of 1,000,000 contacts x 5 columns (~70 MB) uploaded through
// the API and imported by the worker, against a fresh database on the local PostgreSQL and the local
// RabbitMQ. Prints seconds from the start of the upload to isImporting false, rows per second, the
// peak RSS (VmHWM) of the API and worker processes, and, in the same run and into the same (empty)
// table, the seconds PostgreSQL's own COPY takes for the same rows.
// Budget: >= 70,000 rows/s, <= 1.4 x the raw COPY time, peak RSS <= 300 MB.
//
// This file also exports the stack helpers the contacts-page and export benchmarks share.
/* global FormData */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openAsBlob, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { mintToken, testAudience, testIssuer, testJwks, testOrgEmailDomain } from '../../api/test/support/tokens.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const API_DIR = join(ROOT, 'api');
const apiRequire = createRequire(join(API_DIR, 'package.json'));
const { from: copyFrom } = apiRequire('pg-copy-streams');

export const SERVER_URL = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const AMQP_URL = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

const log = (...args) => console.log(...args);

function databaseUrl(name) {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(sql) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Peak resident set (VmHWM) of a process in MB; undefined once it is gone. */
export function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

/** Resets VmHWM, so the next peak measures one phase only (Linux: clear_refs 5). */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not allowed here: the peak then covers the whole run.
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * A fresh database, a JWKS server for the test tokens, and the API and worker processes as their
 * package scripts run them (`tsx src/http/main.ts`, `tsx src/workers/main.ts`; started as
 * `node --import tsx ...` directly so the measured PIDs are the processes themselves).
 */
export async function startStack() {
  const dbName = `mailroom_bench_${randomBytes(5).toString('hex')}`;
  await onServer(`CREATE DATABASE ${dbName}`);
  const jwks = JSON.stringify(await testJwks());
  const jwksServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise((r) => jwksServer.listen(0, '127.0.0.1', r));
  const port = await freePort();
  const importDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-imports-'));
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    PORT: String(port),
    DATABASE_URL: databaseUrl(dbName),
    AMQP_URL,
    OIDC_ISSUER: testIssuer,
    OIDC_AUDIENCE: testAudience,
    OIDC_JWKS_URI: `http://127.0.0.1:${jwksServer.address().port}/jwks`,
    ORG_EMAIL_DOMAIN: testOrgEmailDomain,
    AUTHORIZED_SENDER_EMAILS: `newsletter@${testOrgEmailDomain}`,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TRACKING_SECRET: 'bench-tracking-secret-0123456789',
    IMPORT_DIR: importDir,
  };
  const children = [];
  const start = (entry) => {
    // Their logs go to stderr: stdout carries only the figures, the last line being the JSON.
    const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: API_DIR, env, stdio: ['ignore', 2, 2] });
    children.push(child);
    return child;
  };
  const stop = async () => {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(running.map((child) => new Promise((r) => child.once('exit', r))));
    jwksServer.close();
    rmSync(importDir, { recursive: true, force: true });
    await onServer(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  };

  try {
    const http = start('src/http/main.ts');
    const baseUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (http.exitCode !== null) throw new Error('the API did not start');
      const ok = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error('the API did not answer in 60 s');
      await sleep(100);
    }
    // The worker after the API: the API has run the migrations.
    const worker = start('src/workers/main.ts');
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
    const token = await mintToken({ expiresIn: 3 * 3600 });
    const api = (path, init = {}) =>
      fetch(`${baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
    // Wait for the worker's consumers (its queue declaration) before publishing work.
    await sleep(1500);
    const stack = {
      baseUrl,
      api,
      pool,
      http,
      worker,
      /** Starts another worker process (crash tests), which becomes `stack.worker`. */
      startWorker: () => (stack.worker = start('src/workers/main.ts')),
      stop: async () => {
        await pool.end();
        await stop();
      },
    };
    return stack;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Row i of the generated file: every 50th address invalid, every 101st a duplicate of the one before. */
function contactLine(i) {
  const email = i % 50 === 0 ? `user${i}@example` : i % 101 === 0 ? `USER${i - 1}@example.org` : `user${i}@example.org`;
  return `${email},First${i},Last${i},City ${i % 1000},Company ${i % 5000}\n`;
}

export const CSV_HEADER = 'Email,First Name,Last Name,City,Company\n';

/** Writes the ROWS-row CSV to a temp file; returns its path and size. */
export function generateCsv(rows = ROWS) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-bench-csv-'));
  const path = join(dir, 'contacts.csv');
  const fd = openSync(path, 'w');
  let size = 0;
  let buffer = CSV_HEADER;
  for (let i = 1; i <= rows; i++) {
    buffer += contactLine(i);
    if (buffer.length > 1 << 20) {
      size += writeSync(fd, buffer);
      buffer = '';
    }
  }
  size += writeSync(fd, buffer);
  closeSync(fd);
  return { path, size, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

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
    const invalid = i % 50 === 0;
    const duplicate = !invalid && i % 101 === 0 && (i - 1) % 50 !== 0;
    const email = invalid ? `user${i}@example` : i % 101 === 0 ? `USER${i - 1}@example.org` : `user${i}@example.org`;
    const error = invalid ? 'Invalid email address' : duplicate ? 'Duplicate email address in this audience' : null;
    const ok = error === null;
    const data = `{"First Name":"First${i}","Last Name":"Last${i}","City":"City ${i % 1000}","Company":"Company ${i % 5000}"}`;
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

/**
 * Seconds PostgreSQL takes to COPY the rows (one transaction) into contacts: with the server's
 * settings, or with `settings` (SET LOCAL statements) first.
 */
async function rawCopySeconds(pool, settings = []) {
  const { rows } = await pool.query(`INSERT INTO audiences (name) VALUES ('raw copy') RETURNING id`);
  const audienceId = rows[0].id;
  const file = generateCopyText(audienceId);
  const client = await pool.connect();
  try {
    await client.query('CHECKPOINT');
    const started = performance.now();
    await client.query('BEGIN');
    for (const statement of settings) await client.query(statement);
    await pipeline(
      createReadStream(file.path, { highWaterMark: 1 << 20 }),
      client.query(copyFrom('COPY contacts (audience_id, seq, valid_seq, error_seq, email, error_message, data) FROM STDIN')),
    );
    await client.query('COMMIT');
    return (performance.now() - started) / 1000;
  } finally {
    client.release();
    file.remove();
    // The import then starts from the same empty table.
    await pool.query('TRUNCATE contacts');
    await pool.query(`DELETE FROM audiences WHERE id = $1`, [audienceId]);
    await pool.query('CHECKPOINT');
  }
}

/** Creates an audience and imports the CSV through the API; resolves with the timings. */
export async function importThroughApi(stack, csv, name = 'Bench audience') {
  const created = await stack.api('/api/audiences', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (created.status !== 201) throw new Error(`create audience: ${created.status} ${await created.text()}`);
  const { id } = await created.json();

  const form = new FormData();
  form.append('file', await openAsBlob(csv.path, { type: 'text/csv' }), 'contacts.csv');
  const started = performance.now();
  const upload = await stack.api(`/api/audiences/${id}/import/file?type=csv`, { method: 'POST', body: form });
  const uploadSeconds = (performance.now() - started) / 1000;
  if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  let audience;
  for (;;) {
    const res = await stack.api(`/api/audiences/${id}`);
    audience = await res.json();
    if (!audience.isImporting) break;
    if (performance.now() - started > 10 * 60_000) throw new Error('import did not finish in 10 minutes');
    await sleep(25);
  }
  const seconds = (performance.now() - started) / 1000;
  if (audience.importErrorMessage) throw new Error(`import failed: ${audience.importErrorMessage}`);
  return { id, audience, seconds, uploadSeconds };
}

async function main() {
  log(`generating ${ROWS} rows...`);
  const csv = generateCsv();
  log(`CSV: ${(csv.size / 1e6).toFixed(1)} MB`);
  const stack = await startStack();
  try {
    const copySeconds = await rawCopySeconds(stack.pool);
    log(`raw COPY of the same rows: ${copySeconds.toFixed(2)} s`);
    // For reference: the same COPY with the session settings the importer uses (importer.ts).
    const tunedSeconds = await rawCopySeconds(stack.pool, [`SET LOCAL work_mem = '64MB'`, `SET LOCAL gin_pending_list_limit = '16MB'`]);
    log(`raw COPY with the importer's session settings: ${tunedSeconds.toFixed(2)} s`);
    for (const pid of [stack.http.pid, stack.worker.pid]) resetPeakRss(pid);
    const { audience, seconds, uploadSeconds } = await importThroughApi(stack, csv);
    const apiRss = peakRssMb(stack.http.pid);
    const workerRss = peakRssMb(stack.worker.pid);
    const rows = audience.numberOfContacts;
    log(`upload ${uploadSeconds.toFixed(2)} s; upload to isImporting false ${seconds.toFixed(2)} s`);
    log(`contacts ${rows} (${audience.numberOfContactsWithErrors} with errors), headers ${JSON.stringify(audience.headers)}`);
    log(`peak RSS: API ${apiRss} MB, worker ${workerRss} MB`);
    const rowsPerSecond = Math.round(rows / seconds);
    log(
      `${rowsPerSecond} rows/s (budget >= 70000); ${(seconds / copySeconds).toFixed(2)} x raw COPY (budget <= 1.4), ` +
        `${(seconds / tunedSeconds).toFixed(2)} x the tuned raw COPY; ` +
        `peak RSS ${Math.max(apiRss, workerRss)} MB (budget <= 300)`,
    );
    log(
      JSON.stringify({
        bench: 'import',
        rows,
        seconds: Number(seconds.toFixed(2)),
        rowsPerSecond,
        copySeconds: Number(copySeconds.toFixed(2)),
        peakRssMb: Math.max(apiRss, workerRss),
      }),
    );
  } finally {
    await stack.stop();
    csv.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
