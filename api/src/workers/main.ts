/**
 * The worker entry point (`pnpm --filter @mailroom/api worker`): the consumers of workers/index.ts,
 * with graceful shutdown (stop taking messages, finish running handlers, close the queue and the
 * database). Needs AMQP_URL: an in-process queue cannot be shared with the HTTP process, which then
 * runs the consumers itself. With HEALTH_PORT it answers the probes `/healthz` and `/readyz` (database
 * and broker) there, for an orchestrator's liveness and readiness checks.
 */
import express from 'express';
import { healthRouter } from '../http/routes/health.js';
import { startHttpServer } from '../http/server.js';
import { runProcess } from '../lifecycle.js';

runProcess(
  'worker',
  async ({ deps, stops }) => {
    if (deps.config.healthPort !== undefined) {
      // A worker is ready when it can consume: the database and the broker (routes/health.ts).
      const probes = express()
        .disable('x-powered-by')
        .use(healthRouter(deps, { needs: ['database', 'broker'] }));
      const health = await startHttpServer(probes, { port: deps.config.healthPort, logger: deps.logger });
      stops.add(() => health.stop());
    }
  },
  { consumers: 'always' },
);
