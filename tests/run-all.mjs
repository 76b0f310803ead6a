#!/usr/bin/env node
// `pnpm test`: every test of the product, in the order that fails fastest, then one summary line.
// Each runner writes a JSON report so the summary counts real tests, not steps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const operationLog = join(reports, 'operations.jsonl');
const env = { ...process.env, MAILROOM_OPERATION_LOG: operationLog, FORCE_COLOR: '0' };

const frontends = ['shell', 'mfe-audiences', 'mfe-templates', 'mfe-campaigns', 'mfe-reports'];

/** @type {{ name: string, cmd: string[], cwd?: string, report?: { file: string, kind: 'vitest' | 'playwright' } }[]} */
const steps = [
  { name: 'build', cmd: ['pnpm', 'build'] },
  { name: 'typecheck', cmd: ['pnpm', 'typecheck'] },
  { name: 'lint', cmd: ['pnpm', 'lint'] },
  {
    name: 'api',
    cwd: 'api',
    cmd: ['pnpm', 'exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'api.json')}`],
    report: { file: 'api.json', kind: 'vitest' },
  },
  ...frontends
    .filter((app) => existsSync(join(root, app, 'vitest.config.ts')))
    .map((app) => ({
      name: app,
      cwd: app,
      cmd: ['pnpm', 'exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, `${app}.json`)}`],
      report: { file: `${app}.json`, kind: /** @type {const} */ ('vitest') },
    })),
  {
    name: 'contract',
    cwd: 'tests',
    cmd: [
      'pnpm',
      'exec',
      'vitest',
      'run',
      '--root',
      'contract',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'contract.json')}`,
    ],
    report: { file: 'contract.json', kind: 'vitest' },
  },
  { name: 'contract coverage', cwd: 'tests', cmd: ['node', 'contract/check.mjs', operationLog] },
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

function count(report) {
  const file = join(reports, report.file);
  if (!existsSync(file)) return false;
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (report.kind === 'vitest') {
    passed += data.numPassedTests ?? 0;
    failed += data.numFailedTests ?? 0;
  } else {
    passed += (data.stats?.expected ?? 0) + (data.stats?.flaky ?? 0);
    failed += data.stats?.unexpected ?? 0;
  }
  return true;
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
  const counted = step.report ? count(step.report) : false;
  if (!ok) {
    failedSteps.push(step.name);
    // A step that failed without a report (a crash, a build error) still counts as one failure.
    if (!counted) failed += 1;
  }
  console.log(`=== ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${seconds}s ===`);
  if (!ok && step.name === 'build') break;
}

if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps.length ? 1 : 0);
