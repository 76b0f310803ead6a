/**
 * The whole stack the e2e suite runs against, shared by the global setup/teardown and the tests:
 * fixed ports (away from the development defaults, so a running `pnpm start` does not collide),
 * the state file the setup writes, and the campaigns remote's own server, which the remote-down
 * test stops and starts again (the local SES, which the campaigns spec stops and starts, is in
 * local-ses.ts).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, remoteManifestUrl } from '@mailroom/mf-contract/remotes';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const stateDir = resolve(dirname(fileURLToPath(import.meta.url)), '../.state');
export const stateFile = join(stateDir, 'stack.json');

/**
 * E2E_PORT_OFFSET moves every port of the suite at once, so two checkouts on one machine can run
 * their suites side by side (each also gets its own database and queue prefix).
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);

export const PORTS = {
  web: 18080 + offset,
  oidc: 14000 + offset,
  ses: 18005 + offset,
  remotesBase: 13100 + offset,
  campaignsRemote: 13203 + offset,
  emailEditor: 13150 + offset,
} as const;

export const baseURL = `http://localhost:${PORTS.web}`;
export const oidcOrigin = `http://localhost:${PORTS.oidc}`;
/**
 * EMAIL_EDITOR_SCRIPT_URL of the suite's stack: an origin of its own, not the product's default, so the
 * tests see a configured editor origin reach the shell's Content-Security-Policy.
 */
export const emailEditorScriptUrl = `http://127.0.0.1:${PORTS.emailEditor}/embed.js`;
export const ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * SES events in the suite: the stack takes SNS messages of this topic signed with the webhook tests'
 * certificate (api/test/fixtures/sns; EMBEDDED_SNS_CERTIFICATE_FILE, a setting of the embedded stack only),
 * and the tests sign with its key (support/reports.ts).
 */
export const SNS_EVENTS = {
  topicArn: 'arn:aws:sns:us-east-1:123456789012:mailroom-e2e-ses-events',
  certificateFile: join(repoRoot, 'api/test/fixtures/sns/signing-cert.pem'),
  signingKeyFile: join(repoRoot, 'api/test/fixtures/sns/signing-key.pem'),
} as const;

export interface StackState {
  databaseName: string;
  databaseUrl: string;
  stackPid: number | null;
  campaignsRemotePid: number | null;
  /** The local SES (support/local-ses.ts), which a test may stop and start again. */
  sesPid: number | null;
  ports: typeof PORTS;
  baseURL: string;
  stackLog: string;
  /** The stack's QUEUE_PREFIX: its queues are this run's only, and the teardown deletes them. */
  queuePrefix: string;
}

export function readState(): StackState {
  return JSON.parse(readFileSync(stateFile, 'utf8')) as StackState;
}

export function writeState(state: StackState): void {
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Ends a process group this suite started (SIGTERM, then SIGKILL after `graceMs`). */
export async function killGroup(pid: number, graceMs = 10_000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      try {
        process.kill(pid, name);
      } catch {
        /* already gone */
      }
    }
  };
  if (!isAlive(pid)) return;
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  // The group may hold children that outlive the leader (tsx -> node); SIGKILL whatever is left.
  signal('SIGKILL');
  const hardDeadline = Date.now() + 5_000;
  while (isAlive(pid) && Date.now() < hardDeadline) await sleep(100);
}

/** True when something answers HTTP on the URL with a status below 500. */
export async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return response.status < 500;
  } catch {
    return false;
  }
}

export async function waitUntilAnswers(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await answers(url)) return;
    await sleep(200);
  }
  throw new Error(`Nothing answered at ${url} within ${timeoutMs / 1000} s`);
}

export async function waitUntilRefused(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
    } catch {
      return;
    }
    await sleep(200);
  }
  throw new Error(`${url} still answers after ${timeoutMs / 1000} s`);
}

export const campaignsRemoteManifestUrl = remoteManifestUrl('campaigns', `http://localhost:${PORTS.campaignsRemote}`);

/**
 * Serves mfe-campaigns/dist on its own port, in its own process group, detached so it outlives the
 * process that started it (the remote-down test restarts it from a test worker); returns its pid.
 */
export async function startCampaignsRemote(): Promise<number> {
  mkdirSync(stateDir, { recursive: true });
  const log = openSync(join(stateDir, 'campaigns-remote.log'), 'a');
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'packages/static-server/serve.mjs'), `${REMOTES.campaigns.dir}/dist`, String(PORTS.campaignsRemote)],
    { cwd: repoRoot, detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  child.unref();
  if (!child.pid) throw new Error('Could not start the campaigns remote server');
  try {
    await waitUntilAnswers(campaignsRemoteManifestUrl, 20_000);
  } catch (error) {
    await killGroup(child.pid);
    const output = existsSync(join(stateDir, 'campaigns-remote.log'))
      ? readFileSync(join(stateDir, 'campaigns-remote.log'), 'utf8').slice(-4_000)
      : '';
    throw new Error(`${(error as Error).message}\n--- campaigns remote output ---\n${output}`);
  }
  return child.pid;
}

export async function stopCampaignsRemote(pid: number): Promise<void> {
  await killGroup(pid, 5_000);
  await waitUntilRefused(campaignsRemoteManifestUrl, 10_000);
}
