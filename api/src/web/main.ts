/**
 * The static front of a deployment (`pnpm --filter @mailroom/api web`, the image's `web` command): the
 * shell's built files with its runtime `/config.json` and `/remotes.json`, and each remote's built files
 * under `/remotes/<dir>/`, on PORT. The API is another process (`http`): the load balancer in front
 * sends `/api`, `/t`, `/unsubscribe`, `/preferences`, `/subscribe`, `/webhooks` to it and everything else here, so the shell and
 * the API share one origin (docs/operations.md).
 *
 * A remote published elsewhere (a CDN, any static host) is named by REMOTE_<NAME>_URL (its
 * mf-manifest.json); without it remotes.json names this server's copy, under PUBLIC_URL.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import type { RemotesManifest } from '@mailroom/mf-contract';
import { REMOTES, REMOTE_NAMES, remoteManifestUrl, remoteUrlVariable } from '@mailroom/mf-contract/remotes';
import { createStaticHandler } from '@mailroom/static-server';
import { loadConfig, type Config } from '../config.js';
import { startHttpServer } from '../http/server.js';
import { createLogger } from '../logger.js';
import { onShutdownSignal } from '../lifecycle.js';
import { createWebApp, shellConfigOf } from './web.js';

/** The built frontends, as the repository (and the image) lays them out. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

let config: Readonly<Config>;
try {
  config = loadConfig(process.env, { role: 'web' });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const logger = createLogger(config, { process: 'web' });

const shellDist = join(root, 'shell/dist');
const served = REMOTE_NAMES.filter((name) => !process.env[remoteUrlVariable(name)]);
// A front without its files would answer every page with 404s: refuse to start instead.
const missing = [
  join(shellDist, 'index.html'),
  ...served.map((name) => join(root, REMOTES[name].dir, 'dist', REMOTES[name].manifestPath)),
].filter((file) => !existsSync(file));
if (missing.length > 0) {
  logger.fatal({ missing }, 'the built frontends are missing (run `pnpm build`)');
  process.exit(1);
}

const remotes = Object.fromEntries(
  REMOTE_NAMES.map((name) => [
    name,
    process.env[remoteUrlVariable(name)] ?? remoteManifestUrl(name, `${config.publicUrl}/remotes/${REMOTES[name].dir}`),
  ]),
) as RemotesManifest;

const remoteFiles = (dir: string): RequestHandler => {
  const handle = createStaticHandler(join(root, dir, 'dist'));
  return (request, response, next) => void handle(request, response, next).catch(next);
};

const app = createWebApp({
  shellDist,
  shellConfig: shellConfigOf(config),
  remotes,
  mounts: [
    { path: '/healthz', handler: (_request, response) => void response.json({ status: 'ok' }) },
    ...served.map((name) => ({ path: `/remotes/${REMOTES[name].dir}`, handler: remoteFiles(REMOTES[name].dir) })),
  ],
});

const server = await startHttpServer(app, { port: config.port, logger });
logger.info({ remotes }, 'serving the shell and its remotes');
onShutdownSignal(logger, () => server.stop());
