#!/usr/bin/env node
// Deletes the queues that test and benchmark runs left on the machine's own RabbitMQ.
//
// Every run declares its queues under a prefix of its own (QUEUE_PREFIX: t-…, e2e-…, bench-…, deploy-…,
// figures-…), each with a dead-letter queue and up to sixteen delay queues, all of them quorum queues.
// A run deletes its queues when it ends; a run that is killed cannot. Left over, thousands of quorum
// queues make RabbitMQ 3.10 on two cores slow to answer anything, and every later run then times out on
// the broker rather than on the product. CI runs this before the tests (.ci/run), and the e2e teardown
// runs it for its own prefix.
//
// The broker's queues are listed with rabbitmqctl (AMQP cannot list them), so this only works where the
// broker runs on this machine; elsewhere it says so and does nothing. A queue that has a consumer is left
// alone: some run is using it.
//
//   node tests/support/test-queues.mjs            every test prefix
//   node tests/support/test-queues.mjs e2e-abc.   one prefix
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const TEST_PREFIX = /^(?:t|e2e|bench|deploy|figures)-[\w-]+\./;

/** The names of the broker's queues that no one consumes, or null when rabbitmqctl cannot tell. */
function idleQueues() {
  let listing;
  try {
    listing = execFileSync('rabbitmqctl', ['-q', 'list_queues', 'name', 'consumers', '--no-table-headers'], {
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    return null;
  }
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([name, consumers]) => name && consumers === '0')
    .map(([name]) => name);
}

/**
 * Deletes the idle queues under `prefix` (every test prefix when none is given); resolves to how many
 * went, or null when the broker's queues could not be listed here.
 */
export async function deleteTestQueues(prefix) {
  const names = idleQueues()?.filter((name) => (prefix ? name.startsWith(prefix) : TEST_PREFIX.test(name)));
  if (!names) return null;
  if (names.length === 0) return 0;
  const { Connection } = createRequire(join(root, 'api/package.json'))('rabbitmq-client');
  const broker = new Connection({ url: AMQP_URL, connectionName: 'mailroom-test-queue-sweep', retryLow: 100, retryHigh: 1000 });
  let deleted = 0;
  try {
    for (const queue of names) {
      await broker.queueDelete({ queue });
      deleted++;
    }
  } finally {
    await broker.close();
  }
  return deleted;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const deleted = await deleteTestQueues(process.argv[2]);
  console.log(
    deleted === null
      ? 'test queues: rabbitmqctl could not list the broker’s queues; none deleted'
      : `test queues: ${deleted} left-over queues deleted`,
  );
}
