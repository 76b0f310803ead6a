/**
 * The web front of the one-command stack: the shell's static files, its runtime configuration
 * (`/config.json`, `/remotes.json`) and the API on the same origin, so the browser needs no CORS
 * for its own API and the tracking links share the product's address.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Request } from 'express';
import { REMOTES, type RemotesManifest, type ShellConfig } from '@mailroom/mf-contract';

/** Paths the API answers; everything else that asks for HTML gets the shell's index.html. */
const API_PREFIXES = ['/api/', '/t/', '/unsubscribe/', '/webhooks/', '/healthz', '/readyz'];

function wantsShell(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (API_PREFIXES.some((prefix) => request.path.startsWith(prefix))) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

export function createWebApp(options: { shellDist: string; shellConfig: ShellConfig; remotes: RemotesManifest; api: Express }): Express {
  const web = express();
  web.disable('x-powered-by');
  web.get('/config.json', (_request, response) => {
    response.set('Cache-Control', 'no-cache').json(options.shellConfig);
  });
  web.get('/remotes.json', (_request, response) => {
    response.set('Cache-Control', 'no-cache').json(options.remotes);
  });
  if (existsSync(options.shellDist)) {
    web.use(
      express.static(options.shellDist, {
        index: false,
        setHeaders: (response, path) => {
          // Hashed bundles never change; the entry html must always be fresh.
          response.set('Cache-Control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
        },
      }),
    );
    web.use((request, response, next) => {
      if (!wantsShell(request)) return next();
      response.set('Cache-Control', 'no-cache').sendFile(join(options.shellDist, 'index.html'));
    });
  }
  web.use(options.api);
  return web;
}

/** remotes.json for remotes served at http://host:port by the stack, each overridable by REMOTE_<NAME>_URL. */
export function remotesManifest(env: NodeJS.ProcessEnv, ports: Record<keyof typeof REMOTES, number>, host: string): RemotesManifest {
  const entries = (Object.keys(REMOTES) as (keyof typeof REMOTES)[]).map((name) => [
    name,
    env[`REMOTE_${name.toUpperCase()}_URL`] ?? `http://${host}:${ports[name]}/mf-manifest.json`,
  ]);
  return Object.fromEntries(entries) as RemotesManifest;
}
