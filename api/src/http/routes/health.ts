/** Liveness and readiness probes (public, outside /api). */
import { Router } from 'express';
import type { AppDeps } from '../../deps.js';

const CHECK_TIMEOUT_MS = 2_000;

type DependencyState = 'up' | 'down';

export function healthRouter(deps: Pick<AppDeps, 'db' | 'queue' | 'logger'>): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const [database, broker] = await Promise.all([check(() => deps.db.query('SELECT 1')), check(() => deps.queue.ping())]);
    const ready = database === 'up' && broker === 'up';
    if (!ready) deps.logger.warn({ database, broker }, 'not ready');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      checks: { database, broker },
      ...(ready ? {} : { message: unavailableMessage(database, broker) }),
    });
  });

  return router;
}

async function check(probe: () => Promise<unknown>): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

function unavailableMessage(database: DependencyState, broker: DependencyState): string {
  const down = [database === 'down' ? 'database' : undefined, broker === 'down' ? 'message broker' : undefined].filter(Boolean);
  return `Not ready: ${down.join(' and ')} unavailable`;
}
