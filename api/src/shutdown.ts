/**
 * Graceful shutdown for the entry points: on SIGTERM or SIGINT run `stop` once (stop accepting,
 * finish in-flight work, close the queue and the database), then exit. A second signal, or a
 * stop that hangs past the grace period, exits at once.
 */
import type { Logger } from './logger.js';

export function onShutdownSignal(logger: Logger, stop: () => Promise<void>, graceMs = 30_000): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long: exiting');
      process.exit(1);
    }, graceMs);
    force.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
