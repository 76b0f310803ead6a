/**
 * The schema as one file (`api/src/db/schema.sql`): an empty database migrated from nothing, dumped by
 * pg_dump with what changes from run to run (the server's version, session settings, owners) left out,
 * so a reader sees every table, index, function and trigger in one place. The migrations stay the
 * source of truth; `schema.test.ts` fails when the file and the migrations disagree.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { migrate } from '../../src/db/migrate.js';
import { createEmptyDatabase } from './db.js';

const run = promisify(execFile);

export const SCHEMA_FILE = new URL('../../src/db/schema.sql', import.meta.url);

const HEADER = `-- Mailroom's schema as the migrations in api/src/db/migrations leave it, for reading: never applied.
-- Made by \`pnpm --filter @mailroom/api schema\`; api/src/db/schema.test.ts fails when it is out of date.
`;

/** pg_dump's text without the lines that vary between servers and runs (versions, SET, empty comments). */
export function normaliseDump(dump: string): string {
  const kept = dump
    .split('\n')
    .filter((line) => !/^(SET |SELECT pg_catalog\.set_config|-- Dumped (from|by)|\\restrict|\\unrestrict)/.test(line))
    .join('\n');
  // pg_dump separates objects with "--\n-- Name: ...\n--" blocks; keep them, but no runs of blank lines.
  return HEADER + kept.replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

/** Migrates a new empty database and returns its normalised dump (the database is dropped after). */
export async function dumpMigratedSchema(): Promise<string> {
  const database = await createEmptyDatabase();
  try {
    await migrate({ databaseUrl: database.url });
    const { stdout } = await run('pg_dump', ['--schema-only', '--no-owner', '--no-privileges', '--no-tablespaces', database.url], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return normaliseDump(stdout);
  } finally {
    await database.drop();
  }
}
