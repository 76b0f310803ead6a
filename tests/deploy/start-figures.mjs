#!/usr/bin/env node
// Start time and memory of the production processes: `http` and `worker` started from a production
// tree (deploy/production-tree.sh) against the real PostgreSQL and RabbitMQ, each until its /healthz
// answers, then its resident memory (VmRSS of the Node process) after a settling second. Prints one
// line per run and a JSON summary (medians).
//
//   node tests/deploy/start-figures.mjs <tree> [runs]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';

const [treeArgument, runsArgument = '5'] = process.argv.slice(2);
if (!treeArgument) {
  console.error('usage: node tests/deploy/start-figures.mjs <production tree> [runs]');
  process.exit(64);
}
const tree = resolve(treeArgument);
const runs = Number(runsArgument);
const require = createRequire(join(tree, 'api/package.json'));
const pg = require('pg');
const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `mailroom_figures_${randomBytes(5).toString('hex')}`;
const work = mkdtempSync(join(tmpdir(), 'mailroom-figures-'));

async function onServer(sql) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

const env = (extra) => ({
  PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
  HOME: work,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
  AMQP_URL: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  QUEUE_PREFIX: `figures-${randomBytes(4).toString('hex')}.`,
  OIDC_ISSUER: 'https://id.example.org/realms/mailroom',
  OIDC_JWKS_URI: 'http://127.0.0.1:9/certs',
  ORG_EMAIL_DOMAIN: 'example.org',
  AUTHORIZED_SENDER_EMAILS: 'newsletter@example.org',
  PUBLIC_URL: 'https://mailroom.example.org',
  TRACKING_SECRET: randomBytes(24).toString('hex'),
  AWS_REGION: 'eu-west-1',
  SES_ENDPOINT: 'http://127.0.0.1:9',
  IMPORT_DIR: join(work, 'imports'),
  HTTP_PROCESSES: '1',
  ...extra,
});

function run(command, extra) {
  return spawn('sh', [join(tree, 'bin/mailroom'), command], { cwd: work, env: env(extra), stdio: ['ignore', 'ignore', 'inherit'] });
}

async function measure(command) {
  const port = await freePort();
  const started = performance.now();
  const child = run(command, command === 'http' ? { PORT: String(port) } : { HEALTH_PORT: String(port) });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ended with ${child.exitCode}`);
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (answer?.ok) break;
      await sleep(20);
    }
    const seconds = (performance.now() - started) / 1000;
    await sleep(1000);
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
    return { seconds, rssMb: rss };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', done)));
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  await onServer(`CREATE DATABASE ${database}`);
  const migrate = run('migrate', {});
  const code = await new Promise((done) => migrate.once('exit', done));
  if (code !== 0) throw new Error(`migrate ended with ${code}`);
  const figures = { http: [], worker: [] };
  for (let i = 0; i < runs; i++) {
    for (const command of ['http', 'worker']) {
      const figure = await measure(command);
      figures[command].push(figure);
      console.log(`${command} run ${i + 1}: /healthz after ${figure.seconds.toFixed(2)} s, ${figure.rssMb.toFixed(0)} MB RSS`);
    }
  }
  const summary = Object.fromEntries(
    Object.entries(figures).map(([command, list]) => [
      command,
      { startSeconds: Number(median(list.map((f) => f.seconds)).toFixed(2)), rssMb: Math.round(median(list.map((f) => f.rssMb))) },
    ]),
  );
  console.log(JSON.stringify({ tree, runs, ...summary }));
} finally {
  await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
