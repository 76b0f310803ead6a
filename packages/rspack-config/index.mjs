// The one Rspack + Module Federation configuration all five frontends build with.
// The shell is the host (no static remotes: it registers them at runtime from remotes.json) and
// provides the federation runtime; each remote exposes './App', emits mf-manifest.json next to
// remoteEntry.js and uses the shell's runtime. Usage: see createRspackConfig below.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { griffelExtraction } from './griffel.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * The directory of package `name` holding `file` (a resolved entry; for packages whose exports hide
 * package.json). With `viaDependency`, `name` is looked up in node_modules next to that package.
 */
function entryPackageDir(file, name, viaDependency = false) {
  let dir = path.dirname(file);
  while (!existsSync(path.join(dir, 'package.json')) || readJson(path.join(dir, 'package.json')).name === undefined)
    dir = path.dirname(dir);
  if (viaDependency) dir = path.join(dir, '..', '..', ...name.split('/'));
  else if (readJson(path.join(dir, 'package.json')).name !== name) throw new Error(`${file} is not in package ${name}`);
  return realpathSync(dir);
}

/** The version in the package.json of the package at `dir`. */
const versionOf = (dir) => readJson(path.join(dir, 'package.json')).version;

/** Directory of `request`'s package as seen from `fromDir` (follows pnpm's symlinks to the real path). */
function packageDir(request, fromDir) {
  const require = createRequire(path.join(fromDir, 'noop.js'));
  return path.dirname(require.resolve(`${request}/package.json`));
}

/**
 * The Fluent UI packages shared as singletons: what must be single and the plumbing under every
 * component. react-shared-contexts holds the theme, provider, portal mount node and tooltip contexts
 * the shell's FluentProvider sets; react-tabster (with tabster inside) keeps one focus manager per
 * window; utilities, aria, context-selector, portal, positioning and motion are what every Fluent
 * component sits on, so the shell's copies serve every remote. A shared module is not tree-shaken,
 * so component packages (button, menu, dialog, table...) are not shared: each app bundles the
 * components it uses (measured with tests/bench/bundle.mjs: sharing them whole, or tabster on its
 * own, made the first view larger).
 */
const FLUENT_SHARED = [
  '@fluentui/react-shared-contexts',
  '@fluentui/react-tabster',
  '@fluentui/react-utilities',
  '@fluentui/react-aria',
  '@fluentui/react-context-selector',
  '@fluentui/react-portal',
  '@fluentui/react-positioning',
  '@fluentui/react-motion',
];

/**
 * Fluent's `tokens` object (the CSS variable of every design token), which component styles read at
 * run time: each app bundled its own copy (3.2 KB gzip), so the first view of /audiences loaded it
 * twice and every move to another remote once more. Shared as this one module of @fluentui/tokens
 * (matched by its resolved path, whatever file imports it): the package's index also holds every
 * theme, and a shared module is not tree-shaken.
 */
const FLUENT_TOKENS_MODULE = 'lib/tokens.js';

/**
 * The Module Federation runtime from its ES module build. Rspack's federation plugin finds the bundler
 * runtime (and the runtime under it) with require.resolve, so it bundles their CommonJS builds, which
 * cannot be tree-shaken: the parts `experiments.optimization` switches off (the manifest "snapshot"
 * plugin, node loading) stayed in every build. The same packages, the same version, as ES modules.
 */
function federationRuntimeAliases() {
  // As the plugin finds them: runtime-tools from @module-federation/rspack, the rest from runtime-tools.
  const require = createRequire(import.meta.url);
  const rspackPluginDir = entryPackageDir(require.resolve('@module-federation/enhanced/rspack'), '@module-federation/rspack', true);
  const fromDir = (request, base) => entryPackageDir(createRequire(path.join(base, 'noop.js')).resolve(request), request);
  const runtimeToolsDir = fromDir('@module-federation/runtime-tools', rspackPluginDir);
  const bundlerRuntimeDir = fromDir('@module-federation/webpack-bundler-runtime', runtimeToolsDir);
  const runtimeDir = fromDir('@module-federation/runtime', runtimeToolsDir);
  // The host's runtime plugin that hands the runtime to the remotes (experiments.provideExternalRuntime).
  const injectPluginDir = fromDir('@module-federation/inject-external-runtime-core-plugin', rspackPluginDir);
  const esm = (packageRoot) => ({ [path.join(packageRoot, 'dist/index.cjs')]: path.join(packageRoot, 'dist/index.js') });
  return {
    ...esm(bundlerRuntimeDir),
    ...esm(runtimeDir),
    ...esm(injectPluginDir),
    '@module-federation/runtime$': path.join(runtimeDir, 'dist/index.js'),
  };
}

const ROUTER_FACADE = fileURLToPath(new URL('./shared/react-router.mjs', import.meta.url));
const GRIFFEL_REACT_FACADE = fileURLToPath(new URL('./shared/griffel-react.mjs', import.meta.url));
const GRIFFEL_CORE_FACADE = fileURLToPath(new URL('./shared/griffel-core.mjs', import.meta.url));

/** @griffel/react and @griffel/core as seen by the app's Fluent UI. */
function griffelDirs(dir) {
  const fluentDir = packageDir('@fluentui/react-components', dir);
  const react = packageDir('@griffel/react', fluentDir);
  return { react, core: packageDir('@griffel/core', react) };
}

/** `@griffel/react` and `@griffel/core` resolve to the shared facades, which read the real packages' ES modules. */
export function griffelAliases(dir) {
  const { react, core } = griffelDirs(dir);
  return {
    '@griffel/react$': GRIFFEL_REACT_FACADE,
    '@griffel/core$': GRIFFEL_CORE_FACADE,
    'griffel-react-implementation$': path.join(react, readJson(path.join(react, 'package.json')).exports['.'].import),
    'griffel-core-implementation$': path.join(core, readJson(path.join(core, 'package.json')).exports['.'].import),
  };
}

/**
 * What must exist once on the page, shared as singletons.
 *
 * - react, react-dom (and the automatic JSX runtime): hooks and the reconciler break with two copies.
 * - react-router-dom / react-router: remotes render their <Routes> inside the shell's <BrowserRouter>.
 *   Both names lead to one share key and to shared/react-router.mjs, the declarative routing API only
 *   (see there why; `routerAliases` makes the apps' imports resolve to it too).
 * - @tanstack/react-query: remotes use the shell's QueryClient through its context.
 * - Fluent UI: FLUENT_SHARED (contexts and plumbing) and the `tokens` module (FLUENT_TOKENS_MODULE), never
 *   @fluentui/react-components, which would ship every component (about 320 KB gzip) to every page;
 *   @griffel/react carries the style renderer and text-direction contexts and @griffel/core the
 *   class-merging lookup table, so the CSS of every remote goes through one renderer. Each remote
 *   bundles (and tree-shakes) the components it uses.
 *   Both are shared as facades (shared/griffel-*.mjs) without the run-time CSS compiler: every style is
 *   pre-computed and its CSS extracted at build time (./griffel.mjs).
 *
 * `requiredVersion` is explicit: the app's own package.json range for its direct dependencies, and the
 * declaring package's range for the transitive ones. Transitive packages are imported from their real
 * path, because pnpm does not let the app itself resolve them. `version` is explicit too, read from the
 * package.json of the package each share imports: the plugin cannot infer it for a module shared by
 * path, offered it as version 0, and the runtime then warned on every page and compared nothing.
 */
export function sharedDependencies(dir) {
  const pkg = readJson(path.join(dir, 'package.json'));
  const direct = (name) => {
    const range = pkg.dependencies?.[name] ?? pkg.peerDependencies?.[name];
    if (!range) throw new Error(`${pkg.name}: '${name}' must be a dependency to be shared`);
    return range;
  };
  const transitive = (name, viaDir) => {
    const via = readJson(path.join(viaDir, 'package.json'));
    const range = via.dependencies?.[name] ?? via.peerDependencies?.[name];
    if (!range) throw new Error(`${via.name} does not depend on ${name}`);
    const packageRoot = packageDir(name, viaDir);
    return { import: packageRoot, version: versionOf(packageRoot), requiredVersion: range };
  };
  // The version the app itself resolves `name` to.
  const installed = (name) => versionOf(packageDir(name, dir));

  const routerDomDir = packageDir('react-router-dom', dir);
  const fluentDir = packageDir('@fluentui/react-components', dir);
  const griffelReactDir = packageDir('@griffel/react', fluentDir);
  const router = {
    import: ROUTER_FACADE,
    shareKey: 'react-router-dom',
    version: versionOf(routerDomDir),
    requiredVersion: direct('react-router-dom'),
  };

  const singleton = (config) => ({ singleton: true, ...config });
  // A shared facade module (see shared/): the real package's version, the facade as the import.
  const facade = (config, file) => ({ ...config, import: file });
  // Fluent's packages are dependencies of @fluentui/react-components or, one level down, of its menu.
  const menuDir = packageDir('@fluentui/react-menu', fluentDir);
  const fluent = (name) => transitive(name, readJson(path.join(fluentDir, 'package.json')).dependencies[name] ? fluentDir : menuDir);
  const fluentShared = Object.fromEntries(FLUENT_SHARED.map((name) => [name, singleton(fluent(name))]));
  const tokens = transitive('@fluentui/tokens', packageDir('@fluentui/react-theme', fluentDir));
  const tokensFile = path.join(tokens.import, FLUENT_TOKENS_MODULE);
  return {
    ...fluentShared,
    // Keyed by its resolved path, which shares this one module of the package (see FLUENT_TOKENS_MODULE).
    [tokensFile]: singleton({ ...tokens, import: tokensFile, shareKey: `@fluentui/tokens/${FLUENT_TOKENS_MODULE}` }),
    react: singleton({ version: installed('react'), requiredVersion: direct('react') }),
    'react/jsx-runtime': singleton({ version: installed('react'), requiredVersion: direct('react') }),
    'react-dom': singleton({ version: installed('react-dom'), requiredVersion: direct('react-dom') }),
    'react-router-dom': singleton(router),
    'react-router': singleton(router),
    '@tanstack/react-query': singleton({ version: installed('@tanstack/react-query'), requiredVersion: direct('@tanstack/react-query') }),
    '@griffel/react': singleton(facade(transitive('@griffel/react', fluentDir), GRIFFEL_REACT_FACADE)),
    '@griffel/core': singleton(facade(transitive('@griffel/core', griffelReactDir), GRIFFEL_CORE_FACADE)),
  };
}

/** `react-router-dom` and `react-router` resolve to the shared facade, which reads React Router's production build. */
export function routerAliases(dir) {
  const routerDir = packageDir('react-router', packageDir('react-router-dom', dir));
  return {
    'react-router-dom$': ROUTER_FACADE,
    'react-router$': ROUTER_FACADE,
    'react-router/production$': path.join(routerDir, 'dist/production/index.mjs'),
  };
}

const htmlPage = (title, head = '') => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>${head}
    <style>html, body { margin: 0; }</style>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/** The federation plugin's manifest option for `manifestPath` (its default is dist/mf-manifest.json, with mf-stats.json). */
function manifestOptions(manifestPath) {
  if (manifestPath === 'mf-manifest.json') return true;
  const filePath = path.posix.dirname(manifestPath);
  return { fileName: path.posix.basename(manifestPath), ...(filePath === '.' ? {} : { filePath }) };
}

/**
 * A remote's compilations, from its identity in @mailroom/mf-contract/remotes: it exposes './App'
 * (src/App.tsx), under its Module Federation scope, with its manifest where the identity says.
 *
 * @param {{ scope: string, title: string, devPort: number, manifestPath: string }} remote
 * @param {string} dir The remote's directory.
 */
export function createRemoteRspackConfig(remote, dir) {
  return createRspackConfig({
    name: remote.scope,
    dir,
    port: remote.devPort,
    title: `Mailroom: ${remote.title} (standalone)`,
    exposes: { './App': './src/App.tsx' },
    manifestPath: remote.manifestPath,
  });
}

/**
 * The compilations of one app, for `rspack build` / `rspack serve`:
 *
 * - the shell: one compilation (index.html + the host, which provides the federation runtime to the
 *   remotes), plus one small compilation per `extraPages` entry;
 * - a remote: the container (remoteEntry.js, the exposed './App', mf-manifest.json; it uses the shell's
 *   federation runtime instead of bundling its own, about 20 KB gzip less per remote) and the
 *   standalone development page (index.html, files prefixed 'standalone.'), a plain build of
 *   src/index.ts without federation that renders the App in the harness of @mailroom/mf-contract.
 *
 * Every compilation writes into dist/ and cleans only its own files.
 *
 * @param {object} options
 * @param {string} options.name Module Federation name (mfe_audiences, ...; the shell is 'shell').
 * @param {string} options.dir The app's directory (where package.json and src/ are).
 * @param {number} options.port Dev server port.
 * @param {Record<string, string>} [options.exposes] Remotes: { './App': './src/App.tsx' }.
 * @param {string} [options.manifestPath] Remotes: where mf-manifest.json is written in dist/.
 * @param {boolean} [options.isHost] The shell.
 * @param {string} [options.title] Page title of the app's HTML page.
 * @param {Record<string, string>} [options.extraPages] Small standalone pages, `<page>.html` from
 *   `public/<page>.html` with the script `<file>` (the shell's silent-check-sso page), built without
 *   federation so such a page does not carry the federation runtime.
 * @param {string} [options.favicon] The host: `public/<favicon>` is copied into dist/ under its own
 *   name (browsers ask for /favicon.ico by that name) and named by the page's `<link rel="icon">`.
 */
export function createRspackConfig({
  name,
  dir,
  port,
  exposes,
  manifestPath = 'mf-manifest.json',
  isHost = false,
  title,
  extraPages = {},
  favicon,
}) {
  if (!isHost && !exposes) throw new Error(`${name}: a remote must expose modules`);

  return (_env, argv = {}) => {
    const mode = argv.mode ?? process.env.NODE_ENV ?? 'production';
    const production = mode === 'production';
    const hashed = (pattern) => (production ? pattern.replace('[name]', '[name].[contenthash:8]') : pattern);

    /** A compilation writing `dist/<prefix>*` (the container: everything not claimed by a prefix). */
    const compilation = ({ id, prefix = '', otherPrefixes = [], entry, plugins, federated = false }) => {
      const swcRule = {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
          },
          env: { targets: 'chrome >= 111, edge >= 111, firefox >= 111, safari >= 16.4' },
        },
        type: 'javascript/auto',
      };
      const griffel = griffelExtraction({
        filename: hashed(`${prefix}[name].css`),
        chunkFilename: hashed(`${prefix}[name].css`),
        swcRule,
      });
      return {
        name: id,
        mode,
        context: dir,
        target: 'web',
        entry,
        devtool: production ? false : 'cheap-module-source-map',
        resolve: {
          extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
          alias: {
            ...routerAliases(dir),
            // The Griffel facades are what the federated builds share; a standalone page bundles Griffel whole.
            ...(federated ? griffelAliases(dir) : {}),
            ...federationRuntimeAliases(),
          },
        },
        module: {
          rules: [...griffel.rules, { test: /\.(svg|png|jpe?g|webp|gif)$/i, type: 'asset/resource' }],
        },
        output: {
          path: path.join(dir, 'dist'),
          publicPath: 'auto',
          uniqueName: id,
          filename: hashed(`${prefix}[name].js`),
          chunkFilename: hashed(`${prefix}[name].js`),
          assetModuleFilename: production ? `assets/${prefix}[name].[contenthash:8][ext]` : `assets/${prefix}[name][ext]`,
          clean: {
            keep: (file) => {
              const base = path.basename(file);
              return prefix ? !base.startsWith(prefix) : otherPrefixes.some((other) => base.startsWith(other));
            },
          },
        },
        // Production mode's defaults already tree-shake (usedExports, sideEffects), concatenate modules and
        // minify with SWC at compress.passes 2 (measured: passes 3 with pure_getters saved 0.3 KB of 363).
        optimization: { minimize: production },
        performance: { hints: false },
        plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(mode) }), ...griffel.plugins, ...plugins],
      };
    };

    const federation = (options) =>
      new ModuleFederationPlugin({
        name,
        shared: sharedDependencies(dir),
        // Use what is already loaded: the shell never fetches a remote's entry just to compare versions,
        // so one unreachable remote cannot break the shell or the others.
        shareStrategy: 'loaded-first',
        dts: false,
        dev: false,
        ...options,
        experiments: { ...options.experiments, optimization: { disableSnapshot: true, target: 'web' } },
      });
    // Script URLs in the pages are absolute because they are served for deep links such as /audiences/12/import.
    const page = (filename, template) => new rspack.HtmlRspackPlugin({ filename, publicPath: '/', ...template });
    const devServer = { port, headers: { 'Access-Control-Allow-Origin': '*' }, historyApiFallback: true, hot: false };

    if (isHost) {
      const pageNames = Object.keys(extraPages);
      const host = compilation({
        id: name,
        otherPrefixes: pageNames,
        entry: { main: './src/index.ts' },
        federated: true,
        plugins: [
          page('index.html', {
            templateContent: htmlPage(title ?? name, favicon ? `\n    <link rel="icon" href="/${favicon}" />` : ''),
          }),
          ...(favicon ? [new rspack.CopyRspackPlugin({ patterns: [{ from: path.join(dir, 'public', favicon), to: favicon }] })] : []),
          // The remotes are built with experiments.externalRuntime and use this runtime.
          federation({ manifest: false, experiments: { provideExternalRuntime: true } }),
        ],
      });
      const pages = Object.entries(extraPages).map(([pageName, file]) =>
        compilation({
          id: `${name}_${pageName.replace(/\W/g, '_')}`,
          // Files of the page are `<page>.page.<hash>.js`, next to its `<page>.html`.
          prefix: `${pageName}.`,
          entry: { page: file },
          plugins: [page(`${pageName}.html`, { template: path.join(dir, 'public', `${pageName}.html`) })],
        }),
      );
      // Compilations sharing dist/ run one after the other: run together, one's clean-up raced the other's emit.
      return pages.length
        ? [{ ...host, devServer }, ...pages.map((extra) => ({ ...extra, dependencies: [host.name] }))]
        : { ...host, devServer };
    }

    const container = compilation({
      id: name,
      otherPrefixes: ['standalone.', 'index.html'],
      entry: {},
      federated: true,
      plugins: [
        federation({
          filename: 'remoteEntry.js',
          exposes,
          manifest: manifestOptions(manifestPath),
          experiments: { externalRuntime: true },
        }),
      ],
    });
    const standalone = compilation({
      id: `${name}_standalone`,
      prefix: 'standalone.',
      entry: { main: './src/index.ts' },
      plugins: [page('index.html', { templateContent: htmlPage(title ?? name) })],
    });
    // index.html belongs to the standalone page.
    standalone.output.clean = { keep: (file) => !/^(standalone\.|index\.html$)/.test(path.basename(file)) };
    // Compilations sharing dist/ run one after the other: run together, one's clean-up raced the other's emit.
    return [container, { ...standalone, devServer, dependencies: [container.name] }];
  };
}
