import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { InProcessMessageQueue } from './in-process.js';
import type { MessageQueueAdapter } from './message-queue.js';
import { RabbitMqMessageQueue } from './rabbitmq.js';

export type * from './message-queue.js';
export { InProcessMessageQueue, RabbitMqMessageQueue };

/**
 * RabbitMQ when AMQP_URL is set; otherwise the in-process queue (single process only).
 * `publishWaitMs`: how long a publish waits for a broker that is away (RabbitMqMessageQueueOptions).
 */
export function createMessageQueueAdapter(
  config: Pick<Config, 'amqpUrl' | 'queuePrefix'>,
  logger: Logger,
  options: { publishWaitMs?: number } = {},
): MessageQueueAdapter {
  const queueLogger = logger.child({ component: 'queue' });
  return config.amqpUrl
    ? new RabbitMqMessageQueue(config.amqpUrl, queueLogger, { prefix: config.queuePrefix, ...options })
    : new InProcessMessageQueue(queueLogger);
}
