/**
 * The wiring every entry point shares (http, worker, the one-command stack, tests): one place that
 * turns a Config into live dependencies, and one that closes them in the right order.
 */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type pg from 'pg';
import type { Sequelize } from 'sequelize';
import { createTokenVerifier, type TokenVerifier } from './auth/verifier.js';
import type { Config } from './config.js';
import { defineModels, type Models } from './db/models/index.js';
import { createPool } from './db/pool.js';
import { createSequelize } from './db/sequelize.js';
import { createLogger, type Logger } from './logger.js';
import { createSesClient } from './mail/ses.js';
import { createJobQueue } from './queue/index.js';
import type { JobQueue } from './queue/JobQueue.js';

export interface AppDeps {
  config: Readonly<Config>;
  logger: Logger;
  sequelize: Sequelize;
  /** The models of every table, defined on `sequelize`. */
  models: Models;
  /** Raw SQL and COPY. */
  pool: pg.Pool;
  queue: JobQueue;
  ses: SESv2Client;
  verifier: TokenVerifier;
}

/** Builds every dependency from the configuration; `overrides` replace single pieces (tests, stack). */
export async function createDeps(config: Readonly<Config>, overrides: Partial<AppDeps> = {}): Promise<AppDeps> {
  const logger = overrides.logger ?? createLogger(config);
  const sequelize = overrides.sequelize ?? createSequelize(config, logger.child({ component: 'db' }));
  return {
    config,
    logger,
    sequelize,
    models: overrides.models ?? defineModels(sequelize),
    pool: overrides.pool ?? createPool(config, { onIdleError: (error) => logger.warn({ err: error }, 'idle database connection lost') }),
    queue: overrides.queue ?? createJobQueue(config, logger),
    ses: overrides.ses ?? createSesClient(config),
    verifier:
      overrides.verifier ??
      createTokenVerifier({
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        orgEmailDomain: config.orgEmailDomain,
        jwksUri: config.oidc.jwksUri,
      }),
  };
}

/**
 * Closes what createDeps opened. The queue first: its close waits for running handlers, which
 * still need the database.
 */
export async function closeDeps(deps: AppDeps): Promise<void> {
  const errors: unknown[] = [];
  const step = async (work: () => Promise<unknown> | void) => {
    try {
      await work();
    } catch (error) {
      errors.push(error);
    }
  };
  await step(() => deps.queue.close());
  await Promise.all([step(() => deps.sequelize.close()), step(() => deps.pool.end())]);
  await step(() => deps.ses.destroy());
  if (errors.length > 0) throw new AggregateError(errors, 'Some dependencies did not close cleanly');
}
