/**
 * The SQL migrations are the source of truth for the schema; the Sequelize models must describe the
 * same tables. This fails when a migration adds, drops or changes a column that a model does not
 * follow (or the other way round), so the two never drift apart silently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Model, ModelAttributeColumnOptions, ModelStatic } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { defineModels, SQL_ONLY_TABLES } from './index.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(() => db?.drop());

/** information_schema's data_type for each Sequelize type the models use. */
const SQL_TYPE: Record<string, string> = {
  BIGINT: 'bigint',
  INTEGER: 'integer',
  TEXT: 'text',
  JSONB: 'jsonb',
  BOOLEAN: 'boolean',
  DATE: 'timestamp with time zone',
  'DOUBLE PRECISION': 'double precision',
  UUID: 'uuid',
};

interface Column {
  name: string;
  type: string;
  nullable: boolean;
}

describe('the models match the migrated schema', () => {
  it('has a model for every table but those only SQL writes, and the same columns, types and nullability', async () => {
    const models = defineModels(db.sequelize);
    const { rows } = await db.pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name, column_name`,
    );
    const schema = new Map<string, Column[]>();
    for (const row of rows) {
      if (SQL_ONLY_TABLES.includes(row.table_name)) continue;
      const columns = schema.get(row.table_name) ?? [];
      columns.push({ name: row.column_name, type: row.data_type, nullable: row.is_nullable === 'YES' });
      schema.set(row.table_name, columns);
    }

    const described = new Map<string, Column[]>();
    for (const model of Object.values(models)) {
      const attributes: ModelAttributeColumnOptions[] = Object.values((model as ModelStatic<Model>).getAttributes());
      const columns = attributes.map((attribute) => {
        const key = (attribute.type as { key?: string }).key ?? String(attribute.type);
        return {
          name: (attribute as { field?: string }).field ?? '',
          type: SQL_TYPE[key] ?? `unknown Sequelize type ${key}`,
          // Primary keys are NOT NULL in SQL whatever the model says.
          nullable: attribute.primaryKey ? false : attribute.allowNull !== false,
        };
      });
      described.set(
        (model as ModelStatic<Model>).getTableName() as string,
        columns.sort((a, b) => a.name.localeCompare(b.name)),
      );
    }

    // The tables without a model do exist: a renamed table is not silently skipped.
    for (const table of SQL_ONLY_TABLES)
      expect(
        rows.some((row) => row.table_name === table),
        table,
      ).toBe(true);
    expect([...described.keys()].sort()).toEqual([...schema.keys()].sort());
    for (const [table, columns] of schema) expect({ table, columns: described.get(table) }).toEqual({ table, columns });
  });
});

/** The application's sources outside db/ (tests left out): where a model is of use. */
function sourcesOutsideDb(): string[] {
  const src = join(dirname(fileURLToPath(import.meta.url)), '../..');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('db/'))
    .map((file) => readFileSync(join(src, file), 'utf8'));
}

describe('the models are of use', () => {
  it('has no model that nothing outside db/ reads or writes through (a table reached only by SQL has none)', async () => {
    const models = defineModels(db.sequelize);
    const sources = sourcesOutsideDb().filter((source) => source.includes('db.models'));
    const unused = Object.keys(models).filter((name) => !sources.some((source) => new RegExp(`\\b${name}\\b`).test(source)));
    expect(unused).toEqual([]);
  });
});
