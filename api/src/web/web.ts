/**
 * The web front of the one-command stack: the shell's static files, its runtime configuration
 * (`/config.json`, `/remotes.json`) and the API on the same origin, so the browser needs no CORS
 * for its own API and the tracking links share the product's address.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Request, type RequestHandler } from 'express';
import type { RemotesManifest, ShellConfig } from '@mailroom/mf-contract';
import { REMOTE_NAMES, remoteManifestUrl, remoteUrlVariable, type RemoteName } from '@mailroom/mf-contract/remotes';
import type { Config } from '../config.js';
import { NOSNIFF, securityHeaders, type SecurityHeaders } from '../http/security-headers.js';
import { SILENT_CHECK_PATH, shellContentSecurityPolicy } from './content-security-policy.js';

/** Files of the shell's build whose names carry no content hash. */
const UNHASHED = /(\.html|[\\/]favicon\.ico)$/;

/** Paths the API answers; everything else that asks for HTML gets the shell's index.html. */
const API_PREFIXES = ['/api/', '/t/', '/unsubscribe/', '/preferences/', '/subscribe/', '/webhooks/', '/healthz', '/readyz'];

function wantsShell(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (API_PREFIXES.some((prefix) => request.path.startsWith(prefix))) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Headers of what the web front answers itself (the API's answers get the API's own). Only the
 * origin goes in a Referer to another site, never a path (the shell's addresses name audiences and
 * campaigns, the sign-in callback carries a code).
 */
function shellSecurityHeaders(shellConfig: ShellConfig, remotes: RemotesManifest): (request: Request) => SecurityHeaders {
  const headers = (framedBySelf: boolean): SecurityHeaders => ({
    ...NOSNIFF,
    'Content-Security-Policy': shellContentSecurityPolicy(shellConfig, remotes, { framedBySelf }),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  const page = headers(false);
  const silentCheck = headers(true);
  return (request) => (request.path === SILENT_CHECK_PATH ? silentCheck : page);
}

export interface WebAppOptions {
  shellDist: string;
  shellConfig: ShellConfig;
  remotes: RemotesManifest;
  /** Mounted after the shell; without it (the `web` entry) the API is another process behind the same origin. */
  api?: Express;
  /** Answered ahead of the shell's files and its page fallback (the remotes' files, a probe). */
  mounts?: { path: string; handler: RequestHandler }[];
}

export function createWebApp(options: WebAppOptions): Express {
  const web = express();
  web.disable('x-powered-by');
  web.use(securityHeaders(shellSecurityHeaders(options.shellConfig, options.remotes)));
  for (const { path, handler } of options.mounts ?? []) web.use(path, handler);
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
          // Hashed bundles never change; the entry html and the favicon (fixed names) must always be fresh.
          response.set('Cache-Control', UNHASHED.test(path) ? 'no-cache' : 'public, max-age=31536000, immutable');
        },
      }),
    );
    web.use((request, response, next) => {
      if (!wantsShell(request)) return next();
      response.set('Cache-Control', 'no-cache').sendFile(join(options.shellDist, 'index.html'));
    });
  }
  if (options.api) web.use(options.api);
  return web;
}

/** config.json: the shell on this origin's API, the configured identity provider and deployment settings. */
export function shellConfigOf(config: Config): ShellConfig {
  const { url, key } = config.stockPhoto;
  return {
    apiBaseUrl: '',
    oidc: { authority: config.oidc.issuer, clientId: config.oidc.clientId, scope: 'openid profile email' },
    orgDomain: config.orgEmailDomain,
    orgName: config.orgName,
    stockPhoto: url && key ? { url, key } : null,
    features: { importMaxBytes: config.import.maxBytes, emailEditorScriptUrl: config.emailEditorScriptUrl },
  };
}

/** remotes.json for remotes served at http://host:port by the stack, each overridable by REMOTE_<NAME>_URL. */
export function remotesManifest(env: NodeJS.ProcessEnv, ports: Record<RemoteName, number>, host: string): RemotesManifest {
  const entries = REMOTE_NAMES.map((name) => [
    name,
    env[remoteUrlVariable(name)] ?? remoteManifestUrl(name, `http://${host}:${ports[name]}`),
  ]);
  return Object.fromEntries(entries) as RemotesManifest;
}
