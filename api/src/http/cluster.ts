/**
 * Several HTTP processes on one port (node:cluster, `HTTP_PROCESSES`): a Node process answers on one
 * core, and the public routes of a large campaign (its pixel and clicks) keep more than one busy.
 * This primary process serves nothing. It starts the processes; starts another when one that had
 * been serving dies; and stops them all on SIGTERM or SIGINT, each gracefully, as a single process
 * stops. A process that dies before it listened (a bad setting, no database) stops the others and
 * the entry fails, as one process would.
 *
 * The processes share nothing but the database and the broker: each keeps its own rate-limit
 * counters and tracking buffer (README, "Authentication before bodies" and "Tracking").
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../logger.js';

/** A process that served and died is replaced after this long, so a crash loop does not spin. */
const RESTART_DELAY_MS = 1000;

export function runHttpCluster(processes: number, logger: Logger): void {
  const alive = new Set<Worker>();
  const listened = new WeakSet<Worker>();
  let stopping = false;
  let failed = false;

  const start = () => {
    const worker = cluster.fork();
    alive.add(worker);
  };

  const stop = () => {
    if (stopping) {
      logger.warn('second signal: stopping the HTTP processes now');
      for (const worker of alive) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    logger.info({ processes: alive.size }, 'stopping the HTTP processes');
    for (const worker of alive) worker.process.kill('SIGTERM');
  };

  cluster.on('listening', (worker) => listened.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
    } else if (listened.has(worker)) {
      logger.error({ pid: worker.process.pid, code, signal }, 'an HTTP process stopped; starting another');
      setTimeout(() => stopping || start(), RESTART_DELAY_MS);
    } else {
      logger.error({ pid: worker.process.pid, code, signal }, 'an HTTP process failed to start; stopping the others');
      failed = true;
      stop();
    }
    if (stopping && alive.size === 0) process.exit(failed ? 1 : 0);
  });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  logger.info({ processes }, 'starting the HTTP processes');
  for (let i = 0; i < processes; i++) start();
}
