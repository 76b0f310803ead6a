import pg from 'pg';
import { Sequelize } from 'sequelize';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

// bigserial ids and COUNT(*) are int8, which pg returns as strings by default. Every id and count
// of Mailroom stays far below 2^53, and the API's JSON uses numbers, so parse them once here (raw
// SQL on Sequelize's connections reads them the same way).
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export function createSequelize(config: Pick<Config, 'databaseUrl' | 'databasePoolMax'>, logger?: Logger): Sequelize {
  return new Sequelize(config.databaseUrl, {
    dialect: 'postgres',
    // pnpm keeps packages apart: hand Sequelize our pg instead of letting it require its own.
    dialectModule: pg,
    logging: logger?.isLevelEnabled('debug') ? (sql: string) => logger.debug({ sql }, 'sql') : false,
    // Two cores: a handful of connections keeps PostgreSQL busy without queuing inside it. A
    // connection that breaks is marked invalid and dropped by Sequelize's own error listener.
    pool: { max: config.databasePoolMax, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true, freezeTableName: true },
  });
}
