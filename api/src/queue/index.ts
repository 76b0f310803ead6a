import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { InProcessJobQueue } from './in-process.js';
import type { JobQueue } from './JobQueue.js';
import { RabbitMqJobQueue } from './rabbitmq.js';

export type * from './JobQueue.js';
export { InProcessJobQueue, RabbitMqJobQueue };

/** RabbitMQ when AMQP_URL is set; otherwise the in-process queue (single process only). */
export function createJobQueue(config: Pick<Config, 'amqpUrl' | 'queuePrefix'>, logger: Logger): JobQueue {
  const queueLogger = logger.child({ component: 'queue' });
  return config.amqpUrl
    ? new RabbitMqJobQueue(config.amqpUrl, queueLogger, { prefix: config.queuePrefix })
    : new InProcessJobQueue(queueLogger);
}
