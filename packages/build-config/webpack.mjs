// The one webpack configuration of the client apps: the shell (host) and every remote differ only in the options
// they pass. Module federation specifics and their reasons live here, once.
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { createRequire } from 'node:module';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import CopyPlugin from 'copy-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { BundleAnalyzerPlugin } from 'webpack-bundle-analyzer';

const require = createRequire(import.meta.url);

/** Shared package of our own: its real version, from its package.json (pnpm's `workspace:*` is not semver). */
const SHARED_PACKAGE = '@messenger/shared';
const SHARED_PACKAGE_VERSION = require('../shared/package.json').version;
/**
 * The router, shared through a package of our own that re-exports only what the apps use: a shared module is
 * never tree-shaken, but react-router inside it is. react-router itself is not shared: nothing imports it directly.
 */
const ROUTER_PACKAGE = '@messenger/router';
const ROUTER_PACKAGE_VERSION = '1.0.0';

/**
 * One instance of each of these across the shell and every remote: React (and its subpaths), the router, the
 * store library, i18n and our shared package (stores, event bus, API client).
 */
export function sharedModules(pkg) {
  const version = (name) => {
    const wanted = pkg.dependencies?.[name] ?? pkg.peerDependencies?.[name];
    if (!wanted) throw new Error(`${pkg.name} must depend on ${name} to share it`);
    return `^${wanted}`;
  };
  const singleton = (name) => ({ singleton: true, requiredVersion: version(name) });
  return {
    react: singleton('react'),
    // Subpath imports (react/jsx-runtime, react-dom/client) are shared through prefix keys, or they bundle twice.
    'react/': singleton('react'),
    'react-dom': singleton('react-dom'),
    'react-dom/': singleton('react-dom'),
    [ROUTER_PACKAGE]: { singleton: true, requiredVersion: `^${ROUTER_PACKAGE_VERSION}`, version: ROUTER_PACKAGE_VERSION },
    zustand: singleton('zustand'),
    i18next: singleton('i18next'),
    'react-i18next': singleton('react-i18next'),
    [SHARED_PACKAGE]: { singleton: true, requiredVersion: `^${SHARED_PACKAGE_VERSION}`, version: SHARED_PACKAGE_VERSION },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** What is worth compressing: text the browser loads (not source maps, fetched only by developer tools). */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt|ico)$/;
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible output file once the build is on disk, so the
 * server sends them (with `Vary: Accept-Encoding`) without compressing anything per request.
 */
export class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const root = compilation.outputOptions.path;
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      await Promise.all(
        entries
          .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
          .map(async (entry) => {
            const file = join(entry.parentPath, entry.name);
            const content = await readFile(file);
            if (content.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                  [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
              gzipAsync(content, { level: zlibConstants.Z_BEST_COMPRESSION }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          }),
      );
    });
  }
}

/**
 * @param {object} options
 * @param {string} options.dir          the app's folder
 * @param {string} options.name         federation name (a JS identifier: shell, mf_messenger…)
 * @param {Record<string,string>} [options.exposes]  what a remote offers the shell
 * @param {string[]} [options.runtimePlugins]        the shell's runtime plugins (fallbacks for failed remotes)
 * @param {string} [options.title]      the page title (shell only)
 * @param {string} [options.favicon]    the page's icon, relative to `dir`; served as /favicon.ico (shell only)
 * @param {number} [options.port]       where `npm run serve` in the app serves it on its own
 */
export function federatedConfig({ dir, name, exposes, runtimePlugins = [], title, favicon, port }) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const isHost = !exposes;
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      name,
      context: dir,
      // A remote has no page of its own: its container entry (remoteEntry.js) is all it serves.
      entry: isHost ? './src/index.ts' : {},
      mode: production ? 'production' : 'development',
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: join(dir, 'dist'),
        // The shell is always served from the root; a remote from wherever its manifest was found.
        publicPath: isHost ? '/' : 'auto',
        filename: production ? '[name].[contenthash:8].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
        uniqueName: name,
        clean: true,
      },
      // `.js` imports of TypeScript files: the contract package (packages/protocol) is written for Node's ES modules too.
      resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: require.resolve('swc-loader'),
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  target: 'es2022',
                  transform: { react: { runtime: 'automatic', development: !production } },
                },
              },
            },
          },
          {
            test: /\.css$/,
            // css-loader follows `devtool`: in production every style sheet would carry its source map (the CSS a
            // second time, and its mappings) inside the JavaScript that injects it.
            use: [require.resolve('style-loader'), { loader: require.resolve('css-loader'), options: { sourceMap: !production } }],
          },
          { test: /\.(png|svg|jpe?g|webp|wav|mp3|ogg)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(isHost ? {} : { filename: 'remoteEntry.js', exposes }),
          shared: sharedModules(pkg),
          // Load a shared module from whoever loaded first; the default would fetch every remote's entry at
          // start-up, and one remote that is down could hang the shell.
          shareStrategy: 'loaded-first',
          runtimePlugins: runtimePlugins.map((plugin) => join(dir, plugin)),
          manifest: true,
          dts: false,
          // One federation runtime per page: the shell provides its own to the remotes (a global), and their
          // remoteEntry.js files leave theirs out (about 15 KB compressed each). Every app builds with the
          // @module-federation/enhanced pinned here, so the runtime a remote meets is the one it was built with.
          // The shell's runtime is built for browsers only (`target: 'web'`): its loaders for Node go (2.2 KB).
          experiments: isHost ? { provideExternalRuntime: true, optimization: { target: 'web' } } : { externalRuntime: true },
        }),
        ...(isHost
          ? [
              new HtmlWebpackPlugin({
                template: join(dir, 'src', 'index.html'),
                title,
                scriptLoading: 'defer',
                ...(favicon ? { favicon: join(dir, favicon) } : {}),
              }),
            ]
          : []),
        ...(production ? [new PrecompressPlugin()] : []),
        // BUNDLE_REPORT=1: what each chunk is made of (webpack-bundle-analyzer), as a page to browse and as JSON
        // for `e2e/bench/bundle-report.bench.mjs`; written beside the app, never into dist (which is served).
        ...(process.env.BUNDLE_REPORT
          ? ['static', 'json'].map(
              (analyzerMode) =>
                new BundleAnalyzerPlugin({
                  analyzerMode,
                  reportFilename: join(dir, 'bundle-report', `report.${analyzerMode === 'static' ? 'html' : 'json'}`),
                  openAnalyzer: false,
                }),
            )
          : []),
      ],
      // `webpack serve`: the app on its own port. A remote serves its manifest and chunks to any shell (CORS);
      // the shell forwards the API to a running server (API_URL, default http://localhost:8080).
      devServer: {
        port,
        hot: false,
        headers: { 'Access-Control-Allow-Origin': '*' },
        ...(isHost
          ? {
              historyApiFallback: true,
              proxy: [{ context: ['/api', '/remotes.json', '/remotes'], target: process.env.API_URL ?? 'http://localhost:8080', ws: true }],
            }
          : {}),
      },
      performance: { hints: false },
      stats: 'errors-warnings',
      infrastructureLogging: { level: 'warn' },
    };
  };
}

/**
 * The shell's service worker, built beside it into the same dist (after it: the shell's build cleans the folder)
 * with the web app manifest and icons copied from `staticDir`. A plain worker script at a fixed name (/sw.js, its
 * scope is the whole site): no module federation, no hashed chunks — a worker's script URL must stay the same.
 *
 * @param {object} options
 * @param {string} options.dir        the app's folder
 * @param {string} options.after      the name of the app's main config, built first
 * @param {string} options.entry      the worker's source, relative to `dir`
 * @param {string} options.staticDir  files served as they are from the root (manifest, icons), relative to `dir`
 */
export function serviceWorkerConfig({ dir, after, entry, staticDir }) {
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      name: `${after}-service-worker`,
      dependencies: [after],
      context: dir,
      target: 'webworker',
      entry: { sw: entry },
      mode: production ? 'production' : 'development',
      devtool: production ? 'source-map' : false,
      output: { path: join(dir, 'dist'), publicPath: '/', filename: '[name].js', clean: false },
      resolve: { extensions: ['.ts', '.mjs', '.js'] },
      module: {
        rules: [
          {
            test: /\.[cm]?ts$/,
            exclude: /node_modules/,
            use: { loader: require.resolve('swc-loader'), options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } } },
          },
        ],
      },
      plugins: [
        new CopyPlugin({ patterns: [{ from: join(dir, staticDir), to: '.', globOptions: { ignore: ['**/*.svg'] } }] }),
        ...(production ? [new PrecompressPlugin()] : []),
      ],
      performance: { hints: false },
      stats: 'errors-warnings',
      infrastructureLogging: { level: 'warn' },
    };
  };
}
