/** Writes api/src/db/schema.sql from the migrations (`pnpm --filter @mailroom/api schema`). */
import { writeFile } from 'node:fs/promises';
import { dumpMigratedSchema, SCHEMA_FILE } from './support/schema-dump.js';

await writeFile(SCHEMA_FILE, await dumpMigratedSchema());
console.log(`wrote ${SCHEMA_FILE.pathname}`);
