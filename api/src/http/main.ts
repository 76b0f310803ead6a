/**
 * The HTTP entry point (`pnpm --filter @mailroom/api http`): configuration, migrations, the app,
 * graceful shutdown. With no AMQP_URL the queue lives in this process, so its consumers do too.
 */
import { loadConfig } from '../config.js';
import { migrate } from '../db/migrate.js';
import { closeDeps, createDeps } from '../deps.js';
import { createLogger } from '../logger.js';
import { onShutdownSignal } from '../shutdown.js';
import { startWorkers } from '../workers/index.js';
import { createApp } from './app.js';
import { startHttpServer } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config, { process: 'http' });
  // Listening for signals from the start: a stop during start-up is graceful too. Steps run in order.
  const stops: (() => Promise<void>)[] = [];
  onShutdownSignal(logger, async () => {
    for (const stop of stops) await stop();
  });

  await migrate({ databaseUrl: config.databaseUrl, logger });
  const deps = await createDeps(config, { logger });
  stops.unshift(() => closeDeps(deps));
  if (!config.amqpUrl) {
    logger.info('no AMQP_URL: in-process queue, consumers run in this process');
    const workers = await startWorkers(deps);
    stops.unshift(() => workers.close());
  }
  const http = await startHttpServer(createApp(deps), { port: config.port, logger });
  // First stop accepting and answer the requests in flight, then the workers, then the rest.
  stops.unshift(() => http.stop());
}

main().catch((error: unknown) => {
  // The logger may not exist yet (bad configuration): plain stderr, readable.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
