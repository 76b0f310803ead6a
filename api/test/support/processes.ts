/**
 * The API's real entry points as child processes (`node --import tsx src/workers/main.ts`...), for
 * tests and benchmarks that need several workers side by side or one killed with SIGKILL. node
 * itself is the child, no wrapper: the pid killed is the process doing the work.
 *
 *   const worker = startApiProcess('worker', 'worker-a', { DATABASE_URL, AMQP_URL, QUEUE_PREFIX });
 *   await waitFor('the campaign to be sent', probe, { processes: [worker] });
 *   await worker.kill();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const API_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ApiProcess {
  name: string;
  child: ChildProcess;
  /** The last of its stdout and stderr (pino JSON lines), for failure messages. */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
  logs(): string;
  /** SIGKILL, as a crash would; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful); resolves with how it exited. */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const ENTRY_POINTS = { worker: 'src/workers/main.ts', http: 'src/http/main.ts' };
/** tsx's loader by its address, so that a process started in another folder finds it. */
const TSX_LOADER = pathToFileURL(createRequire(join(API_DIR, 'package.json')).resolve('tsx')).href;

/** `cwd`: the process's working folder (default the api folder), as on a host of its own. */
export function startApiProcess(
  entry: keyof typeof ENTRY_POINTS,
  name: string,
  env: Record<string, string>,
  { cwd = API_DIR }: { cwd?: string } = {},
): ApiProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env };
  // Coverage of the contract is for the in-process tests.
  delete childEnv.MAILROOM_OPERATION_LOG;
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(API_DIR, ENTRY_POINTS[entry])], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    output,
    exited,
    running,
    logs: () => `\n--- ${name} (pid ${child.pid}) output ---\n${output.join('').slice(-6000)}`,
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 20_000) {
      if (running()) child.kill('SIGTERM');
      const exit = await Promise.race([exited, new Promise<undefined>((done) => setTimeout(() => done(undefined), timeoutMs).unref())]);
      if (!exit) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not stop on SIGTERM within ${timeoutMs} ms`);
      }
      return exit;
    },
  };
}

/** Polls `probe` until it returns a value; fails naming `what`, with the output of any process that died meanwhile. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 60_000, processes = [], everyMs = 50 }: { timeoutMs?: number; processes?: ApiProcess[]; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const dead = processes.find((p) => !p.running());
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}${dead.logs()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${processes.map((p) => p.logs()).join('')}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
