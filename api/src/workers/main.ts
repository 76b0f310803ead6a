/**
 * The worker entry point (`pnpm --filter @mailroom/api worker`): configuration, migrations, the
 * consumers of workers/index.ts, graceful shutdown (stop taking messages, finish running handlers,
 * close the queue and the database). Needs AMQP_URL: an in-process queue cannot be shared with
 * the HTTP process, which then runs the consumers itself.
 */
import { loadConfig } from '../config.js';
import { migrate } from '../db/migrate.js';
import { closeDeps, createDeps } from '../deps.js';
import { createLogger } from '../logger.js';
import { onShutdownSignal } from '../shutdown.js';
import { startWorkers } from './index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.amqpUrl) {
    throw new Error('The worker needs AMQP_URL; without a broker the HTTP process runs the consumers itself');
  }
  const logger = createLogger(config, { process: 'worker' });
  // Listening for signals from the start: a stop during start-up is graceful too. Steps run in order.
  const stops: (() => Promise<void>)[] = [];
  onShutdownSignal(logger, async () => {
    for (const stop of stops) await stop();
  });

  await migrate({ databaseUrl: config.databaseUrl, logger });
  const deps = await createDeps(config, { logger });
  stops.unshift(() => closeDeps(deps));
  const workers = await startWorkers(deps);
  stops.unshift(() => workers.close());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
