// The ceiling of the benchmarks that measure the API's public routes (tracking, sign-ups): a bare Node HTTP
// server on the API's port, in as many processes (node:cluster, as the API runs), listening as the API does
// (LISTEN_BACKLOG), answering each request with an answer the benchmark recorded from the API, byte for byte,
// once it has read the request's body: no checks, no database, no mail.
//
// Run as a script it is the server (PORT, HTTP_PROCESSES, BARE_ANSWERS: JSON [{ prefix, status, headers, body
// (base64) }], the first whose prefix starts the request's URL answers; 404 when none does). `onBareServer`
// starts it in place of the API's HTTP processes, runs the load, and stops it.
import { Buffer } from 'node:buffer';
import cluster from 'node:cluster';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LISTEN_BACKLOG } from '../../../api/src/http/server.ts';
import { spawnNode, stopAll } from './processes.mjs';

const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** An answer as the bare server repeats it, from what the API answered (the headers a server sets per answer left out). */
export function bareAnswer(prefix, status, headers, body) {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
  return { prefix, status, headers: kept, body: Buffer.from(body).toString('base64') };
}

/**
 * Stops the stack's HTTP processes, starts the bare server on their port with `answers` (bareAnswer), resolves to
 * what `load()` resolves to, and stops the bare server.
 */
export async function onBareServer(stack, processes, answers, load) {
  stack.http.kill('SIGTERM');
  if (stack.http.exitCode === null) await once(stack.http, 'exit');
  const bare = spawnNode([fileURLToPath(import.meta.url)], {
    env: { ...process.env, PORT: new URL(stack.baseUrl).port, HTTP_PROCESSES: String(processes), BARE_ANSWERS: JSON.stringify(answers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = await once(createInterface({ input: bare.stdout }), 'line');
    if (line !== 'ready') throw new Error(`the bare server said ${line}`);
    return await load();
  } finally {
    await stopAll([bare]);
  }
}

function serve() {
  const processes = Number(process.env.HTTP_PROCESSES);
  if (cluster.isPrimary) {
    for (let i = 0; i < processes; i++) cluster.fork();
    let listening = 0;
    cluster.on('listening', () => ++listening === processes && console.log('ready'));
    const stop = () => {
      for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return;
  }
  const answers = JSON.parse(process.env.BARE_ANSWERS).map(({ prefix, status, headers, body }) => ({
    prefix,
    status,
    headers,
    body: Buffer.from(body, 'base64'),
  }));
  createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const found = answers.find(({ prefix }) => request.url.startsWith(prefix));
      if (!found) return void response.writeHead(404).end();
      response.writeHead(found.status, found.headers).end(found.body);
    });
  }).listen({ port: Number(process.env.PORT), host: '127.0.0.1', backlog: LISTEN_BACKLOG });
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve();
