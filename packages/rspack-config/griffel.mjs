// Griffel (Fluent UI's CSS-in-JS) at build time: the apps' makeStyles/makeResetStyles calls are
// pre-computed (@griffel/webpack-loader), and the CSS of every pre-computed style, Fluent's own
// components included, moves out of the JavaScript into .css files (@griffel/webpack-extraction-plugin).
// The JavaScript keeps only the class names; the browser parses the CSS as CSS.
//
// One page loads the CSS of several builds (the shell and each remote), and Griffel's cascade depends
// on the order of its rules: a rule of a later bucket (hover after default, longhands after shorthands)
// must come after the rules it overrides. The extraction plugin sorts the rules of one file; across
// files a rule repeated by a later file would move back over an override of an earlier one. So every
// Griffel rule goes into a cascade layer named after its bucket and priority, and every file declares
// the same layer order first: the order holds whichever file loads first or repeats a rule.
import { createRequire } from 'node:module';
import { rspack } from '@rspack/core';
import { shaker } from './griffel-evaluator.mjs';

const require = createRequire(import.meta.url);
const { GriffelCSSExtractionPlugin } = require('@griffel/webpack-extraction-plugin');
const { parseCSSRules } = require('@griffel/webpack-extraction-plugin/src/parseCSSRules');
const { sortCSSRules } = require('@griffel/webpack-extraction-plugin/src/sortCSSRules');
// The @griffel/core the extraction plugin itself uses (not a dependency of this package).
const extractionRequire = createRequire(require.resolve('@griffel/webpack-extraction-plugin'));
const { styleBucketOrdering, normalizeCSSBucketEntry, defaultCompareMediaQueries } = extractionRequire('@griffel/core');

/** Griffel's property priorities: shorthands (-2 background/border..., -1 padding...) before longhands (0). */
const PRIORITIES = [-3, -2, -1, 0];
const layerName = (bucket, priority) => `griffel-${bucket}${priority < 0 ? `-n${-priority}` : ''}`;
/** `@layer griffel-r-n3, griffel-r-n2, ..., griffel-x;` the order of Griffel's style elements at run time. */
export const GRIFFEL_LAYER_ORDER = `@layer ${styleBucketOrdering
  .flatMap((bucket) => PRIORITIES.map((priority) => layerName(bucket, priority)))
  .join(', ')};`;

/** The Griffel rules of one CSS file (marked by the extraction loader) rewritten into their layers. */
export function layerGriffelCss(css) {
  if (!css.includes('@griffel:css-start')) return css;
  const { cssRulesByBucket, remainingCSS } = parseCSSRules(css);
  const layers = new Map();
  for (const bucket of styleBucketOrdering) {
    for (const entry of cssRulesByBucket[bucket] ?? []) {
      const [, meta] = normalizeCSSBucketEntry(entry);
      const priority = meta?.p ?? 0;
      if (!PRIORITIES.includes(priority)) throw new Error(`Griffel rule with an unexpected priority ${priority}: ${entry}`);
      const name = layerName(bucket, priority);
      if (!layers.has(name)) layers.set(name, { [bucket]: [] });
      layers.get(name)[bucket].push(entry);
    }
  }
  let layered = '';
  for (const [name, rules] of layers) layered += `@layer ${name}{${sortCSSRules([rules], defaultCompareMediaQueries)}}`;
  return `${GRIFFEL_LAYER_ORDER}${remainingCSS}${layered}`;
}

class GriffelCssLayersPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('GriffelCssLayersPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // Before the extraction plugin's own sorting (PRE_PROCESS), which drops the bucket markers.
        { name: 'GriffelCssLayersPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_PRE_PROCESS - 1 },
        (assets) => {
          for (const [name, source] of Object.entries(assets)) {
            if (!name.endsWith('.css')) continue;
            const css = source.source().toString();
            const layered = layerGriffelCss(css);
            if (layered !== css) compilation.updateAsset(name, new rspack.sources.RawSource(layered));
          }
        },
      );
      compilation.hooks.processAssets.tap(
        // After the CSS minimizer, which shortens the order statement to what this file alone needs.
        { name: 'GriffelCssLayersPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        (assets) => {
          for (const [name, source] of Object.entries(assets)) {
            if (!name.endsWith('.css')) continue;
            const css = source.source().toString();
            if (!css.includes('@layer griffel-')) continue;
            const complete = `${GRIFFEL_LAYER_ORDER}${css.replace(/^@layer\s+griffel-[\w-]+(?:\s*,\s*griffel-[\w-]+)*\s*;/, '')}`;
            compilation.updateAsset(name, new rspack.sources.RawSource(complete));
          }
        },
      );
    });
  }
}

/** Where Griffel styles are: Fluent UI's packages (pre-computed by Fluent) and our own sources. */
const FLUENT = /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?@fluentui[\\/]/;

/**
 * Module rules and plugins for one compilation.
 * @param {{ filename: string, chunkFilename: string, swcRule: object }} options `swcRule`: the rule compiling
 *   the apps' TypeScript; its loader runs first, then Griffel's pre-computation, then the extraction.
 */
export function griffelExtraction({ filename, chunkFilename, swcRule }) {
  const { loader: swcLoader, options: swcOptions, ...swcMatch } = swcRule;
  return {
    rules: [
      {
        ...swcMatch,
        use: [
          { loader: GriffelCSSExtractionPlugin.loader },
          {
            loader: require.resolve('@griffel/webpack-loader'),
            options: {
              // Build-time evaluation runs the real packages in Node, not the apps' aliases to shared facades.
              inheritResolveOptions: ['modules', 'extensions'],
              evaluationRules: [{ action: shaker }, { test: /[/\\]node_modules[/\\]/, action: 'ignore' }],
            },
          },
          { loader: swcLoader, options: swcOptions },
        ],
      },
      { test: /\.m?js$/, include: FLUENT, use: [{ loader: GriffelCSSExtractionPlugin.loader }] },
      {
        test: /\.css$/,
        // Packages marked sideEffects: false (Fluent's) import their extracted CSS for its effect.
        sideEffects: true,
        use: [rspack.CssExtractRspackPlugin.loader, { loader: require.resolve('css-loader'), options: { url: false } }],
        type: 'javascript/auto',
      },
    ],
    plugins: [
      // Griffel orders its rules itself (see GriffelCssLayersPlugin), not by import order.
      new rspack.CssExtractRspackPlugin({ filename, chunkFilename, ignoreOrder: true }),
      new GriffelCSSExtractionPlugin(),
      new GriffelCssLayersPlugin(),
    ],
  };
}
