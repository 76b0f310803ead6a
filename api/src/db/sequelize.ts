import pg from 'pg';
import { Sequelize } from 'sequelize';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
// Importing the pool module installs the shared int8 type parser before any connection is made.
import './pool.js';

export function createSequelize(config: Pick<Config, 'databaseUrl' | 'databasePoolMax'>, logger?: Logger): Sequelize {
  return new Sequelize(config.databaseUrl, {
    dialect: 'postgres',
    // pnpm keeps packages apart: hand Sequelize our pg instead of letting it require its own.
    dialectModule: pg,
    logging: logger?.isLevelEnabled('debug') ? (sql: string) => logger.debug({ sql }, 'sql') : false,
    // Two cores: a handful of connections keeps PostgreSQL busy without queuing inside it.
    pool: { max: config.databasePoolMax, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true, freezeTableName: true },
  });
}
