/**
 * The Express application: logging, body parsing, the OpenAPI contract (requests always
 * validated, responses when configured, bearer security), the feature routers, the one error
 * handler. No listening here: see main.ts (and the stack launcher, which mounts it).
 */
import { appendFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import { bearerAuthHandler } from '../auth/middleware.js';
import type { AppDeps } from '../deps.js';
import { errorHandler } from './errors.js';
import { routes } from './routes/index.js';

/** The contract, at the repository root. */
export const OPENAPI_SPEC_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../../openapi.yaml');

/** Multipart uploads (contact import) go to disk, never to memory; removed when the response ends. */
export const UPLOAD_DIR = join(tmpdir(), 'mailroom-uploads');

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

interface OpenApiRequestInfo {
  openapi?: { schema?: { operationId?: string } };
}

export function createApp(deps: AppDeps): Express {
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  // The web server in front (stack, proxy) runs on the same machine.
  app.set('trust proxy', 'loopback');

  app.use(
    pinoHttp({
      logger: logger.child({ component: 'http' }),
      autoLogging: { ignore: (req) => HEALTH_PATHS.has(req.url ?? '') },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );
  app.use(removeUploadsWhenDone(logger));
  if (config.operationLogPath && config.validateResponses) app.use(operationLog(config.operationLogPath));

  // Templates carry the editor's design json and a preview image: a few MB at most.
  app.use(express.json({ limit: '10mb' }));
  // SNS posts its JSON envelope as text/plain; RFC 8058 one-click unsubscribe posts a form.
  app.use(express.text({ type: 'text/plain', limit: '256kb' }));
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));

  app.use(
    OpenApiValidator.middleware({
      apiSpec: OPENAPI_SPEC_PATH,
      validateRequests: true,
      validateResponses: config.validateResponses,
      validateSecurity: { handlers: { bearerAuth: bearerAuthHandler(deps.verifier) } },
      fileUploader: { dest: UPLOAD_DIR, limits: { fileSize: config.importMaxBytes, files: 1, fields: 20 } },
    }),
  );

  app.use(routes(deps));

  app.use(((_req, res) => {
    res.locals.unhandled = true;
    res.status(404).json({ message: 'Not found' });
  }) satisfies RequestHandler);
  app.use(errorHandler(logger));
  return app;
}

/**
 * Contract coverage (tests/contract): one JSON line per request an operation handled, written only
 * while responses are validated, so the log proves each operation ran under response validation.
 * Synchronous appends of one short line: concurrent test processes never interleave inside a line.
 */
function operationLog(path: string): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const operationId = (req as OpenApiRequestInfo).openapi?.schema?.operationId;
      if (!operationId || res.locals.unhandled) return;
      appendFileSync(path, `${JSON.stringify({ operationId, status: res.statusCode })}\n`);
    });
    next();
  };
}

function removeUploadsWhenDone(logger: AppDeps['logger']): RequestHandler {
  return (req, res, next) => {
    res.on('close', () => {
      const files = (req as { files?: unknown }).files;
      if (!Array.isArray(files)) return;
      for (const file of files as { path?: string }[]) {
        if (file.path) rm(file.path, { force: true }).catch((err: unknown) => logger.warn({ err }, 'could not remove an upload'));
      }
    });
    next();
  };
}
