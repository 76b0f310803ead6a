#!/usr/bin/env node
// The contract check (docs/architecture.md, Tests): every operation of openapi.yaml that is implemented must have been
// exercised by at least one test with response validation on. The API appends one JSON line per handled request,
// {"operationId":"...","status":200}, to the file named by MAILROOM_OPERATION_LOG during its test run; this script
// reads those logs and fails when an implemented operation never answered 2xx/3xx. Operations not implemented yet
// are listed in pending-operations.txt, one operationId a line ('#' starts a comment).
//
// Usage: node tests/contract/check.mjs [--spec openapi.yaml] [--pending pending-operations.txt] [log files...]
// Without log files, MAILROOM_OPERATION_LOG names them (several separated by the platform's path delimiter).

import { existsSync, readFileSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DEFAULT_SPEC = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const DEFAULT_PENDING = fileURLToPath(new URL('./pending-operations.txt', import.meta.url));

/** All operations of an OpenAPI document, in document order: { operationId, method, path }. */
export function collectOperations(doc) {
  const operations = [];
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (operation) operations.push({ operationId: operation.operationId, method: method.toUpperCase(), path });
    }
  }
  return operations;
}

/** The operationIds named by a pending file's text: one a line, blank lines and '#' comments ignored. */
export function parsePending(text) {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
}

/** The entries of an operation log's text; a line that is not `{"operationId": string, "status": number}` is an error. */
export function parseOperationLog(text, source = 'operation log') {
  const entries = [];
  const errors = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      errors.push(`${source}:${index + 1}: not JSON: ${line.slice(0, 120)}`);
      return;
    }
    if (typeof entry?.operationId !== 'string' || !Number.isInteger(entry?.status)) {
      errors.push(`${source}:${index + 1}: expected {"operationId": string, "status": integer}: ${line.slice(0, 120)}`);
      return;
    }
    entries.push({ operationId: entry.operationId, status: entry.status });
  });
  return { entries, errors };
}

const isCovering = (status) => status >= 200 && status < 400;

/**
 * Compares the operations with the pending list and the logged requests.
 * passed: implemented operations with a 2xx/3xx request; missing: implemented operations without one;
 * unknownPending: pending names that are no operation; coveredPending: pending operations the tests already cover
 * (ready to be taken off the list); unknownLogged: logged operationIds that are not in the document.
 */
export function evaluate({ operationIds, pending, entries }) {
  const known = new Set(operationIds);
  const pendingSet = new Set(pending);
  const covered = new Set(entries.filter((e) => isCovering(e.status)).map((e) => e.operationId));
  const implemented = operationIds.filter((id) => !pendingSet.has(id));
  return {
    passed: implemented.filter((id) => covered.has(id)),
    missing: implemented.filter((id) => !covered.has(id)),
    pending: operationIds.filter((id) => pendingSet.has(id)),
    unknownPending: [...pendingSet].filter((id) => !known.has(id)),
    duplicatePending: [...new Set(pending.filter((id, index) => pending.indexOf(id) !== index))],
    coveredPending: operationIds.filter((id) => pendingSet.has(id) && covered.has(id)),
    unknownLogged: [...new Set(entries.map((e) => e.operationId))].filter((id) => !known.has(id)),
  };
}

/**
 * Runs the whole check on texts; returns { ok, lines, result } so that it can be tested without a process.
 * logs: [{ source, text }]; missingLogs: log files that were named but do not exist.
 */
export function runCheck({ specText, pendingText, logs, missingLogs = [] }) {
  const lines = [];
  const problems = [];
  const operations = collectOperations(parse(specText));

  for (const op of operations) {
    if (typeof op.operationId !== 'string' || op.operationId === '') problems.push(`${op.method} ${op.path} has no operationId`);
  }
  const operationIds = operations.map((op) => op.operationId).filter((id) => typeof id === 'string' && id !== '');
  for (const id of new Set(operationIds.filter((id, index) => operationIds.indexOf(id) !== index))) {
    problems.push(`operationId ${id} is used more than once`);
  }

  for (const file of missingLogs) problems.push(`operation log ${file} does not exist`);
  if (logs.length === 0 && missingLogs.length === 0) {
    problems.push('no operation log given (pass files or set MAILROOM_OPERATION_LOG)');
  }
  const entries = [];
  for (const log of logs) {
    const parsed = parseOperationLog(log.text, log.source);
    entries.push(...parsed.entries);
    problems.push(...parsed.errors);
  }

  const result = evaluate({ operationIds: [...new Set(operationIds)], pending: parsePending(pendingText), entries });
  for (const id of result.unknownPending) problems.push(`pending-operations.txt names ${id}, which is not in openapi.yaml`);
  for (const id of result.missing) problems.push(`${id} is implemented but no test request to it answered 2xx/3xx`);

  lines.push(`contract: ${result.pending.length} pending: ${result.pending.join(', ') || '(none)'}`);
  for (const id of result.duplicatePending) lines.push(`contract: note: ${id} is listed twice in pending-operations.txt`);
  for (const id of result.coveredPending) {
    lines.push(`contract: note: ${id} is pending but already covered; take it off pending-operations.txt`);
  }
  for (const id of result.unknownLogged) lines.push(`contract: note: the log names ${id}, which is not in openapi.yaml`);
  for (const problem of problems) lines.push(`contract: FAIL ${problem}`);
  lines.push(`contract: ${result.passed.length} passed, ${problems.length} failed`);
  return { ok: problems.length === 0, lines, result };
}

function parseArgs(argv) {
  const args = { spec: DEFAULT_SPEC, pending: DEFAULT_PENDING, logs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--spec' || arg === '--pending') {
      const value = argv[++i];
      if (!value) throw new Error(`${arg} needs a file`);
      args[arg.slice(2)] = value;
    } else {
      args.logs.push(arg);
    }
  }
  if (args.logs.length === 0 && process.env.MAILROOM_OPERATION_LOG) {
    args.logs = process.env.MAILROOM_OPERATION_LOG.split(delimiter).filter((file) => file !== '');
  }
  return args;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const { ok, lines } = runCheck({
    specText: readFileSync(args.spec, 'utf8'),
    pendingText: readFileSync(args.pending, 'utf8'),
    logs: args.logs.filter((file) => existsSync(file)).map((file) => ({ source: file, text: readFileSync(file, 'utf8') })),
    missingLogs: args.logs.filter((file) => !existsSync(file)),
  });
  console.log(lines.join('\n'));
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
