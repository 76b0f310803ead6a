import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dumpMigratedSchema, SCHEMA_FILE } from '../../test/support/schema-dump.js';

describe('schema.sql', () => {
  it('is what the migrations make of an empty database (run `pnpm --filter @mailroom/api schema` after adding one)', async () => {
    const checkedIn = await readFile(SCHEMA_FILE, 'utf8');
    const migrated = await dumpMigratedSchema();
    // As strings, so a failure prints the lines that differ.
    expect(checkedIn).toBe(migrated);
  });
});
