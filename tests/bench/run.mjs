// `pnpm bench <name>`: runs tests/bench/<name>.mjs. Benchmarks print their figures; the last line
// is one JSON object. They run under tsx (from the tests package) so that they can use the API's
// TypeScript test support (tokens, database helpers).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNode } from './support/processes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const name = process.argv[2];
const available = readdirSync(here)
  .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs')
  .map((file) => file.replace(/\.mjs$/, ''));

if (!name || !existsSync(join(here, `${name}.mjs`))) {
  console.error(`usage: pnpm bench <name>   (one of: ${available.join(', ')})`);
  process.exit(2);
}

// tsx as the tests package has it (resolved from here), whatever the working directory. The benchmark
// ends with this process, even a killed one, and then stops what it started.
const child = spawnNode(['--import', import.meta.resolve('tsx'), join(here, `${name}.mjs`), ...process.argv.slice(3)], {
  stdio: ['inherit', 'inherit', 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
