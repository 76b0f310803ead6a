/**
 * One contract, both adapters: what every consumer of MessageQueueAdapter may rely on.
 * RabbitMQ at TEST_AMQP_URL (default amqp://guest:guest@127.0.0.1:5672), queue names unique per test.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:net';
import { createLogger } from '../logger.js';
import { InProcessMessageQueue } from './in-process.js';
import { BrokerUnavailableError, PoisonMessageError, type MessageQueueAdapter } from './message-queue.js';
import { z } from 'zod';
import { MessageQueue } from './typed-message-queue.js';
import { RabbitMqMessageQueue } from './rabbitmq.js';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = createLogger({ logLevel: (process.env.LOG_LEVEL as 'silent' | undefined) ?? 'silent' });

interface Adapter {
  name: string;
  broker: boolean;
  create(): MessageQueueAdapter;
}

const adapters: Adapter[] = [
  { name: 'in-process', broker: false, create: () => new InProcessMessageQueue(logger) },
  {
    name: 'rabbitmq',
    broker: true,
    create: () => new RabbitMqMessageQueue(AMQP_URL, logger, { deleteQueuesOnClose: true }),
  },
];

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(adapters)('MessageQueueAdapter contract: $name', ({ create, broker }) => {
  let opened: MessageQueueAdapter[] = [];
  const open = () => {
    const queue = create();
    opened.push(queue);
    return queue;
  };
  const queueName = () => `contract-${randomUUID()}`;

  afterEach(async () => {
    await Promise.all(opened.map((queue) => queue.close()));
    opened = [];
  });

  it('delivers a published message to a consumer, as JSON, on attempt 1', async () => {
    const queue = open();
    const name = queueName();
    const received = deferred<{ payload: unknown; attempt: number }>();
    queue.consume(name, async (payload, { attempt }) => received.resolve({ payload, attempt }));
    await queue.publish(name, { audienceId: 7, when: new Date(0) });
    expect(await received.promise).toEqual({ payload: { audienceId: 7, when: '1970-01-01T00:00:00.000Z' }, attempt: 1 });
  });

  it('keeps messages published before any consumer', async () => {
    const queue = open();
    const name = queueName();
    await queue.publish(name, 'first');
    await queue.publish(name, 'second');
    const got: unknown[] = [];
    const done = deferred();
    queue.consume(name, async (payload) => {
      got.push(payload);
      if (got.length === 2) done.resolve();
    });
    await done.promise;
    expect(got.sort()).toEqual(['first', 'second']);
  });

  it('delivers again a message whose handler crashed before acking', async () => {
    const queue = open();
    const name = queueName();
    const attempts: number[] = [];
    const done = deferred();
    queue.consume(
      name,
      ((_payload: unknown, { attempt }: { attempt: number }) => {
        attempts.push(attempt);
        // A synchronous throw, not a rejected promise: the crash happens before any ack.
        if (attempt === 1) throw new Error('crash');
        done.resolve();
        return Promise.resolve();
      }) as never,
      { retryDelayMs: () => 10 },
    );
    await queue.publish(name, { n: 1 });
    await done.promise;
    expect(attempts).toEqual([1, 2]);
  });

  it.runIf(broker)('redelivers to another process a message whose process died before acking', async () => {
    const name = queueName();
    const dying = open() as RabbitMqMessageQueue;
    const started = deferred<number>();
    dying.consume(name, () => {
      started.resolve(Date.now());
      return new Promise<void>(() => {}); // never acks
    });
    await dying.publish(name, { job: 42 });
    await started.promise;
    dying.destroy();

    const survivor = open();
    const received = deferred<{ payload: unknown; attempt: number }>();
    survivor.consume(name, async (payload, { attempt }) => received.resolve({ payload, attempt }));
    expect(await received.promise).toEqual({ payload: { job: 42 }, attempt: 1 });
  });

  it('retries a failing handler after the delay, then dead-letters it after maxAttempts', async () => {
    const queue = open();
    const name = queueName();
    const delayMs = 60;
    const startedAt: number[] = [];
    const failedAt: number[] = [];
    queue.consume(
      name,
      async () => {
        startedAt.push(Date.now());
        failedAt.push(Date.now());
        throw new Error('always fails');
      },
      { maxAttempts: 3, retryDelayMs: () => delayMs },
    );
    await queue.publish(name, { campaignId: 3 });

    await vi.waitFor(async () => expect(await queue.deadLetters(name)).toEqual([{ campaignId: 3 }]), {
      timeout: 10_000,
      interval: 50,
    });
    expect(startedAt).toHaveLength(3);
    for (let i = 1; i < startedAt.length; i++) {
      expect(startedAt[i]! - failedAt[i - 1]!).toBeGreaterThanOrEqual(delayMs);
    }
    // Looking does not remove; draining does.
    expect(await queue.deadLetters(name)).toEqual([{ campaignId: 3 }]);
    expect(await queue.deadLetters(name, { drain: true })).toEqual([{ campaignId: 3 }]);
    expect(await queue.deadLetters(name)).toEqual([]);
    await sleep(3 * delayMs);
    expect(startedAt).toHaveLength(3);
  });

  it('passes the attempt number and stops retrying once the handler succeeds', async () => {
    const queue = open();
    const name = queueName();
    const attempts: number[] = [];
    const done = deferred();
    queue.consume(
      name,
      async (_payload, { attempt }) => {
        attempts.push(attempt);
        if (attempt < 3) throw new Error('not yet');
        done.resolve();
      },
      { maxAttempts: 5, retryDelayMs: (attempt) => attempt * 10 },
    );
    await queue.publish(name, {});
    await done.promise;
    await sleep(100);
    expect(attempts).toEqual([1, 2, 3]);
    expect(await queue.deadLetters(name)).toEqual([]);
  });

  it('retries an outage without using up an attempt: never dead-lettered by it', async () => {
    const queue = open();
    const name = queueName();
    const attempts: number[] = [];
    const done = deferred();
    class Outage extends Error {}
    queue.consume(
      name,
      async (_payload, { attempt }) => {
        attempts.push(attempt);
        // Two outages (1 s, then 2 s later), then one ordinary failure, then success.
        if (attempts.length <= 2) throw new Outage('the database is unavailable');
        if (attempts.length === 3) throw new Error('an ordinary failure');
        done.resolve();
      },
      { maxAttempts: 2, retryDelayMs: () => 10, isOutage: (error) => error instanceof Outage },
    );
    await queue.publish(name, { campaignId: 4 });
    await done.promise;
    await sleep(100);
    // maxAttempts 2 with four failures would have dead-lettered it: the outages used up no attempt.
    expect(attempts).toEqual([1, 1, 1, 2]);
    expect(await queue.deadLetters(name)).toEqual([]);
  }, 15_000);

  it('publish with delayMs delivers no sooner than the delay', async () => {
    const queue = open();
    const name = queueName();
    const received = deferred<number>();
    queue.consume(name, async () => received.resolve(Date.now()));
    const before = Date.now();
    await queue.publish(name, { later: true }, { delayMs: 150 });
    expect((await received.promise) - before).toBeGreaterThanOrEqual(150);
  });

  it('a short delay does not wait behind a much longer one', async () => {
    const queue = open();
    const name = queueName();
    const order: string[] = [];
    const done = deferred();
    queue.consume(name, async (payload: string) => {
      // At least once: a duplicate may arrive; the order of first arrivals is what counts.
      if (!order.includes(payload)) order.push(payload);
      if (order.length === 2) done.resolve();
    });
    await queue.publish(name, 'slow', { delayMs: 1_500 });
    await queue.publish(name, 'fast', { delayMs: 50 });
    await done.promise;
    expect(order).toEqual(['fast', 'slow']);
  });

  it('runs at most `concurrency` handlers at once', async () => {
    const queue = open();
    const name = queueName();
    let running = 0;
    let most = 0;
    let handled = 0;
    const done = deferred();
    queue.consume(
      name,
      async () => {
        running++;
        most = Math.max(most, running);
        await sleep(40);
        running--;
        if (++handled === 6) done.resolve();
      },
      { concurrency: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => queue.publish(name, n)));
    await done.promise;
    expect(most).toBe(2);
  });

  it("a consumer's close() resolves only after its running handlers finish", async () => {
    const queue = open();
    const name = queueName();
    const started = deferred();
    let finished = false;
    const consumer = queue.consume(name, async () => {
      started.resolve();
      await sleep(200);
      finished = true;
    });
    await queue.publish(name, {});
    await started.promise;
    await consumer.close();
    expect(finished).toBe(true);
  });

  it('a consumer closed at once never takes a message', async () => {
    const queue = open();
    const name = queueName();
    let handled = 0;
    await queue
      .consume(name, async () => {
        handled++;
      })
      .close();
    await queue.publish(name, {});
    await sleep(200);
    expect(handled).toBe(0);
  });

  it("the queue's close() waits for running handlers, and refuses work afterwards", async () => {
    const queue = create();
    const name = queueName();
    const started = deferred();
    let finished = false;
    queue.consume(name, async () => {
      started.resolve();
      await sleep(200);
      finished = true;
    });
    await queue.publish(name, {});
    await started.promise;
    await queue.close();
    expect(finished).toBe(true);
    await expect(queue.publish(name, {})).rejects.toThrow();
    await expect(queue.ping()).rejects.toThrow();
  });

  it('answers ping() while open', async () => {
    const queue = open();
    await vi.waitFor(() => queue.ping(), { timeout: 5_000, interval: 50 });
  });

  it('is available while open, and not once closed', async () => {
    const queue = open();
    expect(await queue.available(5_000)).toBe(true);
    await queue.close();
    expect(await queue.available(0)).toBe(false);
  });

  it('dead-letters a PoisonMessageError at once, without retrying it', async () => {
    const queue = open();
    const name = queueName();
    const attempts: number[] = [];
    queue.consume(
      name,
      async (_payload, { attempt }) => {
        attempts.push(attempt);
        throw new PoisonMessageError('cannot ever be handled');
      },
      { maxAttempts: 5, retryDelayMs: () => 10 },
    );
    await queue.publish(name, { campaignId: 9 });
    await vi.waitFor(async () => expect(await queue.deadLetters(name)).toEqual([{ campaignId: 9 }]), { timeout: 10_000, interval: 50 });
    await sleep(300);
    expect(attempts).toEqual([1]);
  });

  it('typed by its queue list: a malformed message is dead-lettered at once and never reaches the handler', async () => {
    const adapter = broker
      ? new RabbitMqMessageQueue(AMQP_URL, logger, { prefix: `t-${randomUUID()}.`, deleteQueuesOnClose: true })
      : new InProcessMessageQueue(logger);
    opened.push(adapter);
    const queues = new MessageQueue(adapter, { 'audience-delete': z.object({ audienceId: z.number().int().positive() }) }, logger);
    const handled: unknown[] = [];
    queues.consume('audience-delete', async (job) => void handled.push(job), { maxAttempts: 5, retryDelayMs: () => 10 });
    await adapter.publish('audience-delete', { audienceId: 'DROP TABLE' });
    await queues.publish('audience-delete', { audienceId: 4 });
    await vi.waitFor(() => expect(handled).toEqual([{ audienceId: 4 }]), { timeout: 10_000, interval: 50 });
    await vi.waitFor(async () => expect(await queues.deadLetters('audience-delete')).toEqual([{ audienceId: 'DROP TABLE' }]), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

describe('RabbitMQ away: how long a publish waits', () => {
  /** A broker address where nothing listens: the connection never comes up. */
  const nowhere = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return `amqp://guest:guest@127.0.0.1:${port}`;
  };

  it('available() waits up to the time given, then answers false', async () => {
    const queue = new RabbitMqMessageQueue(await nowhere(), logger, { publishWaitMs: 60_000 });
    try {
      expect(await queue.available(0)).toBe(false);
      const started = performance.now();
      expect(await queue.available(300)).toBe(false);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await queue.close();
    }
  });

  it('publish waits publishWaitMs, then fails with BrokerUnavailableError', async () => {
    const queue = new RabbitMqMessageQueue(await nowhere(), logger, { publishWaitMs: 400 });
    try {
      const started = performance.now();
      await expect(queue.publish('anything', { n: 1 })).rejects.toBeInstanceOf(BrokerUnavailableError);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(390);
      expect(waited).toBeLessThan(2_000);
    } finally {
      await queue.close();
    }
  });
});
