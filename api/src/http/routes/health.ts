/**
 * Liveness and readiness probes (public, outside /api).
 *
 * Ready means "this process can serve what it is for". The API needs the database only: while the
 * broker is away it still serves lists, reports, the tracking pixel and clicks, the unsubscribe page
 * and SES events, and refuses the calls that publish with 503 (http/publishing-calls.ts), so a broker
 * outage must not take it out of the balancer. A worker consumes, so it needs both. Every check is
 * reported either way, so that an operator reads the broker's state from the API's probe too.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.js';

const CHECK_TIMEOUT_MS = 2_000;

type DependencyState = 'up' | 'down';
export type Dependency = 'database' | 'broker';

export interface HealthOptions {
  /** What readiness needs (default: the database, as the API does); the others are reported only. */
  needs?: Dependency[];
}

export function healthRouter(deps: Pick<AppDeps, 'db' | 'messageQueue' | 'logger'>, options: HealthOptions = {}): Router {
  const needs = new Set(options.needs ?? ['database']);
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const [database, broker] = await Promise.all([check(() => deps.db.ping()), check(() => deps.messageQueue.ping())]);
    const checks = { database, broker };
    const missing = (Object.keys(checks) as Dependency[]).filter((name) => needs.has(name) && checks[name] === 'down');
    const ready = missing.length === 0;
    if (!ready) deps.logger.warn(checks, 'not ready');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      checks,
      ...(ready ? {} : { message: unavailableMessage(missing) }),
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

const NAMES: Record<Dependency, string> = { database: 'database', broker: 'message broker' };

function unavailableMessage(missing: Dependency[]): string {
  return `Not ready: ${missing.map((name) => NAMES[name]).join(' and ')} unavailable`;
}
