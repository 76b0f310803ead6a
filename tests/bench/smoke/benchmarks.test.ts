/**
 * Every `pnpm bench` stays runnable: each benchmark of tests/bench runs end to end at a small size
 * (its own knobs, below) and must end well with its JSON line. The figures of so small a run mean
 * nothing and are not judged; what this catches is a benchmark that no longer runs, as
 * report-export did when the export gained its Summary sheet. A benchmark added to tests/bench
 * without a small size here fails, so it is never left out.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The environment that makes each benchmark small: a few thousand rows, a few seconds, a few samples.
 * A benchmark with modes of its own runs once per mode (a list).
 */
const SMALL: Record<string, Record<string, string> | Record<string, string>[]> = {
  'api-load': {
    BENCH_CONTACTS: '3000',
    BENCH_REPORT_JOBS: '1000',
    BENCH_SEND: '300',
    BENCH_CLIENTS: '3',
    BENCH_THINK_MS: '100',
    BENCH_WARMUP_SECONDS: '1',
  },
  bundle: {},
  'contacts-page': { BENCH_ROWS: '2000', BENCH_SAMPLES: '5' },
  export: { BENCH_ROWS: '2000' },
  import: { BENCH_ROWS: '2000' },
  people: { BENCH_CONTACTS: '5000', BENCH_AUDIENCES: '5', BENCH_JOBS: '2000', BENCH_ERASE_JOBS: '200', BENCH_SEARCHES: '20' },
  subscribe: { BENCH_PEOPLE: '50' },
  'rate-cap': { BENCH_SECONDS: '3' },
  'report-export': { BENCH_ROWS: '2000' },
  'report-page': { BENCH_ROWS: '2000', BENCH_SAMPLES: '5' },
  segments: { BENCH_CONTACTS: '3000', BENCH_CAMPAIGNS: '4', BENCH_HITS: '2000', BENCH_SAMPLES: '3' },
  // The second: an SES that grants 100 mails a second while advertising 500 (issue 28).
  // The third: with a dead webhook endpoint registered and sign-ups during the send (issue 27).
  send: [
    { BENCH_CONTACTS: '500' },
    { BENCH_CONTACTS: '500', BENCH_SES_TRUE_RATE: '100' },
    { BENCH_CONTACTS: '500', BENCH_DEAD_WEBHOOK: '1' },
  ],
  tracking: { BENCH_SECONDS: '2', BENCH_CONNECTIONS: '2' },
  webhooks: { BENCH_EVENTS: '200', BENCH_RATE: '200', BENCH_SECONDS: '1' },
  // The activity part pages through one object's entries, a 6,000th of the log: 60,000 give it about ten.
  workflow: { BENCH_SUPPRESSIONS: '2000', BENCH_ACTIVITY_ROWS: '60000', BENCH_SCHEDULE_RUNS: '1', BENCH_SAMPLES: '5' },
};

const BENCHMARKS = readdirSync(BENCH_DIR)
  .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs')
  .map((file) => file.replace(/\.mjs$/, ''))
  .sort();

/** Runs `pnpm bench <name>` (tests/bench/run.mjs) with `env`; its exit code and what it printed. */
function runBenchmark(name: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, 'run.mjs'), name], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolvePromise({ code, output }));
  });
}

describe('every benchmark runs at a small size', () => {
  it('has a small size for every benchmark of tests/bench', () => {
    expect(BENCHMARKS.filter((name) => !(name in SMALL))).toEqual([]);
  });

  const runs = BENCHMARKS.filter((benchmark) => benchmark in SMALL).flatMap((name) => {
    const envs = [SMALL[name]!].flat();
    return envs.map((env, i) => ({ name, env, title: i === 0 ? `pnpm bench ${name}` : `pnpm bench ${name} with ${JSON.stringify(env)}` }));
  });
  for (const { name, env, title } of runs) {
    it(title, { timeout: 300_000 }, async () => {
      const { code, output } = await runBenchmark(name, env);
      expect(code, output.slice(-4000)).toBe(0);
      const last = output.trim().split('\n').at(-1) ?? '';
      expect(() => JSON.parse(last), `the last line is the benchmark's JSON:\n${output.slice(-2000)}`).not.toThrow();
    });
  }
});
