/**
 * `pnpm --filter @mailroom/api migrate` (the image's `migrate` command): applies the pending
 * migrations, then exits; 0 when the schema is current. Run before the API and the workers of a new
 * version roll out (a Kubernetes Job, the compose file's one-off service), so a migration that fails
 * stops the deployment instead of every new process. With NODE_ENV=production the http and worker
 * entry points only wait for it (SCHEMA_WAIT_SECONDS) and never migrate; elsewhere they migrate at start
 * under the same advisory lock.
 */
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { migrate } from './migrate.js';

let config: Readonly<Config>;
try {
  config = loadConfig(process.env, { role: 'migrate' });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const logger = createLogger(config, { process: 'migrate' });
try {
  const applied = await migrate({ databaseUrl: config.databaseUrl, logger });
  logger.info({ applied }, applied.length > 0 ? 'migrations applied' : 'no migration pending');
} catch (error) {
  logger.error({ err: error }, 'migration failed');
  process.exitCode = 1;
}
