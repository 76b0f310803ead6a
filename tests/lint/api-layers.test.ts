import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The workspace's own eslint.config.js on snippets linted as if they were files of the API: the
// layers of docs/architecture.md (Layers) fail the lint where an arrow points the wrong way, and
// SQL outside a repository fails it too.

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

// Real files (the typed rules need a file their tsconfig includes); their text is replaced by the snippet.
const ROUTE_FILE = 'api/src/http/routes/quota.ts';
const HTTP_FILE = 'api/src/http/app.ts';
const DB_FILE = 'api/src/db/database.ts';
const QUEUE_FILE = 'api/src/queue/options.ts';
const TYPED_QUEUE_FILE = 'api/src/queue/typed-message-queue.ts';
const SERVICE_FILE = 'api/src/services/quota/quota-service.ts';
const REPOSITORY_FILE = 'api/src/services/templates/repository.ts';
const OTHER_REPOSITORY_FILE = 'api/src/services/reports/outcome-repository.ts';
const MIGRATION_RUNNER_FILE = 'api/src/db/migrate.ts';

/** The rule ids reported for `code` linted as `file`. */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${file}` });
  const fatal = result!.messages.filter((message) => message.fatal);
  if (fatal.length) throw new Error(fatal.map((message) => message.message).join('\n'));
  return result!.messages.map((message) => message.ruleId ?? '');
}

const imports = (specifier: string) => `import * as other from '${specifier}';\nexport const used = other;\n`;
const ZONE = 'import-x/no-restricted-paths';

describe('the layers of the API', { timeout: 180_000 }, () => {
  it('rejects a route importing db/ or a repository, even for a type', async () => {
    expect(await ruleIds(ROUTE_FILE, imports('../../db/database.js'))).toContain(ZONE);
    expect(await ruleIds(ROUTE_FILE, imports('../../services/campaigns/repository.js'))).toContain(ZONE);
    expect(await ruleIds(ROUTE_FILE, imports('../../services/reports/outcome-repository.js'))).toContain(ZONE);
    const typeOnly =
      "import type { FollowUpRecipients } from '../../services/campaigns/repository.js';\nexport type R = FollowUpRecipients;\n";
    expect(await ruleIds(ROUTE_FILE, typeOnly)).toContain(ZONE);
  });

  it('lets a route import its service, the request helpers and the contract', async () => {
    expect(await ruleIds(ROUTE_FILE, imports('../../services/quota/quota-service.js'))).toEqual([]);
    expect(await ruleIds(ROUTE_FILE, imports('../request.js'))).toEqual([]);
    expect(await ruleIds(ROUTE_FILE, imports('@mailroom/api-client'))).toEqual([]);
  });

  it('rejects db/ importing a service, and lets it import the errors below every layer', async () => {
    expect(await ruleIds(DB_FILE, imports('../services/errors.js'))).toContain(ZONE);
    expect(await ruleIds(DB_FILE, imports('../services/paging.js'))).toContain(ZONE);
    expect(await ruleIds(DB_FILE, imports('../errors.js'))).toEqual([]);
  });

  it('rejects the HTTP layer importing the consumers', async () => {
    expect(await ruleIds(HTTP_FILE, imports('../workers/index.js'))).toContain(ZONE);
    expect(await ruleIds('api/src/http/main.ts', imports('../workers/index.js'))).toContain(ZONE);
    expect(await ruleIds(HTTP_FILE, imports('../lifecycle.js'))).toEqual([]);
  });

  it('rejects queue/ importing a service, the typed queue included (the wiring joins the lists)', async () => {
    expect(await ruleIds(QUEUE_FILE, imports('../services/audiences/queues.js'))).toContain(ZONE);
    expect(await ruleIds(TYPED_QUEUE_FILE, imports('../services/sending/queues.js'))).toContain(ZONE);
    expect(await ruleIds(QUEUE_FILE, imports('../logger.js'))).toEqual([]);
  });
});

describe('only repositories and migrations hold SQL', { timeout: 180_000 }, () => {
  const SQL = 'no-restricted-syntax';
  const statements = [
    "export const one = (db: { query(s: string): unknown }) => db.query('SELECT 1');\n",
    'export const text = `UPDATE audiences\n   SET is_importing = false WHERE id = $1`;\n',
    'export const text = `\n  INSERT INTO contacts (email) VALUES ($1)`;\n',
    "export const text = 'DELETE FROM contacts WHERE id = $1';\n",
    'export const text = `WITH t AS (SELECT 1) SELECT * FROM t`;\n',
    "export const text = `SET LOCAL work_mem = '64MB'`;\n",
    'export const text = `COPY contacts FROM STDIN`;\n',
    "export const text = 'ANALYZE contacts';\n",
  ];

  it('rejects a statement in a service, a route or another file of the API', async () => {
    for (const code of statements) expect(await ruleIds(SERVICE_FILE, code), code).toContain(SQL);
    expect(await ruleIds(ROUTE_FILE, statements[0]!)).toContain(SQL);
    expect(await ruleIds(HTTP_FILE, statements[1]!)).toContain(SQL);
  });

  it('lets repositories and db/ hold them', async () => {
    for (const file of [REPOSITORY_FILE, OTHER_REPOSITORY_FILE, MIGRATION_RUNNER_FILE])
      for (const code of statements) expect(await ruleIds(file, code), `${file}: ${code}`).not.toContain(SQL);
  });

  it('takes words that are not statements for what they are', async () => {
    for (const code of [
      "export const label = 'Select a template';\n",
      "export const message = 'Update failed: the campaign is sending';\n",
      'export const text = `Copy of ${String(1)}`;\n',
      "export const column = 'selected';\n",
    ])
      expect(await ruleIds(SERVICE_FILE, code), code).toEqual([]);
  });
});
