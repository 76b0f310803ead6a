/**
 * Raw PostgreSQL access (pg.Pool) for what Sequelize does badly: COPY streams, bulk
 * INSERT ... SELECT, conditional claims. Sequelize and this pool share the same type parsing.
 */
import pg from 'pg';
import type { Config } from '../config.js';

// bigserial ids and COUNT(*) are int8, which pg returns as strings by default. Every id and
// count of Mailroom stays far below 2^53, and the API's JSON uses numbers, so parse them once here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type Pool = pg.Pool;

export function createPool(
  config: Pick<Config, 'databaseUrl' | 'databasePoolMax'>,
  options: { max?: number; onIdleError?: (error: Error) => void } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    // Raw SQL is for a few heavy statements at a time; Sequelize holds the general pool.
    max: options.max ?? Math.max(2, Math.ceil(config.databasePoolMax / 2)),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 10_000,
  });
  // An idle client whose connection the server ends (a restart, a failover, a terminated backend) is
  // reported on the pool; unheard, that event would crash the process. pg has already dropped the
  // client, and the next query opens a new connection, so it only needs to be recorded.
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

export { pg };
