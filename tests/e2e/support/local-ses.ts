/**
 * The suite's local SES: the server the one-command stack embeds by default (api/dev/embedded/ses.ts,
 * aws-ses-v2-local reporting real quota figures), run as a process of its own on the e2e SES port and
 * given to the stack as SES_ENDPOINT, the setting any deployment uses to name its SES. Apart from the
 * stack, a test can take it down and bring it back, as remote-down.spec.ts does with the campaigns
 * remote: with SES unreachable, a campaign's mails are retried and the campaign then stops in ERROR,
 * which is how the campaigns spec reaches that state without any hook in the product.
 *
 * What it received is read from its inbox (`GET /store`, aws-ses-v2-local's own endpoint).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PORTS, killGroup, repoRoot, stateDir, waitUntilAnswers, waitUntilRefused } from './stack';

/** SES_ENDPOINT of the suite's stack. */
export const sesEndpoint = `http://127.0.0.1:${PORTS.ses}`;
/** What marks the server's process (global-setup checks a stale pid against it). */
export const LOCAL_SES_MARKER = 'local-ses-server';

const healthUrl = `${sesEndpoint}/health-check`;
const logFile = () => join(stateDir, 'local-ses.log');

function tsxPath(): string {
  const tsx = [join(repoRoot, 'node_modules/.bin/tsx'), join(repoRoot, 'api/node_modules/.bin/tsx')].find(existsSync);
  if (!tsx) throw new Error('[e2e] tsx not found in node_modules/.bin (run pnpm install)');
  return tsx;
}

/**
 * Starts the local SES in its own process group, detached so that it outlives the process that
 * started it (a test may restart it from a test worker); returns its pid once it answers.
 */
export async function startLocalSes(): Promise<number> {
  mkdirSync(stateDir, { recursive: true });
  const log = openSync(logFile(), 'a');
  const child = spawn(tsxPath(), [join(repoRoot, `tests/e2e/support/${LOCAL_SES_MARKER}.mjs`), String(PORTS.ses)], {
    cwd: join(repoRoot, 'api'),
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  child.unref();
  if (!child.pid) throw new Error('Could not start the local SES');
  try {
    await waitUntilAnswers(healthUrl, 30_000);
  } catch (error) {
    await killGroup(child.pid, 5_000);
    const output = existsSync(logFile()) ? readFileSync(logFile(), 'utf8').slice(-4_000) : '';
    throw new Error(`${(error as Error).message}\n--- local SES output ---\n${output}`);
  }
  return child.pid;
}

/** Ends the local SES (its inbox goes with it) and waits until its port refuses connections. */
export async function stopLocalSes(pid: number): Promise<void> {
  await killGroup(pid, 5_000);
  await waitUntilRefused(healthUrl, 10_000);
}

/** A mail as the local SES stored it. */
export interface SesMail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  headers?: { name: string; value: string }[];
  /** Seconds since the epoch. */
  at: number;
}

/** Every mail the local SES took since it started (or since its inbox was last cleared). */
export async function sesInbox(): Promise<SesMail[]> {
  const response = await fetch(`${sesEndpoint}/store`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`GET ${sesEndpoint}/store answered ${response.status}`);
  return ((await response.json()) as { emails: SesMail[] }).emails;
}

/** The mails addressed to any of `addresses`, in the order they arrived. */
export async function mailsTo(addresses: readonly string[]): Promise<SesMail[]> {
  const wanted = new Set(addresses.map((address) => address.toLowerCase()));
  return (await sesInbox()).filter((mail) => mail.destination.to.some((to) => wanted.has(to.toLowerCase())));
}

/** Empties the inbox, which also gives the account's 24-hour count back (aws-ses-v2-local's own call). */
export async function clearSesInbox(): Promise<void> {
  const response = await fetch(`${sesEndpoint}/clear-store`, { method: 'POST', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`POST ${sesEndpoint}/clear-store answered ${response.status}`);
}
