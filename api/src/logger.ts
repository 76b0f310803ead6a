import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * One JSON logger per process; children carry the component (http, worker, queue...). Lines carry
 * the pid: the HTTP entry may run several processes (http/cluster.ts).
 */
export function createLogger(config: Pick<Config, 'logLevel'>, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'mailroom-api', pid: process.pid, ...bindings },
    // Bearer tokens never reach the logs, even at trace level.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}
