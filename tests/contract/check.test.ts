import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, parseOperationLog, parsePending, runCheck } from './check.mjs';

// check.mjs on small fixtures: a three-operation contract (listThings, createThing, deleteThing) with deleteThing pending.

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const read = (name: string) => readFileSync(fixture(name), 'utf8');
const checkScript = fileURLToPath(new URL('./check.mjs', import.meta.url));

function runCli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [checkScript, '--spec', fixture('mini-openapi.yaml'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, MAILROOM_OPERATION_LOG: '', ...env },
  });
  const lines = result.stdout.trim().split('\n');
  return { code: result.status, stdout: result.stdout, last: lines[lines.length - 1] };
}

describe('parsing', () => {
  it('reads pending names, skipping blank lines and comments', () => {
    expect(parsePending('# header\n\nlistThings\n  createThing  # soon\n')).toEqual(['listThings', 'createThing']);
  });

  it('reads log lines and reports the malformed ones with their line number', () => {
    const { entries, errors } = parseOperationLog('{"operationId":"a","status":200}\n\nnot json\n{"operationId":"b"}\n', 'run.log');
    expect(entries).toEqual([{ operationId: 'a', status: 200 }]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^run\.log:3: not JSON/);
    expect(errors[1]).toMatch(/^run\.log:4: expected/);
  });
});

describe('evaluate', () => {
  const operationIds = ['listThings', 'createThing', 'deleteThing'];

  it('counts an implemented operation as covered only with a 2xx or 3xx request', () => {
    const result = evaluate({
      operationIds,
      pending: ['deleteThing'],
      entries: [
        { operationId: 'listThings', status: 302 },
        { operationId: 'createThing', status: 400 },
        { operationId: 'createThing', status: 500 },
      ],
    });
    expect(result.passed).toEqual(['listThings']);
    expect(result.missing).toEqual(['createThing']);
    expect(result.pending).toEqual(['deleteThing']);
  });

  it('flags pending names that are no operation, and pending operations that are already covered', () => {
    const result = evaluate({
      operationIds,
      pending: ['deleteThing', 'frobnicateThing', 'deleteThing'],
      entries: [
        { operationId: 'deleteThing', status: 204 },
        { operationId: 'ghost', status: 200 },
      ],
    });
    expect(result.unknownPending).toEqual(['frobnicateThing']);
    expect(result.duplicatePending).toEqual(['deleteThing']);
    expect(result.coveredPending).toEqual(['deleteThing']);
    expect(result.unknownLogged).toEqual(['ghost']);
  });
});

describe('runCheck', () => {
  const specText = read('mini-openapi.yaml');

  it('passes when every implemented operation is covered, and lists the pending ones', () => {
    const { ok, lines } = runCheck({
      specText,
      pendingText: read('pending.txt'),
      logs: [{ source: 'covered.log', text: read('covered.log') }],
    });
    expect(ok).toBe(true);
    expect(lines[0]).toBe('contract: 1 pending: deleteThing');
    expect(lines.at(-1)).toBe('contract: 2 passed, 0 failed');
  });

  it('fails naming the implemented operation that has no successful request', () => {
    const { ok, lines } = runCheck({
      specText,
      pendingText: read('pending.txt'),
      logs: [{ source: 'missing.log', text: read('missing.log') }],
    });
    expect(ok).toBe(false);
    expect(lines).toContain('contract: FAIL createThing is implemented but no test request to it answered 2xx/3xx');
    expect(lines.at(-1)).toBe('contract: 1 passed, 1 failed');
  });

  it('fails when the pending list names an operation that does not exist', () => {
    const { ok, lines } = runCheck({
      specText,
      pendingText: read('pending-unknown.txt'),
      logs: [{ source: 'covered.log', text: read('covered.log') }],
    });
    expect(ok).toBe(false);
    expect(lines).toContain('contract: FAIL pending-operations.txt names frobnicateThing, which is not in openapi.yaml');
    expect(lines.at(-1)).toBe('contract: 2 passed, 1 failed');
  });

  it('fails without any log, and on a named log that does not exist', () => {
    expect(runCheck({ specText, pendingText: '', logs: [] }).ok).toBe(false);
    const { ok, lines } = runCheck({ specText, pendingText: read('pending.txt'), logs: [], missingLogs: ['gone.log'] });
    expect(ok).toBe(false);
    expect(lines).toContain('contract: FAIL operation log gone.log does not exist');
  });

  it('fails on an operation without an operationId', () => {
    const noId =
      'openapi: 3.0.3\ninfo: { title: x, version: "1" }\npaths:\n  /x:\n    get:\n      responses: { "200": { description: ok } }\n';
    const { ok, lines } = runCheck({ specText: noId, pendingText: '', logs: [{ source: 'l', text: '' }] });
    expect(ok).toBe(false);
    expect(lines).toContain('contract: FAIL GET /x has no operationId');
  });
});

describe('the command line', () => {
  it('exits 0 with log files given as arguments', () => {
    const { code, last, stdout } = runCli(['--pending', fixture('pending.txt'), fixture('covered.log')]);
    expect(stdout).toContain('contract: 1 pending: deleteThing');
    expect(last).toBe('contract: 2 passed, 0 failed');
    expect(code).toBe(0);
  });

  it('reads MAILROOM_OPERATION_LOG when no file is given, and exits 1 on a missing operation', () => {
    const { code, last } = runCli(['--pending', fixture('pending.txt')], { MAILROOM_OPERATION_LOG: fixture('missing.log') });
    expect(last).toBe('contract: 1 passed, 1 failed');
    expect(code).toBe(1);
  });

  it('exits 1 on an unknown pending name', () => {
    const { code, stdout } = runCli(['--pending', fixture('pending-unknown.txt'), fixture('covered.log')]);
    expect(stdout).toContain('frobnicateThing');
    expect(code).toBe(1);
  });

  it('runs on the real contract and pending list without naming unknown operations', () => {
    const result = spawnSync(process.execPath, [checkScript], { encoding: 'utf8', env: { ...process.env, MAILROOM_OPERATION_LOG: '' } });
    expect(result.stdout).toMatch(/^contract: \d+ pending: /);
    expect(result.stdout).not.toMatch(/pending-operations\.txt names/);
    expect(result.stdout).toContain('FAIL no operation log given');
    expect(result.status).toBe(1);
  });
});
