// The module evaluator @griffel/webpack-loader uses to compute makeStyles() arguments at build time
// (tokens, shared constants): @linaria/shaker's, with the Babel 7 preset it was written for.
// @linaria/shaker asks for "@babel/preset-env": ">=7" and "@babel/plugin-transform-runtime": ">=7",
// which now install Babel 8 plugins that Babel 7 (what @griffel/babel-preset runs on) refuses. Same
// steps as its prepareForShake, with Babel's helpers inlined instead of imported from @babel/runtime.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { transformSync } = require('@babel/core');
const griffelPresetRequire = createRequire(
  require.resolve('@griffel/babel-preset', { paths: [path.dirname(require.resolve('@griffel/webpack-loader'))] }),
);
const shakerRequire = createRequire(griffelPresetRequire.resolve('@linaria/shaker'));
const shake = shakerRequire('./shaker').default;
const generate = shakerRequire('@babel/generator').default;
const { buildOptions } = shakerRequire('@linaria/babel-preset');

function prepareForShake(filename, options, code) {
  const transformOptions = buildOptions(filename, options);
  transformOptions.ast = true;
  transformOptions.presets.unshift([require.resolve('@babel/preset-env'), { targets: 'ie 11' }]);
  transformOptions.presets.unshift([shakerRequire.resolve('@linaria/preeval'), options]);
  transformOptions.plugins.unshift(shakerRequire.resolve('babel-plugin-transform-react-remove-prop-types'));
  const transformed = transformSync(code, transformOptions);
  if (transformed === null || !transformed.ast) throw new Error(`${filename} cannot be transformed`);
  return transformed.ast.program;
}

/** @linaria/shaker's evaluator: the file reduced to what the requested exports need. */
export function shaker(filename, options, text, only = null) {
  const [shaken, imports] = shake(prepareForShake(filename, options, text), only);
  return [generate(shaken).code, imports];
}
