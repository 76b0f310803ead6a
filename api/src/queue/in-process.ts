/**
 * The MessageQueueAdapter without a broker: the embedded default when AMQP_URL is not set. Same semantics as
 * the RabbitMQ adapter (at-least-once within the process, delays, retries, dead letters, bounded
 * concurrency, close waits for running handlers), but nothing survives the process: a single
 * process only, for development and the one-command stack.
 */
import type { Logger } from '../logger.js';
import {
  PoisonMessageError,
  type ConsumeOptions,
  type Consumer,
  type MessageHandler,
  type MessageQueueAdapter,
  type PublishOptions,
  type QueueName,
} from './message-queue.js';
import { errorMessage, MAX_OUTAGE_RETRIES, outageRetryDelayMs, resolveConsumeOptions, type ResolvedConsumeOptions } from './options.js';

interface Message {
  /** JSON, as on the wire: a handler never shares objects with the publisher. */
  body: string;
  attempt: number;
  /** Failures for outages so far (they use up no attempt). */
  outages?: number;
}

interface QueueState {
  ready: Message[];
  dead: string[];
  consumers: InProcessConsumer[];
  /** Round-robin start among consumers. */
  next: number;
}

class InProcessConsumer implements Consumer {
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly owner: InProcessMessageQueue,
    readonly queue: string,
    private readonly handler: MessageHandler<unknown>,
    private readonly options: ResolvedConsumeOptions,
    private readonly logger: Logger,
  ) {}

  get hasCapacity(): boolean {
    return !this.closed && this.running.size < this.options.concurrency;
  }

  run(message: Message): void {
    const work = (async () => {
      try {
        // Parsing inside the try: a handler that throws synchronously is retried like any failure.
        await this.handler(JSON.parse(message.body), { attempt: message.attempt });
      } catch (error) {
        this.owner.failed(this.queue, message, this.options, error, this.logger);
      }
    })();
    this.running.add(work);
    void work.finally(() => {
      this.running.delete(work);
      this.owner.dispatchSoon(this.queue);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.owner.detach(this);
    await Promise.allSettled([...this.running]);
  }
}

export class InProcessMessageQueue implements MessageQueueAdapter {
  private readonly queues = new Map<string, QueueState>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly consumers = new Set<InProcessConsumer>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  async publish<T>(queue: QueueName, payload: T, options: PublishOptions = {}): Promise<void> {
    if (this.closed) throw new Error('The message queue is closed');
    this.enqueue(queue, { body: JSON.stringify(payload ?? null), attempt: 1 }, options.delayMs ?? 0);
  }

  consume<T>(queue: QueueName, handler: MessageHandler<T>, options?: ConsumeOptions): Consumer {
    if (this.closed) throw new Error('The message queue is closed');
    const consumer = new InProcessConsumer(
      this,
      queue,
      handler as MessageHandler<unknown>,
      resolveConsumeOptions(options),
      this.logger.child({ queue }),
    );
    this.consumers.add(consumer);
    this.state(queue).consumers.push(consumer);
    this.dispatchSoon(queue);
    return consumer;
  }

  async deadLetters<T>(queue: QueueName, options: { drain?: boolean } = {}): Promise<T[]> {
    const state = this.state(queue);
    const payloads = state.dead.map((body) => JSON.parse(body) as T);
    if (options.drain) state.dead = [];
    return payloads;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('The message queue is closed');
  }

  /** Always there while open: the queue lives in this process. */
  async available(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Delayed messages die with the process anyway; do not keep the event loop alive for them.
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.consumers].map((consumer) => consumer.close()));
  }

  /** @internal A handler failed: retry after the delay, or dead-letter after maxAttempts. */
  failed(queue: string, message: Message, options: ResolvedConsumeOptions, error: unknown, logger: Logger): void {
    const outages = message.outages ?? 0;
    if (!(error instanceof PoisonMessageError) && outages < MAX_OUTAGE_RETRIES && options.isOutage(error)) {
      const delayMs = outageRetryDelayMs(outages + 1);
      logger.warn(
        { attempt: message.attempt, outages: outages + 1, delayMs, error: errorMessage(error) },
        'message met an outage; will retry',
      );
      this.enqueue(queue, { ...message, outages: outages + 1 }, delayMs);
      return;
    }
    if (error instanceof PoisonMessageError || message.attempt >= options.maxAttempts) {
      logger.error({ err: error, attempt: message.attempt }, 'message failed for the last time; dead-lettered');
      this.state(queue).dead.push(message.body);
      return;
    }
    const delayMs = options.retryDelayMs(message.attempt);
    logger.warn({ attempt: message.attempt, delayMs, error: errorMessage(error) }, 'message failed; will retry');
    this.enqueue(queue, { body: message.body, attempt: message.attempt + 1, outages }, delayMs);
  }

  /** @internal */
  detach(consumer: InProcessConsumer): void {
    this.consumers.delete(consumer);
    const state = this.state(consumer.queue);
    state.consumers = state.consumers.filter((c) => c !== consumer);
  }

  /** @internal Deferred, so publish() returns before any handler starts (as with a broker). */
  dispatchSoon(queue: string): void {
    setImmediate(() => this.dispatch(queue));
  }

  private enqueue(queue: string, message: Message, delayMs: number): void {
    if (this.closed) return;
    if (delayMs <= 0) {
      this.state(queue).ready.push(message);
      this.dispatchSoon(queue);
      return;
    }
    // Timers may fire a millisecond early by the wall clock; "no sooner than" is checked, not assumed.
    const due = Date.now() + delayMs;
    const wait = (ms: number) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const left = due - Date.now();
        if (left > 0) return wait(left);
        this.state(queue).ready.push(message);
        this.dispatch(queue);
      }, ms);
      this.timers.add(timer);
    };
    wait(delayMs);
  }

  private dispatch(queue: string): void {
    const state = this.state(queue);
    while (state.ready.length > 0) {
      const count = state.consumers.length;
      let chosen: InProcessConsumer | undefined;
      for (let i = 0; i < count; i++) {
        const candidate = state.consumers[(state.next + i) % count]!;
        if (candidate.hasCapacity) {
          chosen = candidate;
          state.next = (state.next + i + 1) % count;
          break;
        }
      }
      if (!chosen) return;
      chosen.run(state.ready.shift()!);
    }
  }

  private state(queue: string): QueueState {
    let state = this.queues.get(queue);
    if (!state) {
      state = { ready: [], dead: [], consumers: [], next: 0 };
      this.queues.set(queue, state);
    }
    return state;
  }
}
