import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { InProcessJobQueue } from './in-process.js';
import type { JobQueue } from './JobQueue.js';
import { RabbitMqJobQueue } from './rabbitmq.js';

export type * from './JobQueue.js';
export { InProcessJobQueue, RabbitMqJobQueue };

/**
 * RabbitMQ when AMQP_URL is set; otherwise the in-process queue (single process only).
 * `publishWaitMs`: how long a publish waits for a broker that is away (RabbitMqJobQueueOptions).
 */
export function createJobQueue(
  config: Pick<Config, 'amqpUrl' | 'queuePrefix'>,
  logger: Logger,
  options: { publishWaitMs?: number } = {},
): JobQueue {
  const queueLogger = logger.child({ component: 'queue' });
  return config.amqpUrl
    ? new RabbitMqJobQueue(config.amqpUrl, queueLogger, { prefix: config.queuePrefix, ...options })
    : new InProcessJobQueue(queueLogger);
}
