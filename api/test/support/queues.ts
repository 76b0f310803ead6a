/**
 * The queues a process of the product may declare under a QUEUE_PREFIX, for the tests and benchmarks that start
 * API or worker processes on the shared broker and must leave nothing behind. Read from the product's own list
 * (deps.ts, QUEUES) and naming (queue/rabbitmq.ts), so a new queue is cleaned up without a test knowing of it:
 * lists written by hand went stale and left quorum queues on the broker, run after run.
 */
import { Connection } from 'rabbitmq-client';
import { QUEUES } from '../../src/deps.js';
import { deadQueueName, delayQueueName } from '../../src/queue/rabbitmq.js';

/** The delay buckets a retry may use: 16 ms to about 9 minutes (delayBucketMs rounds up to a power of two). */
const DELAY_BUCKETS_MS = Array.from({ length: 16 }, (_, i) => 2 ** (i + 4));

/** Every name a queue of the product may have under `prefix`: the queue, its dead letters and its delay queues. */
export function productQueueNames(prefix: string): string[] {
  return Object.keys(QUEUES).flatMap((name) => {
    const queue = prefix + name;
    return [queue, deadQueueName(queue), ...DELAY_BUCKETS_MS.map((ms) => delayQueueName(queue, ms))];
  });
}

/** Deletes every queue of the product under `prefix` (those that do not exist are skipped). */
export async function deleteProductQueues(url: string, prefix: string): Promise<void> {
  if (!prefix) throw new Error('deleteProductQueues needs a prefix: it never deletes the unprefixed queues');
  const broker = new Connection({ url, connectionName: 'mailroom-test-queue-cleanup' });
  try {
    for (const queue of productQueueNames(prefix)) await broker.queueDelete({ queue }).catch(() => undefined);
  } finally {
    await broker.close();
  }
}
