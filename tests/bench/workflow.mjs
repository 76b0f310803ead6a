// `pnpm bench workflow`: the figures of the campaign workflow beyond the spec (scheduling, suppressions,
// activity log). Each part is a module of tests/bench/workflow/ whose default export measures one piece and
// answers its JSON keys; this runs them one after the other (never together: each wants the machine to
// itself) and prints every key on the last line.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'workflow');
const parts = readdirSync(here)
  .filter((file) => file.endsWith('.mjs'))
  .sort();
if (parts.length === 0) throw new Error(`no benchmark parts in ${here}`);

const figures = {};
for (const part of parts) {
  console.log(`# ${part}`);
  const { default: measure } = await import(pathToFileURL(join(here, part)).href);
  Object.assign(figures, await measure());
}
console.log(JSON.stringify(figures));
