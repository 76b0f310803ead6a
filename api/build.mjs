#!/usr/bin/env node
// `pnpm build` of the API: the JavaScript that production runs (dist/), so that no compiler is
// loaded in a running process. Development, the tests and `pnpm start` keep running src/ through tsx.
//
// Every file of src/ but the tests becomes one file of dist/ at the same place, so that the paths
// the code finds from its own address (the contract, the migrations, the built frontends) hold as
// they are. Its imports stay imports, with two exceptions: the workspace packages of TypeScript
// (@mailroom/mf-contract, @mailroom/api-client) are written into the files that use them, as Node
// strips no types under node_modules, where the production tree has them. Types are checked by
// `pnpm typecheck` (tsc), not here.
import { build } from 'esbuild';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');
const dist = join(here, 'dist');
const INLINED = /^@mailroom\/(mf-contract|api-client)(\/|$)/;

const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
  .map((file) => join(src, file));

/** Imports written in src/ stay imports (their file is built too), as do packages but the inlined ones. */
const keepImports = {
  name: 'keep-imports',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const fromSrc = !relative(src, args.importer).startsWith('..');
      if (!fromSrc) return undefined;
      if (args.path.startsWith('.')) return { path: args.path, external: true };
      if (INLINED.test(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: sources,
  outbase: src,
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  logLevel: 'warning',
  plugins: [keepImports],
});
// The migrations are SQL, read from beside the code that applies them.
cpSync(join(src, 'db/migrations'), join(dist, 'db/migrations'), { recursive: true, filter: (file) => !file.endsWith('.ts') });
console.log(`built ${sources.length} files into ${relative(resolve(here, '..'), dist)}`);
