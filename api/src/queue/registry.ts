/**
 * Every queue of the product and the payload schema of its messages (one line per feature), and
 * the typed queue the services and consumers use. A message is checked against its schema when it
 * is consumed: a malformed one (an old producer, a hand-published message) is logged and
 * dead-lettered at once instead of being cast and half-handled.
 */
import type { z } from 'zod';
import { isDatabaseUnavailable } from '../db/database.js';
import type { Logger } from '../logger.js';
import { audienceQueues } from '../services/audiences/queues.js';
import { campaignQueues } from '../services/campaigns/queues.js';
import { importQueues } from '../services/imports/queues.js';
import { PoisonMessageError, type ConsumeOptions, type Consumer, type JobContext, type JobQueue, type PublishOptions } from './JobQueue.js';

export const QUEUES = {
  ...audienceQueues,
  ...campaignQueues,
  ...importQueues,
} satisfies Record<string, z.ZodType>;

export type QueueName = keyof typeof QUEUES;
export type JobOf<N extends QueueName> = z.infer<(typeof QUEUES)[N]>;

/** The broker adapter, typed by the registry. */
export class Queues {
  constructor(
    /** The adapter (RabbitMQ or in-process): for readiness, dead letters and closing. */
    readonly broker: JobQueue,
    private readonly logger: Logger,
  ) {}

  publish<N extends QueueName>(name: N, job: JobOf<N>, options?: PublishOptions): Promise<void> {
    return this.broker.publish(name, job, options);
  }

  consume<N extends QueueName>(
    name: N,
    handler: (job: JobOf<N>, context: JobContext) => Promise<void>,
    options?: ConsumeOptions,
  ): Consumer {
    const schema = QUEUES[name];
    return this.broker.consume<unknown>(
      name,
      async (payload, context) => {
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`);
          this.logger.error({ queue: name, problems }, 'malformed message: dead-lettered');
          throw new PoisonMessageError(`malformed ${name} message: ${problems.join('; ')}`);
        }
        await handler(parsed.data as JobOf<N>, context);
      },
      // A lost database is an outage, not a failure of the message: ridden out without using up attempts.
      { isOutage: isDatabaseUnavailable, ...options },
    );
  }

  deadLetters<N extends QueueName>(name: N, options?: { drain?: boolean }): Promise<unknown[]> {
    return this.broker.deadLetters(name, options);
  }

  ping(): Promise<void> {
    return this.broker.ping();
  }

  close(): Promise<void> {
    return this.broker.close();
  }
}
