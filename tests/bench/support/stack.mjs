// The API and the worker as separate processes, as production runs them, against a fresh database on
// the local PostgreSQL and queues of their own on the local RabbitMQ.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { deleteProductQueues } from '../../../api/test/support/queues.ts';
import { startS3Endpoint } from '../../../api/test/support/s3.ts';
import { mintToken, testAudience, testIssuer, testJwks, testOrgEmailDomain } from '../../../api/test/support/tokens.ts';
import { spawnNode, stopAll } from './processes.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const API_DIR = join(ROOT, 'api');
const API_PACKAGE = JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8'));
export const SERVER_URL = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const AMQP_URL = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

function databaseUrl(name) {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onDatabase(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const onServer = (sql) => onDatabase(SERVER_URL, sql);

const JANITOR = fileURLToPath(new URL('./janitor.mjs', import.meta.url));

/** A new empty database on the server. */
async function freshDatabase() {
  const name = `mailroom_bench_${randomBytes(5).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  return { name, url: databaseUrl(name) };
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * The node arguments of an API package script (`http`, `worker`): the benchmarks start the processes
 * exactly as production does, V8 memory settings included, but without pnpm in between, so that the
 * PIDs they measure are the processes themselves.
 */
export function scriptArgs(script) {
  const command = API_PACKAGE.scripts[script].trim().split(/\s+/);
  if (command[0] !== 'node') throw new Error(`api script ${script} should start with node: ${API_PACKAGE.scripts[script]}`);
  return command.slice(1);
}

/**
 * A fresh database, a JWKS server for the test tokens, and the API and worker processes as their
 * package scripts run them (see scriptArgs). Their queues
 * carry a prefix of this run's own, so two runs on one broker never take each other's messages, and
 * are deleted when it stops.
 * `env` adds to or overrides the processes' environment (settings under test).
 *
 * Everything it started goes with `stack.stop()`, on SIGINT and SIGTERM, and, should this process die
 * without stopping them, with this process (support/exit-with-parent.mjs): the processes stop, and a
 * janitor process drops the database and removes the import folder.
 *
 * `BENCH_SPOOL=s3` (or `spool: 's3'`): the import spool is a bucket of the local S3-compatible endpoint
 * (api/test/support/s3.ts, in this process, its objects inside the run's folder) instead of IMPORT_DIR.
 */
export async function startStack({ env: extraEnv = {}, spool = process.env.BENCH_SPOOL ?? 'folder' } = {}) {
  if (spool !== 'folder' && spool !== 's3') throw new Error(`BENCH_SPOOL must be folder or s3, not ${spool}`);
  const database = await freshDatabase();
  const importDir = mkdtempSync(join(tmpdir(), 'mailroom-bench-imports-'));
  const s3 = spool === 's3' ? await startS3Endpoint({ directory: join(importDir, 's3') }) : undefined;
  const janitor = spawnNode([JANITOR, SERVER_URL, database.name, importDir], { stdio: ['ignore', 2, 2] });
  const jwks = JSON.stringify(await testJwks());
  const jwksServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise((done) => jwksServer.listen(0, '127.0.0.1', done));
  const port = await freePort();
  const queuePrefix = `bench-${randomBytes(4).toString('hex')}.`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    PORT: String(port),
    DATABASE_URL: database.url,
    AMQP_URL,
    QUEUE_PREFIX: queuePrefix,
    OIDC_ISSUER: testIssuer,
    OIDC_AUDIENCE: testAudience,
    OIDC_JWKS_URI: `http://127.0.0.1:${jwksServer.address().port}/jwks`,
    ORG_EMAIL_DOMAIN: testOrgEmailDomain,
    AUTHORIZED_SENDER_EMAILS: `newsletter@${testOrgEmailDomain}`,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TRACKING_SECRET: 'bench-tracking-secret-0123456789',
    IMPORT_DIR: importDir,
    ...s3?.env,
    ...extraEnv,
  };
  const children = [];
  // Their logs go to stderr: stdout carries only the figures, the last line being the JSON.
  const start = (script) => {
    const child = spawnNode(scriptArgs(script), { cwd: API_DIR, env, stdio: ['ignore', 2, 2] });
    children.push(child);
    return child;
  };
  let stopped;
  const stop = () =>
    (stopped ??= (async () => {
      for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, onSignal);
      await stopAll(children);
      jwksServer.close();
      await s3?.close();
      // Once nothing uses them: the janitor drops the database and removes the import folder.
      await stopAll([janitor]);
      await deleteProductQueues(AMQP_URL, queuePrefix).catch((error) => console.error('could not delete the benchmark queues:', error));
    })());
  // Interrupted: clean up, then end as the signal would have.
  const onSignal = (signal) => {
    console.error(`${signal}: stopping the benchmark's API and worker`);
    void stop().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, onSignal);

  try {
    // The migration step first, as a deployment runs it: with NODE_ENV=production the API and the
    // workers wait for their schema and never migrate themselves.
    const migration = start('migrate');
    const migrated = await new Promise((done) => migration.once('exit', (code) => done(code)));
    if (migrated !== 0) throw new Error(`the migration step failed (exit code ${migrated})`);
    const http = start('http');
    const baseUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (http.exitCode !== null) throw new Error('the API did not start');
      const ok = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      // Three minutes: on the shared two cores at a load average of 40 (the benchmarks' smoke run
      // beside e2e suites), the API took more than a minute to answer its first /healthz.
      if (i > 1800) throw new Error('the API did not answer in 180 s');
      await sleep(100);
    }
    // freePort's port may be taken by another process (another run's API on this shared machine) before
    // ours binds it: then that one answered while ours died. Said plainly rather than as wrong figures.
    if (http.exitCode !== null) {
      throw new Error(`another process answered on port ${port}: it was taken before this run's API could listen there`);
    }
    const worker = start('worker');
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
    const token = await mintToken({ expiresIn: 3 * 3600 });
    const api = (path, init = {}) =>
      fetch(`${baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
    // Wait for the worker's consumers (its queue declaration) before publishing work.
    await sleep(1500);
    const stack = {
      spool,
      /** The local S3-compatible endpoint when the spool is S3. */
      s3,
      baseUrl,
      api,
      pool,
      http,
      worker,
      /** Starts another worker process (crash tests), which becomes `stack.worker`. */
      startWorker: () => (stack.worker = start('worker')),
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
