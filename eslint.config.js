// One lint configuration for every package of the workspace.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const root = import.meta.dirname;
const directories = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** The frontends: the shell and the remotes (one folder each, `mfe-<name>`). */
const remotes = directories(root).filter((name) => name.startsWith('mfe-'));
const frontends = ['shell', ...remotes];
const featuresOf = (app) => {
  try {
    return directories(join(root, app, 'src/features'));
  } catch {
    return [];
  }
};

/**
 * docs/architecture.md: a remote's features import nothing of each other (what two features
 * need goes to the remote's src/components or a package); a frontend imports nothing of another one
 * (remotes are deployed apart and meet the shell only through @mailroom/mf-contract), and reaches
 * shared code through its package name, never a path into packages/. Paths are resolved without
 * following pnpm's symlinks, so `@mailroom/ui` stays inside the importing app's node_modules while
 * `../../packages/ui/src` lands in packages/.
 */
const boundaryZones = [
  ...remotes.flatMap((remote) =>
    featuresOf(remote).map((feature) => ({
      target: `./${remote}/src/features/${feature}`,
      from: `./${remote}/src/features`,
      except: [`./${feature}`],
      message: `The '${feature}' feature imports no other feature's internals: move what both need to src/components or a package.`,
    })),
  ),
  ...frontends.map((app) => ({
    target: `./${app}`,
    from: [...frontends.filter((other) => other !== app).map((other) => `./${other}`), './packages'],
    message: 'A frontend imports no other frontend, and shared code only by its package name (@mailroom/*).',
  })),
];

/**
 * docs/architecture.md, Layers: the API's arrows point one way. Entry points and lifecycle.ts wire;
 * http/ and workers/ take requests and messages to services/; services/ reach data through their
 * repositories; db/ and queue/ know no service. A route reads no repository and nothing of db/ (it
 * calls its service); the HTTP layer starts no consumer (lifecycle.ts does).
 */
const API = './api/src';
const REPOSITORIES = [`${API}/services/**/repository.ts`, `${API}/services/**/*-repository.ts`];
const apiZones = [
  {
    target: `${API}/http/routes`,
    from: `${API}/db`,
    message: 'A route reaches data through its service: it imports nothing of db/.',
  },
  {
    target: `${API}/http/routes`,
    from: REPOSITORIES,
    message: 'A route reaches data through its service, not a repository (a type it needs comes from the service or @mailroom/api-client).',
  },
  {
    target: `${API}/db`,
    from: `${API}/services`,
    message: 'db/ is below the services: it imports none (errors every layer throws are in src/errors.ts).',
  },
  {
    target: `${API}/http`,
    from: `${API}/workers`,
    message: "The HTTP layer starts no consumer: a process's consumers are lifecycle.ts's.",
  },
  {
    target: `${API}/queue`,
    from: `${API}/services`,
    message: 'queue/ is below the services: it knows no service and no queue of theirs.',
  },
];

/**
 * Only repositories and migrations hold SQL: a string or template that starts with a statement
 * (upper-case keywords, as every statement of the API is written) anywhere else in api/src fails the
 * lint. Tests and db/ are exempt, and so is SQL_NOT_IN_A_REPOSITORY_YET (the contacts export's cursor).
 */
const SQL_STATEMENT =
  '^\\s*(SELECT|INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|WITH|COPY|SET|CREATE|ALTER|DROP|TRUNCATE|LOCK|ANALYZE|VACUUM|SAVEPOINT|ROLLBACK|RELEASE|BEGIN|COMMIT)(?=\\s|;|$)';
const SQL_NOT_IN_A_REPOSITORY_YET = ['api/src/services/contacts/export.ts'];
const sqlOutsideRepositories = {
  message: "Only repositories (repository.ts, *-repository.ts) and db/ hold SQL: move the statement into the feature's repository.",
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', 'packages/api-client/src/schema.ts', '**/.test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' },
      // Typed rules: each file is checked with the tsconfig.json nearest to it.
      parserOptions: {
        // check.mjs is typed by its check.d.mts, so no tsconfig includes the script itself.
        projectService: { allowDefaultProject: ['tests/contract/check.mjs'] },
        tsconfigRootDir: root,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A promise nobody awaits loses its error (an unhandled rejection ends a Node process).
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  // Build configuration files belong to no TypeScript project: linted without type information.
  {
    files: [
      'eslint.config.js',
      '*/rspack.config.mjs',
      'packages/rspack-config/**/*.{mjs,mts}',
      'packages/static-server/**/*.{mjs,mts}',
      'api/build.mjs',
      'deploy/*.mjs',
    ],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['shell/src/**/*.{ts,tsx}', 'mfe-*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: frontends.map((app) => `${app}/**/*.{ts,tsx,js,mjs}`),
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'], symlinks: false })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@mailroom/shell', '@mailroom/shell/*', '@mailroom/mfe-*', 'mfe_*'],
              message: 'A frontend imports no other frontend: the shell loads remotes at run time (remotes.json).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['api/src/**/*.ts'],
    // A test wires what it tests, as an entry point does.
    ignores: ['api/src/**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The API imports its TypeScript files by their built names (`./deps.js`).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: apiZones }],
    },
  },
  {
    files: ['api/src/**/*.ts'],
    ignores: [
      'api/src/**/*.test.ts',
      'api/src/db/**',
      'api/src/**/repository.ts',
      'api/src/**/*-repository.ts',
      ...SQL_NOT_IN_A_REPOSITORY_YET,
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=/${SQL_STATEMENT}/]`, ...sqlOutsideRepositories },
        { selector: `TemplateElement[value.raw=/${SQL_STATEMENT}/]`, ...sqlOutsideRepositories },
      ],
    },
  },
);
