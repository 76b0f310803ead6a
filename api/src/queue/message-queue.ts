/**
 * The message queue behind every slow piece of work (contact import, campaign send, audience delete...).
 * PostgreSQL holds the record; a message only says "do this piece of work", so every handler
 * must be idempotent: delivery is at least once.
 *
 * Two adapters implement it and pass one contract test (queue.contract.test.ts):
 *  - RabbitMqMessageQueue (rabbitmq-client): durable quorum queues, persistent messages, publisher
 *    confirms, manual ack, bounded prefetch, retry through a delay queue with TTL, dead-letter queue.
 *  - InProcessMessageQueue: the embedded default when no AMQP_URL is set (single process only).
 */

/**
 * A queue's name as the broker knows it (before the prefix); each feature types its own in
 * services/<feature>/queues.ts (typed-message-queue.ts).
 */
export type QueueName = string;

export interface PublishOptions {
  /** Deliver no sooner than this many milliseconds from now. */
  delayMs?: number;
}

export interface ConsumeOptions {
  /** Messages handled at once by this consumer (the broker's prefetch). Default 1. */
  concurrency?: number;
  /** Attempts before a message goes to the dead-letter queue. Default 5. */
  maxAttempts?: number;
  /** Delay before attempt n+1 (n starts at 1). Default: exponential from 1 s, capped at 5 min. */
  retryDelayMs?: (attempt: number) => number;
  /**
   * True for an error that says a dependency is down (the database): the message is tried again
   * after 1, 2, 4, then every 5 s, without using up an attempt, so an outage never dead-letters it
   * (for up to an hour; then its failures count again). Default: none.
   */
  isOutage?: (error: unknown) => boolean;
}

export interface MessageContext {
  /** 1 on the first delivery, then 2, 3... */
  attempt: number;
}

/**
 * Thrown by a handler for a message that no attempt can ever handle (a malformed payload): it goes
 * to the dead-letter queue at once instead of being retried.
 */
export class PoisonMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonMessageError';
  }
}

/**
 * Thrown by publish when the broker stayed away for longer than the queue waits for it (its
 * `publishWaitMs`): the message was not published, or at least not confirmed. An HTTP call that
 * meets it answers 503 (http/errors.ts); a consumer that meets it lets its message be redelivered.
 */
export class BrokerUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The message broker is unavailable', options);
    this.name = 'BrokerUnavailableError';
  }
}

/** Resolves: acked. Throws: retried after a delay, dead-lettered after maxAttempts (at once for PoisonMessageError). */
export type MessageHandler<T> = (payload: T, context: MessageContext) => Promise<void>;

export interface Consumer {
  /** Stops taking messages and resolves once every running handler has finished. */
  close(): Promise<void>;
}

export interface MessageQueueAdapter {
  /** Resolves once the broker has confirmed the message (persisted); BrokerUnavailableError when it stayed away too long. */
  publish<T>(queue: QueueName, payload: T, options?: PublishOptions): Promise<void>;
  consume<T>(queue: QueueName, handler: MessageHandler<T>, options?: ConsumeOptions): Consumer;
  /** Payloads in the dead-letter queue of `queue` (for tests and operators); removes them when `drain`. */
  deadLetters<T>(queue: QueueName, options?: { drain?: boolean }): Promise<T[]>;
  /** Resolves when the queue can take work (broker connected); rejects otherwise. For readiness checks. */
  ping(): Promise<void>;
  /**
   * True at once when the queue can take work; otherwise waits up to `waitMs` (default: as long as
   * a publish waits) for the broker to come back, and answers false if it did not. For calls that
   * must not start what they could not queue (http/publishing-calls.ts), and for the quota bar's
   * "paused" (`0`: now, without waiting).
   */
  available(waitMs?: number): Promise<boolean>;
  /** Closes every consumer (waiting for running handlers), then the connection. */
  close(): Promise<void>;
}
