/**
 * Schema changes, only through the SQL files in `migrations/` (NNNN_name.sql), applied in name
 * order at start. The whole run holds a PostgreSQL advisory lock, so an http process and a worker
 * starting together do not race: the second waits, then finds nothing left to do.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Umzug, type UmzugStorage } from 'umzug';
import type { Logger } from '../logger.js';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any bigint shared by every Mailroom process ("mailroom" in ASCII); a string, as it exceeds 2^53. */
const MIGRATION_LOCK_KEY = '7881708685549268845';

const TABLE = 'schema_migrations';

/**
 * Reads what has run from schema_migrations. Recording is not done here: each migration inserts
 * its own row inside its own transaction, so a crash can never leave a migration applied but
 * unrecorded (or recorded but rolled back).
 */
class SchemaMigrationsStorage implements UmzugStorage<pg.ClientBase> {
  async executed({ context }: { context: pg.ClientBase }): Promise<string[]> {
    const result = await context.query<{ name: string }>(`SELECT name FROM ${TABLE} ORDER BY name`);
    return result.rows.map((row) => row.name);
  }
  async logMigration(): Promise<void> {}
  async unlogMigration({ name, context }: { name: string; context: pg.ClientBase }): Promise<void> {
    await context.query(`DELETE FROM ${TABLE} WHERE name = $1`, [name]);
  }
}

export interface MigrateOptions {
  databaseUrl: string;
  logger?: Logger;
  /** Defaults to the migrations shipped with the API. */
  directory?: string;
}

/** Applies every pending migration; returns the names applied by this call. */
export async function migrate({ databaseUrl, logger, directory = MIGRATIONS_DIR }: MigrateOptions): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const umzug = new Umzug<pg.ClientBase>({
        // Name order is the contract, so list and sort the files ourselves.
        migrations: async () =>
          (await readdir(directory))
            .filter((file) => /^\d+_.+\.sql$/.test(file))
            .sort()
            .map((name) => ({
              name,
              up: async ({ context }: { context: pg.ClientBase }) => {
                const sql = await readFile(join(directory, name), 'utf8');
                await context.query('BEGIN');
                try {
                  await context.query(sql);
                  await context.query(`INSERT INTO ${TABLE} (name) VALUES ($1)`, [name]);
                  await context.query('COMMIT');
                } catch (error) {
                  await context.query('ROLLBACK');
                  throw error;
                }
              },
            })),
        context: client,
        storage: new SchemaMigrationsStorage(),
        logger: logger
          ? {
              info: (message) => logger.info(message, 'migration'),
              warn: (message) => logger.warn(message, 'migration'),
              error: (message) => logger.error(message, 'migration'),
              debug: (message) => logger.debug(message, 'migration'),
            }
          : undefined,
      });
      const applied = await umzug.up();
      return applied.map((m) => m.name);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}
