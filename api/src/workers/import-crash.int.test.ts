/**
 * A worker crash in the middle of an import (as an earlier issue asked: "resumed or cleanly failed on restart, never
 * left isImporting forever"), end to end: the upload goes through the real HTTP route into a
 * RabbitMQ queue private to this file (QUEUE_PREFIX), the REAL worker entry point
 * (`node --import tsx src/workers/main.ts`) runs as a child process and is SIGKILLed while
 * PostgreSQL is in the middle of the import's COPY (seen in pg_stat_progress_copy; the importer
 * streams its segments of 5,000 contacts into one COPY left open, ended only when a duplicate lookup
 * must read what was stored), then a new worker process is started:
 *  - the upload is still in the spool: the import runs again and completes with exact counts and no
 *    row left over from the killed attempt;
 *  - the upload is gone: the import is failed with the importer's message, no contacts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from 'rabbitmq-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_AMQP_URL, type TestApp } from '../../test/support/app.js';
import { deleteProductQueues } from '../../test/support/queues.js';
import { startApiProcess, type ApiProcess } from '../../test/support/processes.js';
import { bearer } from '../../test/support/tokens.js';
import { createLogger } from '../logger.js';
import { RabbitMqMessageQueue } from '../queue/rabbitmq.js';
import { FILE_GONE_ERROR } from '../services/imports/importer.js';

const ROWS = 300_000;
/**
 * The worker is killed once the import's transaction holds more than two segments (of at most 5,000
 * contacts) and a part of a third: rows PostgreSQL has taken, over every COPY of the import so far (one
 * left open, or several when duplicate lookups ended some), with a COPY in progress.
 */
const SEGMENT_ROWS = 5_000;
const KILL_AFTER_ROWS = 2 * SEGMENT_ROWS + 1_000;
const TEST_TIMEOUT_MS = 60_000;

const prefix = `t-crash-${randomBytes(5).toString('hex')}.`;
const importQueue = prefix + 'contact-import';

let t: TestApp | undefined;
let broker: Connection | undefined;
let auth: string;
let workDir: string;
let importDir: string;
let csvPath: string;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---- worker processes ----

type WorkerProcess = ApiProcess;

const workers: WorkerProcess[] = [];

/** A worker as production starts it (node itself, no wrapper: the pid killed is the process running the import). */
function startWorker(name: string): WorkerProcess {
  const worker = startApiProcess('worker', name, {
    DATABASE_URL: t!.db.url,
    AMQP_URL: TEST_AMQP_URL,
    QUEUE_PREFIX: prefix,
    IMPORT_DIR: importDir,
  });
  workers.push(worker);
  return worker;
}

const running = (worker: WorkerProcess) => worker.running();

const logsOf = (worker: WorkerProcess): string => worker.logs();

/** Polls `probe` until it returns a value; fails with `what` and the worker's output. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, worker?: WorkerProcess, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (worker && !running(worker)) throw new Error(`${worker.name} exited while waiting for ${what}${logsOf(worker)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${worker ? logsOf(worker) : ''}`);
    await sleep(20);
  }
}

const killHard = (worker: WorkerProcess): Promise<void> => worker.kill();

// ---- database and broker probes ----

interface AudienceRow {
  is_importing: boolean;
  import_error_message: string | null;
  source: string | null;
  number_of_contacts: number;
  number_of_contacts_with_errors: number;
  headers: string[];
}

async function audienceRow(id: number): Promise<AudienceRow> {
  const { rows } = await t!.db.pool.query<AudienceRow>(
    `SELECT is_importing, import_error_message, source, number_of_contacts, number_of_contacts_with_errors, headers
       FROM audiences WHERE id = $1`,
    [id],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

async function contactCounts(id: number): Promise<{ total: number; emails: number; errors: number }> {
  const { rows } = await t!.db.pool.query<{ total: number; emails: number; errors: number }>(
    `SELECT count(*)::int AS total, count(DISTINCT email)::int AS emails, count(error_message)::int AS errors
       FROM contacts WHERE audience_id = $1`,
    [id],
  );
  return rows[0]!;
}

/** The COPY into contacts running on this file's database, if any: its backend and rows so far. */
async function copyInProgress(): Promise<{ pid: number; tuples: number } | undefined> {
  const { rows } = await t!.db.pool.query<{ pid: number; tuples: string }>(
    `SELECT pid, tuples_processed AS tuples FROM pg_stat_progress_copy
      WHERE datname = current_database() AND relid = 'contacts'::regclass AND command = 'COPY FROM'`,
  );
  return rows[0] ? { pid: rows[0].pid, tuples: Number(rows[0].tuples) } : undefined;
}

async function backendAlive(pid: number): Promise<boolean> {
  const { rows } = await t!.db.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
  return rows.length > 0;
}

/** Ready messages and consumers of a queue, from a passive declare. */
async function queueState(queue: string): Promise<{ messages: number; consumers: number }> {
  const ok = await broker!.queueDeclare({ queue, passive: true });
  return { messages: ok.messageCount, consumers: ok.consumerCount };
}

// ---- the API side ----

const api = () => request(t!.app);

async function createAudience(name: string): Promise<number> {
  const res = await api().post('/api/audiences').set('Authorization', auth).send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function uploadCsv(id: number): Promise<void> {
  const res = await api().post(`/api/audiences/${id}/import/file?type=csv`).set('Authorization', auth).attach('file', csvPath);
  expect(res.status).toBe(202);
  const audience = await api().get(`/api/audiences/${id}`).set('Authorization', auth);
  expect(audience.body).toMatchObject({ isImporting: true, importErrorMessage: null, numberOfContacts: 0 });
  // Published with the broker's confirm: the message sits in RabbitMQ with nobody consuming yet.
  expect(await queueState(importQueue)).toEqual({ messages: 1, consumers: 0 });
}

async function spoolFiles(id: number): Promise<string[]> {
  return (await readdir(importDir)).filter((name) => name.startsWith(`${id}-`));
}

/**
 * Starts a worker, waits until PostgreSQL has taken KILL_AFTER_ROWS rows of its import (over every COPY
 * of it, one still in progress), SIGKILLs the worker and waits until the COPY's backend is gone (its
 * transaction rolled back).
 */
async function crashMidImport(id: number, name: string): Promise<number> {
  const worker = startWorker(name);
  let storedBefore = 0;
  let lastTuples = 0;
  const copy = await waitFor(
    `${name}'s import to take ${KILL_AFTER_ROWS} rows, a COPY in progress`,
    async () => {
      const progress = await copyInProgress();
      if (!progress) return undefined;
      // Fewer rows than at the last look: a new COPY, the one before ended with at least the rows last seen.
      if (progress.tuples < lastTuples) storedBefore += lastTuples;
      lastTuples = progress.tuples;
      return storedBefore + progress.tuples >= KILL_AFTER_ROWS ? { ...progress, tuples: storedBefore + progress.tuples } : undefined;
    },
    worker,
  );
  worker.child.kill('SIGKILL');
  const { signal } = await worker.exited;
  expect(signal).toBe('SIGKILL');
  // Killed in the middle: the import had not finished.
  expect(copy.tuples).toBeLessThan(ROWS);
  await waitFor(`the killed worker's backend ${copy.pid} to end`, async () => ((await backendAlive(copy.pid)) ? undefined : true));
  return copy.tuples;
}

async function expectCrashLeftNothing(id: number): Promise<void> {
  // The transaction rolled back: no contact, the audience untouched and still importing.
  expect(await contactCounts(id)).toEqual({ total: 0, emails: 0, errors: 0 });
  expect(await audienceRow(id)).toMatchObject({ is_importing: true, source: null, number_of_contacts: 0, import_error_message: null });
  const audience = await api().get(`/api/audiences/${id}`).set('Authorization', auth);
  expect(audience.body).toMatchObject({ isImporting: true, numberOfContacts: 0, importErrorMessage: null, source: null });
  // The unacked message went back to the broker for the next worker.
  await waitFor(
    'the unacked message to be back in its queue',
    async () => {
      const state = await queueState(importQueue);
      return state.messages === 1 && state.consumers === 0 ? state : undefined;
    },
    undefined,
    10_000,
  );
}

async function stopGracefully(worker: WorkerProcess): Promise<void> {
  worker.child.kill('SIGTERM');
  const exit = await Promise.race([worker.exited, sleep(20_000).then(() => undefined)]);
  if (!exit) throw new Error(`${worker.name} did not stop on SIGTERM${logsOf(worker)}`);
  expect(exit, logsOf(worker)).toEqual({ code: 0, signal: null });
}

async function expectQueuesEmpty(): Promise<void> {
  // The message was acked (not back in the queue after the worker left) and not dead-lettered.
  expect(await queueState(importQueue)).toEqual({ messages: 0, consumers: 0 });
  expect((await queueState(`${importQueue}.dead`)).messages).toBe(0);
}

async function waitImportOver(id: number, worker: WorkerProcess): Promise<AudienceRow> {
  return waitFor(
    `audience ${id} to stop importing`,
    async () => {
      const row = await audienceRow(id);
      return row.is_importing ? undefined : row;
    },
    worker,
  );
}

// ---- setup ----

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'mailroom-import-crash-'));
  importDir = join(workDir, 'spool');
  csvPath = join(workDir, 'contacts.csv');
  const lines = ['Email,First Name,City'];
  for (let i = 0; i < ROWS; i++) lines.push(`person${i}@example.org,Person ${i},City ${i % 97}`);
  await writeFile(csvPath, `${lines.join('\n')}\n`);

  const queue = new RabbitMqMessageQueue(TEST_AMQP_URL, createLogger({ logLevel: 'silent' }), { prefix, deleteQueuesOnClose: true });
  t = await createTestApp({
    env: { AMQP_URL: TEST_AMQP_URL, QUEUE_PREFIX: prefix, IMPORT_DIR: importDir },
    deps: { messageQueueAdapter: queue },
  });
  broker = new Connection({ url: TEST_AMQP_URL, connectionName: 'mailroom-import-crash-test' });
  auth = await bearer();
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(workers.map((worker) => killHard(worker)));
  await t?.close();
  if (broker) {
    await broker.close();
    // The queues the workers declared too (the app's own queue deletes those it declared).
    await deleteProductQueues(TEST_AMQP_URL, prefix);
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 60_000);

// ---- the cases ----

describe('a worker killed in the middle of an import', () => {
  it(
    'is resumed by the next worker: exact counts, no rows left from the killed attempt',
    async () => {
      const id = await createAudience('Crash then resume');
      await uploadCsv(id);
      const uploads = await spoolFiles(id);
      expect(uploads).toHaveLength(1);

      const rowsAtKill = await crashMidImport(id, 'worker 1 (killed)');
      expect(rowsAtKill).toBeGreaterThanOrEqual(KILL_AFTER_ROWS);
      await expectCrashLeftNothing(id);
      // The upload stays for the redelivered message.
      expect(await spoolFiles(id)).toEqual(uploads);

      const worker = startWorker('worker 2 (resumes)');
      const done = await waitImportOver(id, worker);
      expect(done, logsOf(worker)).toMatchObject({
        is_importing: false,
        import_error_message: null,
        source: 'CSV',
        number_of_contacts: ROWS,
        number_of_contacts_with_errors: 0,
        headers: ['First Name', 'City'],
      });
      expect(await contactCounts(id)).toEqual({ total: ROWS, emails: ROWS, errors: 0 });
      const audience = await api().get(`/api/audiences/${id}`).set('Authorization', auth);
      expect(audience.body).toMatchObject({
        isImporting: false,
        importErrorMessage: null,
        source: 'CSV',
        numberOfContacts: ROWS,
        numberOfContactsWithErrors: 0,
      });
      expect(existsSync(join(importDir, uploads[0]!))).toBe(false);

      await stopGracefully(worker);
      await expectQueuesEmpty();
      expect(await contactCounts(id)).toEqual({ total: ROWS, emails: ROWS, errors: 0 });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'is failed cleanly by the next worker when the upload is gone',
    async () => {
      const id = await createAudience('Crash, file lost');
      await uploadCsv(id);
      const uploads = await spoolFiles(id);
      expect(uploads).toHaveLength(1);

      await crashMidImport(id, 'worker 3 (killed)');
      await expectCrashLeftNothing(id);
      await unlink(join(importDir, uploads[0]!));

      const worker = startWorker('worker 4 (file gone)');
      const done = await waitImportOver(id, worker);
      expect(done, logsOf(worker)).toMatchObject({
        is_importing: false,
        import_error_message: FILE_GONE_ERROR,
        source: null,
        number_of_contacts: 0,
        number_of_contacts_with_errors: 0,
      });
      expect(FILE_GONE_ERROR).toBe('The uploaded file is no longer available; please import it again.');
      expect(await contactCounts(id)).toEqual({ total: 0, emails: 0, errors: 0 });
      const audience = await api().get(`/api/audiences/${id}`).set('Authorization', auth);
      expect(audience.body).toMatchObject({ isImporting: false, importErrorMessage: FILE_GONE_ERROR, numberOfContacts: 0, source: null });

      await stopGracefully(worker);
      await expectQueuesEmpty();
    },
    TEST_TIMEOUT_MS,
  );
});
