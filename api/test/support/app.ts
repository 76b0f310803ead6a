/**
 * The whole API against a fresh database, as the entry points wire it (createDeps), with response
 * validation on and the contract coverage log honoured:
 *
 *   const t = await createTestApp();                       // in-process queue
 *   const t = await createTestApp({ queue: 'rabbitmq' });  // real broker, queues private to this app
 *   await request(t.app).get('/api/ses-quota').set('Authorization', await bearer());
 *   afterAll(() => t.close());
 */
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { loadConfig, type Config } from '../../src/config.js';
import { closeDeps, createDeps, type AppDeps, type DepsOverrides } from '../../src/deps.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { RabbitMqMessageQueue } from '../../src/queue/rabbitmq.js';
import type { TokenVerifier } from '../../src/auth/verifier.js';
import { startWorkers, type WorkerRegistration, type Workers } from '../../src/workers/index.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { OPERATION_LOG_PATH } from './operation-log.js';
import { testAudience, testIssuer, testOrgEmailDomain, testVerifier } from './tokens.js';

export const TEST_AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

export interface TestAppOptions {
  /** 'in-process' (default) or 'rabbitmq' (queue names prefixed per app, deleted on close). */
  queue?: 'in-process' | 'rabbitmq';
  /** Start the consumers of workers/index.ts (or of the given list) in this process. */
  workers?: boolean | WorkerRegistration[];
  /** Defaults to the verifier of test/support/tokens.ts (tokens from `mintToken()`/`bearer()`). */
  verifier?: TokenVerifier;
  /** Defaults to a client of SES_ENDPOINT (unset: nothing listens; start one with startTestSes()). */
  ses?: SESv2Client;
  /** Extra environment for loadConfig (e.g. AUTHORIZED_SENDER_EMAILS, IMPORT_MAX_BYTES). */
  env?: Record<string, string | undefined>;
  /** Replace single dependencies (after everything else). */
  deps?: DepsOverrides;
  /** The PostgreSQL server the test database is created on (default: the test server). */
  serverUrl?: string;
  /** The app reaches its database at this URL instead (e.g. through test/support/tcp-proxy.ts), with its own connections. */
  databaseUrl?: (testDatabaseUrl: string) => string;
}

export interface TestApp {
  app: Express;
  deps: AppDeps;
  config: Readonly<Config>;
  db: TestDatabase;
  workers: Workers | undefined;
  /** Stops the workers, closes the dependencies, drops the database. */
  close(): Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(options.serverUrl);
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      DATABASE_URL: options.databaseUrl?.(db.url) ?? db.url,
      OIDC_ISSUER: testIssuer,
      OIDC_AUDIENCE: testAudience,
      ORG_EMAIL_DOMAIN: testOrgEmailDomain,
      SES_ENDPOINT: process.env.TEST_SES_ENDPOINT ?? 'http://127.0.0.1:9',
      VALIDATE_RESPONSES: 'true',
      MAILROOM_OPERATION_LOG: OPERATION_LOG_PATH,
      ...(options.queue === 'rabbitmq' ? { AMQP_URL: TEST_AMQP_URL } : {}),
      ...options.env,
    });
    const logger = options.deps?.logger ?? createLogger(config);
    const queue =
      options.queue === 'rabbitmq'
        ? new RabbitMqMessageQueue(config.amqpUrl ?? TEST_AMQP_URL, logger.child({ component: 'queue' }), {
            prefix: `t-${randomBytes(5).toString('hex')}.`,
            deleteQueuesOnClose: true,
          })
        : undefined;
    const deps = await createDeps(config, {
      logger,
      ...(options.databaseUrl ? {} : { sequelize: db.sequelize }),
      verifier: options.verifier ?? testVerifier({ rolesClaim: config.roles.claim, roleMap: config.roles.map }),
      ...(queue ? { messageQueueAdapter: queue } : {}),
      ...(options.ses ? { ses: options.ses } : {}),
      ...options.deps,
    });
    const workers = options.workers ? await startWorkers(deps, Array.isArray(options.workers) ? options.workers : undefined) : undefined;
    let closed: Promise<void> | undefined;
    return {
      app: createApp(deps),
      deps,
      config,
      db,
      workers,
      close: () =>
        (closed ??= (async () => {
          await workers?.close();
          await closeDeps(deps).catch(() => {});
          await db.drop();
        })()),
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
