/**
 * docs/operations.md's table of settings against api/src/config.ts: every setting the configuration
 * reads has its row and no row names another; the commands that refuse to start without it are the
 * ones config.ts makes refuse; the defaults it states are the configuration's own; and the image's
 * column is the Dockerfile's. So the guide and the code cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, PRODUCTION_SETTINGS, settingsSchema } from '../../api/src/config.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const guide = readFileSync(join(repo, 'docs/operations.md'), 'utf8');

interface Row {
  name: string;
  meaning: string;
  defaultValue: string;
  image: string;
  required: string;
}

/** The table under "## Settings": its rows, by setting. */
function settingsTable(): Map<string, Row> {
  const section = guide.slice(guide.indexOf('## Settings'), guide.indexOf('\n## ', guide.indexOf('## Settings') + 1));
  const lines = section.split('\n').filter((line) => line.startsWith('| `'));
  const rows = lines.map((line) => {
    const [name, meaning, defaultValue, image, required] = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    return { name: /^`([^`]+)`$/.exec(name!)![1]!, meaning: meaning!, defaultValue: defaultValue!, image: image!, required: required! };
  });
  const byName = new Map(rows.map((row) => [row.name, row]));
  expect(byName.size, 'a setting has one row').toBe(rows.length);
  return byName;
}

/** The final stage's ENV of the Dockerfile. */
function imageEnvironment(): Record<string, string> {
  const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(finalStage)![1]!.replace(/\\\n/g, ' ');
  return Object.fromEntries([...env.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

describe('the settings table of docs/operations.md', () => {
  const table = settingsTable();
  const settings = Object.keys(settingsSchema.shape);

  it('has a row for every setting config.ts reads, and none for another', () => {
    // REMOTE_<NAME>_URL is read by the `web` command itself, one variable per remote.
    expect([...table.keys()].sort()).toEqual([...settings, 'REMOTE_<NAME>_URL'].sort());
    for (const row of table.values()) expect(row.meaning.length, row.name).toBeGreaterThan(10);
  });

  it('names the commands that refuse to start without each setting in production', () => {
    const commands = { api: ['http', 'worker'], web: ['web'], migrate: ['migrate'] } as const;
    for (const row of table.values()) {
      const roles = Object.entries(PRODUCTION_SETTINGS).filter(([, names]) => names.includes(row.name));
      const expected = roles.flatMap(([role]) => commands[role as keyof typeof commands]);
      const order = ['http', 'worker', 'web', 'migrate'];
      expect(row.required, row.name).toBe(expected.length ? expected.sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(', ') : 'no');
    }
  });

  it("states the configuration's own defaults", () => {
    // Defaults of the schema itself (numbers, levels, ports), machine-dependent ones aside.
    for (const name of settings) {
      const value = (settingsSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[
        name
      ]!.safeParse(undefined);
      if (!value.success || value.data === undefined || name === 'HTTP_PROCESSES') continue;
      expect(table.get(name)!.defaultValue, name).toContain(`\`${String(value.data)}\``);
    }
    // Defaults that loadConfig gives when a setting is unset.
    const config = loadConfig({});
    const derived: Record<string, unknown> = {
      NODE_ENV: config.nodeEnv,
      DATABASE_URL: config.databaseUrl,
      OIDC_ISSUER: config.oidc.issuer,
      OIDC_AUDIENCE: config.oidc.audience,
      OIDC_CLIENT_ID: config.oidc.clientId,
      ORG_EMAIL_DOMAIN: config.orgEmailDomain,
      ORG_NAME: config.orgName,
      AWS_REGION: config.aws.region,
      PUBLIC_URL: config.publicUrl,
      TRUST_PROXY: (config.trustProxy as string[]).join(','),
      EMAIL_EDITOR_SCRIPT_URL: config.emailEditorScriptUrl,
      S3_FORCE_PATH_STYLE: (loadConfig({ S3_BUCKET: 'mailroom-imports' }).import.spool as { forcePathStyle: boolean }).forcePathStyle,
      STACK_HOST: config.stack.host,
    };
    for (const [name, value] of Object.entries(derived)) expect(table.get(name)!.defaultValue, name).toContain(`\`${String(value)}\``);
    expect(config.import.spool).toMatchObject({ kind: 'folder', dir: join(repo, '.data/imports') });
    expect(table.get('IMPORT_DIR')!.defaultValue).toBe('`.data/imports`');
    expect(config.queuePrefix).toBe('');
    expect(table.get('QUEUE_PREFIX')!.defaultValue).toBe('empty');
  });

  it("gives the image's own values as the Dockerfile sets them, and `same` for every other", () => {
    const image = imageEnvironment();
    expect(Object.keys(image).length).toBeGreaterThan(0);
    for (const row of table.values()) {
      expect(row.image, row.name).toBe(row.name in image ? `\`${image[row.name]}\`` : 'same');
    }
  });
});
