/**
 * Brings the whole product up once for the suite: a fresh database on the machine's PostgreSQL,
 * the campaigns remote and the local SES on servers of their own (so a test can take either down),
 * and the one-command stack (api/dev/stack/main.ts) with the embedded OIDC provider on the e2e
 * ports, sending through that local SES (SES_ENDPOINT). Everything it starts is written to
 * .state/stack.json, which global-teardown reads.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { REMOTES, REMOTE_NAMES, remotePort, remoteUrlVariable } from '@mailroom/mf-contract/remotes';
import {
  ADMIN_DATABASE_URL,
  PORTS,
  SNS_EVENTS,
  baseURL,
  campaignsRemoteManifestUrl,
  emailEditorScriptUrl,
  isAlive,
  repoRoot,
  startCampaignsRemote,
  stateDir,
  stateFile,
  writeState,
  type StackState,
} from './support/stack';
import { LOCAL_SES_MARKER, sesEndpoint, startLocalSes } from './support/local-ses';
import globalTeardown from './global-teardown';

const READY_LINE = 'Mailroom is running at';
const READY_TIMEOUT_MS = 120_000;
const FRONTENDS = ['shell', ...REMOTE_NAMES.map((name) => REMOTES[name].dir)];
/** The remotes the stack serves; the campaigns remote has a server of its own (startCampaignsRemote). */
const STACK_REMOTES = REMOTE_NAMES.filter((name) => name !== 'campaigns');

function buildFrontendsIfMissing(): void {
  const missing = FRONTENDS.filter((app) => !existsSync(join(repoRoot, app, 'dist')));
  if (missing.length === 0) return;
  console.log(`[e2e] building the frontends (no dist in ${missing.join(', ')})`);
  const result = spawnSync('pnpm', ['-r', '--filter', './shell', '--filter', './mfe-*', 'build'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building the frontends failed (exit ${result.status})`);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen({ port, host: '0.0.0.0' }, () => probe.close(() => done(true)));
  });
}

async function assertPortsFree(): Promise<void> {
  const wanted = [
    PORTS.web,
    PORTS.oidc,
    PORTS.ses,
    ...STACK_REMOTES.map((name) => remotePort(name, PORTS.remotesBase)),
    PORTS.campaignsRemote,
  ];
  const busy: number[] = [];
  for (const port of wanted) if (!(await portIsFree(port))) busy.push(port);
  if (busy.length) throw new Error(`[e2e] ports already in use: ${busy.join(', ')} (a previous run still up?)`);
}

/** A run that died before its teardown leaves its state file: end what it started, drop its database. */
async function cleanUpStaleRun(): Promise<void> {
  if (!existsSync(stateFile)) return;
  const ours = (pid: number | null, marker: string) => {
    if (!pid || !isAlive(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  };
  try {
    const stale = JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
    if (!ours(stale.stackPid, 'stack')) stale.stackPid = null;
    if (!ours(stale.campaignsRemotePid, 'serve.mjs')) stale.campaignsRemotePid = null;
    if (!ours(stale.sesPid ?? null, LOCAL_SES_MARKER)) stale.sesPid = null;
    writeState(stale);
    console.log('[e2e] cleaning up after a previous run that did not tear down');
    await globalTeardown();
  } catch (error) {
    console.warn('[e2e] could not clean up the previous run:', error);
    rmSync(stateFile, { force: true });
  }
}

async function createDatabase(): Promise<{ name: string; url: string }> {
  const name = `mailroom_e2e_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return { name, url: `postgres://postgres@127.0.0.1:5432/${name}` };
}

function stackEnv(state: StackState): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Whatever the calling shell configured, the suite wants the embedded provider and its own local SES.
  for (const name of [
    'OIDC_ISSUER',
    'OIDC_JWKS_URI',
    'SES_ENDPOINT',
    'AWS_ACCESS_KEY_ID',
    'PUBLIC_URL',
    'STACK_HOST',
    'STOCK_PHOTO_URL',
    'STOCK_PHOTO_KEY',
    ...STACK_REMOTES.map(remoteUrlVariable),
  ]) {
    delete env[name];
  }
  return {
    ...env,
    DATABASE_URL: state.databaseUrl,
    AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
    // Queues of this run only: another run on the same broker never takes its messages.
    QUEUE_PREFIX: state.queuePrefix,
    PORT: String(PORTS.web),
    EMBEDDED_OIDC_PORT: String(PORTS.oidc),
    // The same local SES the stack would embed, run apart so that a test can take it down.
    SES_ENDPOINT: sesEndpoint,
    REMOTES_PORT_BASE: String(PORTS.remotesBase),
    ORG_EMAIL_DOMAIN: 'example.org',
    [remoteUrlVariable('campaigns')]: campaignsRemoteManifestUrl,
    EMAIL_EDITOR_SCRIPT_URL: emailEditorScriptUrl,
    // SES events signed with the test certificate (support/reports.ts signs them). With a configuration
    // set too, the stack takes delivery events as a production one should (no notice on the report).
    SES_CONFIGURATION_SET: 'mailroom-e2e',
    SNS_TOPIC_ARNS: SNS_EVENTS.topicArn,
    EMBEDDED_SNS_CERTIFICATE_FILE: SNS_EVENTS.certificateFile,
    // Send approval (issue 27) for audiences of more than 40 contacts: send-approval.spec.ts sends to one, every other
    // spec's audiences are smaller and send as the spec says.
    SEND_APPROVAL_ABOVE: '40',
    NODE_ENV: 'development',
    FORCE_COLOR: '0',
  };
}

/** Starts the stack in its own process group; resolves once it says it is ready, rejects with its output otherwise. */
async function startStack(state: StackState): Promise<void> {
  const tsx = [join(repoRoot, 'node_modules/.bin/tsx'), join(repoRoot, 'api/node_modules/.bin/tsx')].find(existsSync);
  if (!tsx) throw new Error('[e2e] tsx not found in node_modules/.bin (run pnpm install)');
  const log = createWriteStream(state.stackLog);
  const child = spawn(tsx, ['dev/stack/main.ts'], {
    cwd: join(repoRoot, 'api'),
    env: stackEnv(state),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  state.stackPid = child.pid ?? null;
  writeState(state);

  let output = '';
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () =>
        fail(new Error(`[e2e] the stack was not ready within ${READY_TIMEOUT_MS / 1000} s\n--- stack output ---\n${output.slice(-8_000)}`)),
      READY_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      log.write(text);
      if (output.includes(READY_LINE)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(
        new Error(
          `[e2e] the stack exited (${signal ?? `code ${code}`}) before it was ready\n--- stack output ---\n${output.slice(-8_000)}`,
        ),
      );
    });
  });
  // Keep logging after ready, without holding the runner open.
  child.removeAllListeners('exit');
  (child.stdout as unknown as Socket).unref();
  (child.stderr as unknown as Socket).unref();
  child.unref();
}

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  mkdirSync(stateDir, { recursive: true });
  await cleanUpStaleRun();
  buildFrontendsIfMissing();
  await assertPortsFree();

  const database = await createDatabase();
  const state: StackState = {
    databaseName: database.name,
    databaseUrl: database.url,
    stackPid: null,
    campaignsRemotePid: null,
    sesPid: null,
    ports: PORTS,
    baseURL,
    stackLog: join(stateDir, 'stack.log'),
    queuePrefix: `e2e-${Date.now().toString(36)}.`,
  };
  writeState(state);

  // Should the runner die without its teardown, the next run's setup cleans up from the state file.
  try {
    state.campaignsRemotePid = await startCampaignsRemote();
    writeState(state);
    state.sesPid = await startLocalSes();
    writeState(state);
    await startStack(state);
  } catch (error) {
    await globalTeardown();
    throw error;
  }
  console.log(`[e2e] stack up at ${baseURL} in ${((Date.now() - started) / 1000).toFixed(1)} s (database ${database.name})`);
}
