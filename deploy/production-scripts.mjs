#!/usr/bin/env node
// The production tree's package scripts (deploy/production-tree.sh): each command of the image
// (http, worker, web, migrate) runs the API's built JavaScript with the Node flags of its development
// script, so the flags are written once, in api/package.json. A script of another shape is refused
// rather than guessed at.
//
//   node deploy/production-scripts.mjs <tree>/api/package.json
import { readFileSync, writeFileSync } from 'node:fs';

export const IMAGE_COMMANDS = ['http', 'worker', 'web', 'migrate'];

/** `node <flags> --import tsx src/<entry>.ts` becomes `node <flags> dist/<entry>.js`. */
export function productionScript(script) {
  const match = /^node((?: --[\w-]+(?:=\S+)?)*) --import tsx src\/([\w/-]+)\.ts$/.exec(script.trim());
  if (!match) throw new Error(`not a script of the form "node <flags> --import tsx src/<entry>.ts": ${script}`);
  return `node${match[1]} dist/${match[2]}.js`;
}

const file = process.argv[2];
if (file) {
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifest.scripts = Object.fromEntries(IMAGE_COMMANDS.map((command) => [command, productionScript(manifest.scripts[command])]));
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
