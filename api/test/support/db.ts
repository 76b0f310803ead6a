/**
 * A fresh PostgreSQL database per test file (or per call): created on the test server, migrated,
 * dropped by `drop()`. Tests never share rows, so they run in parallel without cleaning up.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Sequelize } from 'sequelize';
import { migrate } from '../../src/db/migrate.js';
import { Database } from '../../src/db/database.js';
import { defineModels } from '../../src/db/models/index.js';
import { createSequelize } from '../../src/db/sequelize.js';

/** The server tests create their databases on (a database there to connect to first). */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  sequelize: Sequelize;
  /** The product's data layer on this database (hand it to services and repositories). */
  database: Database;
  /** Plain SQL for the tests' own setup and assertions. */
  pool: pg.Pool;
  /** Closes the connections and drops the database. */
  drop(): Promise<void>;
}

export function databaseUrl(name: string, serverUrl = TEST_SERVER_URL): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>, serverUrl = TEST_SERVER_URL): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database (no migrations), on the test server or on `serverUrl`'s. */
export async function createEmptyDatabase(serverUrl = TEST_SERVER_URL): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `mailroom_t_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`), serverUrl);
  return {
    name,
    url: databaseUrl(name, serverUrl),
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`), serverUrl).then(() => undefined),
  };
}

export async function createTestDatabase(serverUrl = TEST_SERVER_URL): Promise<TestDatabase> {
  const database = await createEmptyDatabase(serverUrl);
  try {
    await migrate({ databaseUrl: database.url });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const config = { databaseUrl: database.url, databasePoolMax: 4 };
  const sequelize = createSequelize(config);
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // A test that drops or terminates connections on purpose must not crash the runner through an idle client.
  pool.on('error', () => undefined);
  let dropped: Promise<void> | undefined;
  return {
    name: database.name,
    url: database.url,
    sequelize,
    database: new Database(sequelize, defineModels(sequelize)),
    pool,
    drop: () =>
      (dropped ??= (async () => {
        await Promise.allSettled([sequelize.close(), pool.end()]);
        await database.drop();
      })()),
  };
}
