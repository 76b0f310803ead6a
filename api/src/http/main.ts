/**
 * The HTTP entry point (`pnpm --filter @mailroom/api http`): the app, with graceful shutdown.
 * With AMQP_URL there are HTTP_PROCESSES of them on the port (one per core by default; cluster.ts).
 * With no AMQP_URL the queue lives in this process, so its consumers do too (lifecycle.ts starts
 * them), and there is one.
 */
import cluster from 'node:cluster';
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { runProcess } from '../lifecycle.js';
import { createApp } from './app.js';
import { runHttpCluster } from './cluster.js';
import { REQUEST_PUBLISH_WAIT_MS } from './publishing-calls.js';
import { startHttpServer } from './server.js';

const clustered = cluster.isPrimary ? clusterConfig() : undefined;
if (clustered) runHttpCluster(clustered.httpProcesses, createLogger(clustered, { process: 'http' }));
else
  runProcess(
    'http',
    async ({ deps, stops }) => {
      const http = await startHttpServer(createApp(deps), { port: deps.config.port, logger: deps.logger });
      // First stop accepting and answer the requests in flight, then the consumers, then the rest.
      stops.add(() => http.stop());
    },
    { consumers: 'without-broker', publishWaitMs: REQUEST_PUBLISH_WAIT_MS },
  );

/** The configuration when it asks for several processes; a configuration that does not load is reported by runProcess. */
function clusterConfig(): Config | undefined {
  try {
    const config = loadConfig();
    return config.httpProcesses > 1 ? config : undefined;
  } catch {
    return undefined;
  }
}
