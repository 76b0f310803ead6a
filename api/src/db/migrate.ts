/**
 * Schema changes, only through the SQL files in `migrations/` (NNNN_name.sql), applied in name
 * order at start. The whole run holds a PostgreSQL advisory lock, so an http process and a worker
 * starting together do not race: the second waits, then finds nothing left to do.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** The migrations shipped with this code, in the order they apply. */
async function shippedMigrations(directory: string): Promise<string[]> {
  return (await readdir(directory)).filter((file) => /^\d+_.+\.sql$/.test(file)).sort();
}

/** Thrown when the database still lacks migrations this code needs after the wait. */
export class SchemaNotCurrentError extends Error {
  constructor(readonly pending: readonly string[]) {
    super(
      `The database schema is not current: ${pending.length} migration(s) pending (${pending.join(', ')}). ` +
        "Run the migration step first (the image's `migrate` command: the Kubernetes Job, the compose service `migrate`).",
    );
    this.name = 'SchemaNotCurrentError';
  }
}

export interface WaitForSchemaOptions {
  databaseUrl: string;
  logger?: Logger;
  /** How long to wait for the migration step before refusing to start. */
  timeoutMs: number;
  /** Between two looks at schema_migrations. */
  intervalMs?: number;
  directory?: string;
}

/**
 * Production's start (NODE_ENV=production): the migrations are the migration step's (a Job, a one-off
 * service), so a process never changes the schema and never starts on an older one. It waits until
 * every migration it ships is recorded, as the step may still be running when the process starts, then
 * refuses with SchemaNotCurrentError. Migrations the database has and this code does not are
 * allowed: the processes of the previous version keep running while a rollout applies the next one.
 * A database that cannot be reached is waited for the same way.
 */
export async function waitForSchema({
  databaseUrl,
  logger,
  timeoutMs,
  intervalMs = 2000,
  directory = MIGRATIONS_DIR,
}: WaitForSchemaOptions) {
  const shipped = await shippedMigrations(directory);
  const deadline = Date.now() + timeoutMs;
  let told = false;
  let toldUnreachable = false;
  for (;;) {
    const pending = await pendingMigrations(databaseUrl, shipped).catch((error: unknown) => {
      if (!toldUnreachable) logger?.warn({ err: error }, 'the database cannot be read yet: waiting for it');
      toldUnreachable = true;
      return shipped;
    });
    if (pending.length === 0) return;
    if (Date.now() >= deadline) throw new SchemaNotCurrentError(pending);
    if (!told) {
      logger?.warn({ pending }, 'waiting for the migration step: the database lacks migrations this version needs');
      told = true;
    }
    await sleep(intervalMs);
  }
}

async function pendingMigrations(databaseUrl: string, shipped: readonly string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const exists = await client.query<{ table: string | null }>('SELECT to_regclass($1) AS table', [TABLE]);
    if (exists.rows[0]?.table === null) return [...shipped];
    const applied = new Set((await client.query<{ name: string }>(`SELECT name FROM ${TABLE}`)).rows.map((row) => row.name));
    return shipped.filter((name) => !applied.has(name));
  } finally {
    await client.end();
  }
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
          (await shippedMigrations(directory)).map((name) => ({
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
