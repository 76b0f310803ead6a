/**
 * The HTTP entry point (`pnpm --filter @mailroom/api http`): the app, with graceful shutdown.
 * With no AMQP_URL the queue lives in this process, so its consumers do too.
 */
import { runProcess } from '../shutdown.js';
import { startWorkers } from '../workers/index.js';
import { createApp } from './app.js';
import { startHttpServer } from './server.js';

runProcess('http', async ({ deps, stops }) => {
  if (!deps.config.amqpUrl) {
    deps.logger.info('no AMQP_URL: in-process queue, consumers run in this process');
    const workers = await startWorkers(deps);
    stops.add(() => workers.close());
  }
  const http = await startHttpServer(createApp(deps), { port: deps.config.port, logger: deps.logger });
  // First stop accepting and answer the requests in flight, then the workers, then the rest.
  stops.add(() => http.stop());
});
