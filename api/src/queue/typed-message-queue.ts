/**
 * The message queue the services and consumers use: an adapter (RabbitMQ or in-process) typed by a
 * list of queues, each name with the zod schema of its messages. queue/ knows no feature: each
 * feature keeps its list beside its service (`services/<feature>/queues.ts`) and the wiring
 * (deps.ts) joins them. A message is checked against its schema when it is consumed: a malformed
 * one (an old producer, a hand-published message) is logged and dead-lettered at once instead of
 * being cast and half-handled.
 */
import type { z } from 'zod';
import { isDatabaseUnavailable } from '../db/database.js';
import type { Logger } from '../logger.js';
import {
  PoisonMessageError,
  type ConsumeOptions,
  type Consumer,
  type MessageContext,
  type MessageQueueAdapter,
  type PublishOptions,
} from './message-queue.js';

/** Queue names and the schema of each one's messages. */
export type QueueList = Record<string, z.ZodType>;

/** What a message of queue `N` in list `L` carries (after its schema's checks). */
export type MessageOf<L extends QueueList, N extends keyof L> = z.infer<L[N]>;

/**
 * The adapter, typed by `L`. A service asks for `MessageQueue<typeof itsQueues>`: the whole
 * product's queue fits it, and the service can publish and consume only its own queues.
 */
export class MessageQueue<L extends QueueList> {
  constructor(
    /** The adapter (RabbitMQ or in-process): for readiness, dead letters and closing. */
    readonly adapter: MessageQueueAdapter,
    private readonly queues: L,
    private readonly logger: Logger,
  ) {}

  publish<N extends keyof L & string>(name: N, message: MessageOf<L, N>, options?: PublishOptions): Promise<void> {
    return this.adapter.publish(name, message, options);
  }

  consume<N extends keyof L & string>(
    name: N,
    handler: (message: MessageOf<L, N>, context: MessageContext) => Promise<void>,
    options?: ConsumeOptions,
  ): Consumer {
    const schema = this.queues[name];
    if (!schema) throw new Error(`No queue named ${name} in this message queue's list`);
    return this.adapter.consume<unknown>(
      name,
      async (payload, context) => {
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`);
          this.logger.error({ queue: name, problems }, 'malformed message: dead-lettered');
          throw new PoisonMessageError(`malformed ${name} message: ${problems.join('; ')}`);
        }
        await handler(parsed.data as MessageOf<L, N>, context);
      },
      // A lost database is an outage, not a failure of the message: ridden out without using up attempts.
      { isOutage: isDatabaseUnavailable, ...options },
    );
  }

  deadLetters<N extends keyof L & string>(name: N, options?: { drain?: boolean }): Promise<unknown[]> {
    return this.adapter.deadLetters(name, options);
  }

  ping(): Promise<void> {
    return this.adapter.ping();
  }

  available(waitMs?: number): Promise<boolean> {
    return this.adapter.available(waitMs);
  }

  close(): Promise<void> {
    return this.adapter.close();
  }
}
