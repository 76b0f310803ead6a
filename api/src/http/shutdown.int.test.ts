import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from '../../test/support/db.js';
import { deleteProductQueues } from '../../test/support/queues.js';
import { createLogger } from '../logger.js';
import { startHttpServer } from './server.js';

const API_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const logger = createLogger({ logLevel: 'silent' });

describe('startHttpServer().stop()', () => {
  it('answers the requests in flight, then stops accepting', async () => {
    let started!: () => void;
    const handlerStarted = new Promise<void>((r) => (started = r));
    const app = express();
    app.get('/slow', async (_req, res) => {
      started();
      await new Promise((r) => setTimeout(r, 300));
      res.json({ done: true });
    });
    const http = await startHttpServer(app, { port: 0, host: '127.0.0.1', logger });

    const inFlight = fetch(`${http.url}/slow`);
    await handlerStarted;
    const stopped = http.stop();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await stopped;
    await expect(fetch(`${http.url}/slow`)).rejects.toThrow();
  });
});

interface Started {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  waitFor(msg: string): Promise<Record<string, unknown>>;
}

function start(script: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { msg: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        for (const waiter of waiters.filter((w) => w.msg === line.msg)) waiter.resolve(line);
      } catch {
        // not a log line
      }
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    child,
    lines,
    waitFor: (msg) => {
      const seen = lines.find((line) => line.msg === msg);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ msg, resolve });
        child.once('exit', (code) => reject(new Error(`exited with ${code} before "${msg}": ${stderr}`)));
      });
    },
  };
}

// Each starts processes that compile their TypeScript as they start: on two loaded cores that alone
// can take most of the default 30 s, which would measure the machine rather than the shutdown.
describe('the entry points shut down gracefully on SIGTERM', { timeout: 90_000 }, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('http: migrates, serves, then stops cleanly with exit code 0', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const http = start('src/http/main.ts', { DATABASE_URL: database.url, PORT: '0' });
    cleanups.push(async () => void http.child.kill('SIGKILL'));

    const listening = await http.waitFor('HTTP server listening');
    const health = await fetch(`${listening.url as string}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${listening.url as string}/readyz`);
    expect(ready.status).toBe(200);

    http.child.kill('SIGTERM');
    const [code] = await once(http.child, 'exit');
    expect(code).toBe(0);
    expect(http.lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  });

  it('http with a broker: HTTP_PROCESSES processes share the port, one that dies is replaced, all stop with exit code 0', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const port = await freePort();
    const http = start('src/http/main.ts', {
      DATABASE_URL: database.url,
      PORT: String(port),
      AMQP_URL: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
      QUEUE_PREFIX: `t-${randomBytes(5).toString('hex')}.`,
      HTTP_PROCESSES: '2',
    });
    cleanups.push(async () => void http.child.kill('SIGKILL'));
    const listening = () => http.lines.filter((line) => line.msg === 'HTTP server listening').map((line) => Number(line.pid));
    const until = async (what: string, done: () => boolean) => {
      for (let i = 0; i < 300 && !done(); i++) {
        if (http.child.exitCode !== null) throw new Error(`exited with ${http.child.exitCode} before ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(done(), what).toBe(true);
    };

    await until('two processes listen', () => listening().length === 2);
    const [first, second] = listening();
    expect(new Set([first, second, http.child.pid]).size).toBe(3);
    for (let i = 0; i < 4; i++) expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    process.kill(first!, 'SIGKILL');
    await until('a third process listens', () => listening().length === 3);
    expect(listening()[2]).not.toBe(first);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    http.child.kill('SIGTERM');
    const [code] = await once(http.child, 'exit');
    expect(code).toBe(0);
    // The two running processes stopped gracefully, each on its own.
    expect(
      http.lines
        .filter((line) => line.msg === 'stopped')
        .map((line) => Number(line.pid))
        .sort(),
    ).toEqual(listening().slice(1).sort());
  });

  it('worker: consumes from RabbitMQ, then stops cleanly with exit code 0', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const amqpUrl = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
    // Queues of its own on the shared broker, removed afterwards.
    const prefix = `t-${randomBytes(5).toString('hex')}.`;
    const worker = start('src/workers/main.ts', { DATABASE_URL: database.url, AMQP_URL: amqpUrl, QUEUE_PREFIX: prefix });
    cleanups.push(async () => void worker.child.kill('SIGKILL'));
    cleanups.push(() => deleteProductQueues(amqpUrl, prefix));

    const started = await worker.waitFor('workers started');
    if ((started.consumers as number) > 0) {
      // Consumers start once their queues are declared.
      await worker.waitFor('consuming');
      await new Promise((r) => setTimeout(r, 300));
    }
    worker.child.kill('SIGTERM');
    const [code] = await once(worker.child, 'exit');
    expect(code).toBe(0);
    expect(worker.lines.map((line) => line.msg)).toContain('stopped');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
