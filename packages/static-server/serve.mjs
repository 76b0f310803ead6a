#!/usr/bin/env node
// A small static server for a built frontend (the shell or a remote's dist/):
// CORS for every origin (remotes are loaded cross-origin by the shell), SECURITY_HEADERS, long caching for
// content-hashed files, no-cache for the files that name them (index.html, remoteEntry.js,
// mf-manifest.json), gzip when the browser accepts it, and the SPA fallback to index.html.
//
//   node serve.mjs <dir> <port>
//
// `serveStatic(dir, port, options)` starts the same server in-process (the stack launcher does);
// `createStaticHandler(dir, options)` gives the request handler alone, to mount in another server.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';

const gzipAsync = promisify(gzip);

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt']);
/** `main.3f9a1c2b.js`, `assets/login-fallback.0a1b2c3d.svg`: the name changes with the content. */
const HASHED = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * On every answer: the declared type is the only one (nosniff); a Referer carries only the origin to
 * other sites; nothing but a page of this same server frames what it serves (the shell's silent
 * sign-in page, when it serves the shell). The shell's full policy is the web front's (api/src/web/content-security-policy.ts).
 */
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Content-Security-Policy': "frame-ancestors 'self'",
};

/**
 * @param {string} dir Folder to serve.
 * @param {{ json?: Record<string, unknown | (() => unknown)> }} [options]
 *   `json`: extra JSON documents by URL path (for example '/config.json'), served with no-cache.
 * @returns {(req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => Promise<void>}
 *   Calls `next` (when given) instead of answering 404.
 */
export function createStaticHandler(dir, options = {}) {
  const root = path.resolve(dir);
  const gzipCache = new Map();

  async function fileAt(urlPath) {
    const file = path.resolve(root, `.${urlPath}`);
    if (file !== root && !file.startsWith(root + path.sep)) return null;
    try {
      const info = await stat(file);
      if (info.isFile()) return { file, info };
      if (info.isDirectory()) {
        const index = path.join(file, 'index.html');
        const indexInfo = await stat(index).catch(() => null);
        if (indexInfo?.isFile()) return { file: index, info: indexInfo };
      }
    } catch {
      // not there
    }
    return null;
  }

  async function send(req, res, { file, info }) {
    const ext = path.extname(file).toLowerCase();
    res.setHeader('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', HASHED.test(path.basename(file)) ? IMMUTABLE : 'no-cache');
    res.setHeader('Last-Modified', info.mtime.toUTCString());
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.headers['if-modified-since'] && new Date(req.headers['if-modified-since']) >= new Date(info.mtime.toUTCString())) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (acceptsGzip && COMPRESSIBLE.has(ext) && info.size > 1024) {
      const key = `${file}:${info.mtimeMs}`;
      let body = gzipCache.get(key);
      if (!body) {
        body = await gzipAsync(await readFile(file));
        gzipCache.set(key, body);
      }
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', body.length);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    res.setHeader('Content-Length', info.size);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  }

  return async function handle(req, res, next) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', String(req.headers['access-control-request-headers'] ?? '*'));
      res.statusCode = 204;
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (next) return next();
      res.statusCode = 405;
      res.end();
      return;
    }
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.statusCode = 400;
      res.end();
      return;
    }

    const json = options.json?.[urlPath];
    if (json !== undefined) {
      const body = JSON.stringify(typeof json === 'function' ? await json() : json);
      res.setHeader('Content-Type', CONTENT_TYPES['.json']);
      res.setHeader('Cache-Control', 'no-cache');
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }

    const found = await fileAt(urlPath);
    if (found) return send(req, res, found);

    // SPA fallback: a page request (no file extension, or one that wants HTML) gets index.html;
    // a missing script or asset stays a 404 so a broken deployment fails loudly.
    const wantsPage = !path.extname(urlPath) || String(req.headers.accept ?? '').includes('text/html');
    if (wantsPage) {
      const index = await fileAt('/index.html');
      if (index) return send(req, res, index);
    }
    if (next) return next();
    res.statusCode = 404;
    res.setHeader('Content-Type', CONTENT_TYPES['.txt']);
    res.setHeader('Cache-Control', 'no-cache');
    res.end('Not found');
  };
}

/**
 * Serve `dir` on `port`, on every interface unless `options.host` is given (so both 127.0.0.1 and
 * ::1, which `localhost` may resolve to, answer). Returns the listening http.Server.
 * @param {string} dir
 * @param {number} port
 * @param {{ host?: string, json?: Record<string, unknown> }} [options]
 * @returns {http.Server}
 */
export function serveStatic(dir, port, options = {}) {
  const handle = createStaticHandler(dir, options);
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  server.listen(port, options.host);
  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, port] = process.argv.slice(2);
  if (!dir || !port) {
    console.error('usage: node serve.mjs <dir> <port>');
    process.exit(2);
  }
  const server = serveStatic(dir, Number(port), { host: process.env.HOST });
  server.on('listening', () => console.log(`serving ${path.resolve(dir)} on port ${server.address().port}`));
  server.on('error', (error) => {
    console.error(error.message);
    process.exit(1);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
