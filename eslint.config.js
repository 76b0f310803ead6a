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
);
