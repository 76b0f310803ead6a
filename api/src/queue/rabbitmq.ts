/**
 * The MessageQueueAdapter on RabbitMQ (rabbitmq-client): one connection per process, durable quorum queues,
 * persistent messages, publisher confirms, manual ack with bounded prefetch.
 *
 * Per queue `<name>`:
 *  - `<name>`: the work. A message the broker keeps redelivering (a handler that kills its
 *    process) is dead-lettered by the broker after DELIVERY_LIMIT deliveries instead of looping.
 *  - `<name>.retry.<bucket>ms`: delay queues. A message waits there with a per-message expiration
 *    equal to its delay, then is dead-lettered back to `<name>`. Quorum queues expire messages
 *    only at their head, so delays are grouped by power-of-two buckets: a short delay never waits
 *    behind a much longer one (at most twice its own delay), without one queue per delay value.
 *  - `<name>.dead`: poison messages, after maxAttempts failures, for operators.
 *
 * A failed handler never uses the broker's requeue: the message is republished (confirmed) to a
 * delay queue with its attempt count in a header, or to `.dead`, and only then is the original
 * acked. If that republish fails, the original is nacked with requeue so it is not lost.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { AMQPChannelError, AMQPConnectionError, AMQPError, Connection, type AsyncMessage, type Publisher } from 'rabbitmq-client';
import type { Logger } from '../logger.js';
import {
  BrokerUnavailableError,
  PoisonMessageError,
  type ConsumeOptions,
  type Consumer,
  type MessageHandler,
  type MessageQueueAdapter,
  type PublishOptions,
  type QueueName,
} from './message-queue.js';
import { errorMessage, MAX_OUTAGE_RETRIES, outageRetryDelayMs, resolveConsumeOptions } from './options.js';

const ATTEMPT_HEADER = 'x-mailroom-attempt';
const OUTAGES_HEADER = 'x-mailroom-outages';
const ERROR_HEADER = 'x-mailroom-error';
const DELIVERY_LIMIT = 10;
/** How long a publish is held while the broker is away before it fails, unless the queue is told otherwise. */
const PUBLISH_WAIT_MS = 120_000;
/** How often a publish held for the broker looks whether it is back. */
const AVAILABLE_POLL_MS = 50;
const MIN_DELAY_BUCKET_MS = 16;
/** AMQP errors that another try would only repeat (a queue declared with other arguments...). */
const PERMANENT_ERRORS = new Set(['PRECONDITION_FAILED', 'ACCESS_REFUSED', 'NOT_ALLOWED', 'RESOURCE_LOCKED']);

type QueueArguments = Record<string, string | number>;

function mainQueueArguments(queue: string): QueueArguments {
  return {
    'x-queue-type': 'quorum',
    'x-delivery-limit': DELIVERY_LIMIT,
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': deadQueueName(queue),
    'x-dead-letter-strategy': 'at-least-once',
    'x-overflow': 'reject-publish',
  };
}

function delayQueueArguments(queue: string): QueueArguments {
  return {
    'x-queue-type': 'quorum',
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': queue,
    // at-least-once: a message is removed from the delay queue only once the work queue has it.
    'x-dead-letter-strategy': 'at-least-once',
    'x-overflow': 'reject-publish',
  };
}

export function deadQueueName(queue: string): string {
  return `${queue}.dead`;
}

export function delayBucketMs(delayMs: number): number {
  return Math.max(MIN_DELAY_BUCKET_MS, 2 ** Math.ceil(Math.log2(Math.max(1, delayMs))));
}

export function delayQueueName(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayBucketMs(delayMs)}ms`;
}

export interface RabbitMqMessageQueueOptions {
  /** Put before every queue name, so tests sharing a broker never see each other's messages. */
  prefix?: string;
  /** Delete every queue this instance declared when it closes (tests). */
  deleteQueuesOnClose?: boolean;
  /**
   * How long a publish waits for a broker that is away before it fails with BrokerUnavailableError
   * (default PUBLISH_WAIT_MS, two minutes: a worker holds on). The HTTP process waits seconds: a
   * member is answered 503 rather than kept waiting (docs/decisions/sending.md, broker outage).
   */
  publishWaitMs?: number;
}

export class RabbitMqMessageQueue implements MessageQueueAdapter {
  private readonly connection: Connection;
  private readonly prefix: string;
  private readonly deleteQueuesOnClose: boolean;
  private readonly publishWaitMs: number;
  private readonly publisher: Publisher;
  /** Queues declared by this process (memoised: declaring on every publish would cost a round trip). */
  private readonly declared = new Map<string, Promise<void>>();
  private readonly consumers = new Set<Consumer>();
  private closing: Promise<void> | undefined;

  constructor(
    url: string,
    private readonly logger: Logger,
    options: RabbitMqMessageQueueOptions = {},
  ) {
    this.prefix = options.prefix ?? '';
    this.deleteQueuesOnClose = options.deleteQueuesOnClose ?? false;
    this.publishWaitMs = options.publishWaitMs ?? PUBLISH_WAIT_MS;
    this.connection = new Connection({
      url,
      connectionName: 'mailroom-api',
      retryLow: 200,
      retryHigh: 2_000,
      // A channel wanted while the broker is away waits no longer than a publish would (the client's default is 20 s).
      acquireTimeout: Math.min(20_000, this.publishWaitMs),
    });
    this.connection.on('error', (err) => logger.error({ err }, 'RabbitMQ connection error'));
    this.connection.on('connection', () => logger.info('RabbitMQ connected'));
    this.connection.on('connection.blocked', (reason) => logger.warn({ reason }, 'RabbitMQ blocked publishing'));
    this.publisher = this.connection.createPublisher({ confirm: true, maxAttempts: 3 });
    this.publisher.on('retry', (err) => logger.warn({ err }, 'RabbitMQ publish retried'));
  }

  /**
   * Waits (up to publishWaitMs) for the broker before anything goes out: a publish given up on while
   * the broker is away never started, so it cannot reach the broker after its caller was told it
   * failed. One that loses the broker half-way is held until the same deadline (sendRaw).
   */
  async publish<T>(queue: QueueName, payload: T, options: PublishOptions = {}): Promise<void> {
    if (this.closing) throw new Error('The message queue is closed');
    const deadline = performance.now() + this.publishWaitMs;
    if (!(await this.available())) throw new BrokerUnavailableError();
    await this.send(
      this.prefix + queue,
      Buffer.from(JSON.stringify(payload ?? null)),
      { [ATTEMPT_HEADER]: 1 },
      options.delayMs ?? 0,
      deadline,
    );
  }

  consume<T>(name: QueueName, handler: MessageHandler<T>, options?: ConsumeOptions): Consumer {
    if (this.closing) throw new Error('The message queue is closed');
    const queue = this.prefix + name;
    const { concurrency, maxAttempts, retryDelayMs, isOutage } = resolveConsumeOptions(options);
    const logger = this.logger.child({ queue });

    const consumer = this.connection.createConsumer(
      {
        queue,
        queueOptions: { queue, durable: true, arguments: mainQueueArguments(queue) },
        qos: { prefetchCount: concurrency },
        concurrency,
        // Only reached when republishing a failed message failed: give it back rather than lose it.
        requeue: true,
        // Started once the queues exist: consuming from a quorum queue declared a moment before can
        // fail inside the broker while the queue's replica starts (RabbitMQ 3.x, under load).
        lazy: true,
      },
      async (message: AsyncMessage) => {
        const attempt = attemptOf(message);
        const outages = countHeader(message, OUTAGES_HEADER, 0);
        const body = rawBody(message);
        try {
          if (body === undefined) throw new Error('message body is not JSON');
          await handler(parseBody(body) as T, { attempt });
        } catch (error) {
          await this.declareWorkQueue(queue);
          const original = body ?? (Buffer.isBuffer(message.body) ? message.body : Buffer.from(String(message.body)));
          const poison = body === undefined || error instanceof PoisonMessageError;
          if (!poison && outages < MAX_OUTAGE_RETRIES && isOutage(error)) {
            // A dependency is down: try again soon, without using up an attempt.
            const delayMs = outageRetryDelayMs(outages + 1);
            logger.warn({ attempt, outages: outages + 1, delayMs, error: errorMessage(error) }, 'message met an outage; will retry');
            await this.send(queue, original, { [ATTEMPT_HEADER]: attempt, [OUTAGES_HEADER]: outages + 1 }, delayMs);
          } else if (poison || attempt >= maxAttempts) {
            logger.error({ err: error, attempt }, 'message failed for the last time; dead-lettered');
            await this.sendRaw(deadQueueName(queue), original, {
              [ATTEMPT_HEADER]: attempt,
              [ERROR_HEADER]: errorMessage(error).slice(0, 1000),
            });
          } else {
            const delayMs = retryDelayMs(attempt);
            logger.warn({ attempt, delayMs, error: errorMessage(error) }, 'message failed; will retry');
            await this.send(queue, original, { [ATTEMPT_HEADER]: attempt + 1, [OUTAGES_HEADER]: outages }, delayMs);
          }
        }
        // Resolving acks the original: it has been handled, retried or dead-lettered.
      },
    );
    consumer.on('error', (err) => logger.error({ err }, 'RabbitMQ consumer error'));
    let closed = false;
    const started = this.declareWorkQueue(queue)
      .catch((err: unknown) => logger.error({ err }, 'could not declare the queues; the consumer declares its own'))
      .then(() => {
        // start() would revive a consumer closed meanwhile.
        if (closed) return;
        consumer.start();
        logger.info({ concurrency, maxAttempts }, 'consuming');
      });

    const handle: Consumer = {
      close: async () => {
        closed = true;
        this.consumers.delete(handle);
        await started;
        // rabbitmq-client cancels the subscription, then waits for the running handlers.
        await consumer.close();
      },
    };
    this.consumers.add(handle);
    return handle;
  }

  async deadLetters<T>(name: QueueName, options: { drain?: boolean } = {}): Promise<T[]> {
    const queue = this.prefix + name;
    await this.declareWorkQueue(queue);
    const channel = await this.connection.acquire();
    try {
      const payloads: T[] = [];
      let lastTag: number | undefined;
      for (;;) {
        const message = await channel.basicGet({ queue: deadQueueName(queue) });
        if (!message) break;
        lastTag = message.deliveryTag;
        const body = rawBody(message);
        payloads.push((body ? JSON.parse(body.toString('utf8')) : message.body) as T);
      }
      if (lastTag !== undefined) {
        if (options.drain) await channel.basicAck({ deliveryTag: lastTag, multiple: true });
        else await channel.basicNack({ deliveryTag: lastTag, multiple: true, requeue: true });
      }
      return payloads;
    } finally {
      await channel.close();
    }
  }

  async ping(): Promise<void> {
    if (this.closing) throw new Error('The message queue is closed');
    if (!this.connection.ready) throw new Error('RabbitMQ is not connected');
  }

  async available(waitMs = this.publishWaitMs): Promise<boolean> {
    const deadline = performance.now() + waitMs;
    for (;;) {
      if (this.closing) return false;
      if (this.connection.ready) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await sleep(Math.min(AVAILABLE_POLL_MS, left));
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.consumers].map((consumer) => consumer.close()));
      if (this.deleteQueuesOnClose) {
        for (const name of this.declared.keys()) await this.connection.queueDelete({ queue: name });
        this.declared.clear();
      }
      await this.publisher.close();
      await this.connection.close();
    })();
    return this.closing;
  }

  /** Drops the connection at once, as a crash would: unacked messages go back to the broker (tests). */
  destroy(): void {
    this.closing ??= Promise.resolve();
    this.connection.unsafeDestroy();
  }

  private declareWorkQueue(queue: string): Promise<void> {
    return Promise.all([
      this.declare(queue, mainQueueArguments(queue)),
      this.declare(deadQueueName(queue), { 'x-queue-type': 'quorum' }),
    ]).then(() => undefined);
  }

  private declare(name: string, args: QueueArguments): Promise<void> {
    let declared = this.declared.get(name);
    if (!declared) {
      declared = this.declareWithRetry(name, args);
      declared.catch(() => this.declared.delete(name));
      this.declared.set(name, declared);
    }
    return declared;
  }

  /** A connection reset while declaring is retried (the connection reconnects by itself); a refusal is not. */
  private async declareWithRetry(name: string, args: QueueArguments): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.connection.queueDeclare({ queue: name, durable: true, arguments: args });
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= 5 || this.closing || PERMANENT_ERRORS.has(String(code))) throw error;
        this.logger.warn({ queue: name, attempt, code }, 'declaring a queue failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  private async send(queue: string, body: Buffer, headers: Record<string, number>, delayMs: number, deadline?: number): Promise<void> {
    await this.declareWorkQueue(queue);
    if (delayMs <= 0) {
      await this.sendRaw(queue, body, headers, undefined, deadline);
      return;
    }
    const delayQueue = delayQueueName(queue, delayMs);
    await this.declare(delayQueue, delayQueueArguments(queue));
    await this.sendRaw(delayQueue, body, headers, String(Math.ceil(delayMs)), deadline);
  }

  /**
   * Publishes with the broker's confirm. While the broker is away (a connection or channel lost, a
   * confirm that never came) the publish is held and tried again once the connection is back, until
   * `deadline` (publishWaitMs from now by default): the caller waits rather than losing the message,
   * then gets BrokerUnavailableError. A publish made twice this way is harmless (every handler is
   * idempotent).
   */
  private async sendRaw(
    queue: string,
    body: Buffer,
    headers: Record<string, unknown>,
    expiration?: string,
    deadline = performance.now() + this.publishWaitMs,
  ): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await this.publisher.send(
          {
            routingKey: queue,
            durable: true,
            contentType: 'application/json',
            headers,
            ...(expiration === undefined ? {} : { expiration }),
          },
          body,
        );
        return;
      } catch (error) {
        if (!isBrokerOutage(error) || this.closing) throw error;
        if (performance.now() > deadline) throw new BrokerUnavailableError({ cause: error });
        if (tries === 1) this.logger.warn({ queue, error: errorMessage(error) }, 'publish held until the broker is back');
        await sleep(Math.min(1_000, 100 * tries));
      }
    }
  }
}

/** The broker or the connection to it is gone (not a refusal of this message): worth waiting for. */
function isBrokerOutage(error: unknown): boolean {
  if (error instanceof AMQPConnectionError) return true;
  if (!(error instanceof AMQPError)) return false;
  // A channel closed under the publish, a confirm lost with it, or no connection in time.
  return error instanceof AMQPChannelError ? !PERMANENT_ERRORS.has(error.code) : error.code === 'TIMEOUT';
}

function attemptOf(message: AsyncMessage): number {
  return countHeader(message, ATTEMPT_HEADER, 1);
}

function countHeader(message: AsyncMessage, header: string, least: number): number {
  const value = Number(message.headers?.[header]);
  return Number.isInteger(value) && value >= least ? value : least;
}

/**
 * The message body as JSON bytes. rabbitmq-client parses application/json bodies on arrival;
 * re-serialising gives back the same JSON. Undefined when the body is not JSON (poison).
 */
function rawBody(message: { body: unknown; contentType?: string }): Buffer | undefined {
  if (message.contentType === 'application/json' && !Buffer.isBuffer(message.body)) {
    return Buffer.from(JSON.stringify(message.body ?? null));
  }
  if (Buffer.isBuffer(message.body)) {
    try {
      JSON.parse(message.body.toString('utf8'));
      return message.body;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A body that is not JSON can never be handled: poison. */
function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new PoisonMessageError('message body is not JSON');
  }
}
