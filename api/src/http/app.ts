/**
 * The Express application: logging, body parsing, the OpenAPI contract (requests always
 * validated, responses when configured, bearer security), the feature routers, the one error
 * handler. No listening here: see main.ts (and the stack launcher, which mounts it).
 */
import { appendFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import { withApiKeys } from '../auth/api-key-verifier.js';
import { bearerAuthHandler, requireMember } from '../auth/middleware.js';
import type { AppDeps } from '../deps.js';
import { errorHandler } from './errors.js';
import { publishingCallsNeedTheBroker } from './publishing-calls.js';
import { apiKeyLimiter, publicRouteLimiter, signInFailureLimiter } from './rate-limits.js';
import { CALENDAR_FORMATS, finiteNumericParameters, unreadableUploads } from './validator-gaps.js';
import { routes } from './routes/index.js';
import { subscribeErrorPages } from './routes/subscribe.js';
import { TEMPLATE_SAVE_BODY_LIMIT } from './routes/templates.js';
import { trackingHits } from './routes/tracking.js';
import { removeUntakenUploads, spoolStorage } from './upload-spool.js';
import { signupCors } from './public/cors.js';
import { API_SECURITY_HEADERS, securityHeaders } from './security-headers.js';

/** The contract, at the repository root. */
export const OPENAPI_SPEC_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../../openapi.yaml');

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/** The routes outside /api that anyone may call: tracking, and unsubscribe, preferences, sign-up and SES events. */
const TRACKING_PATH = '/t';
const PUBLIC_PATHS = ['/unsubscribe', '/preferences', '/webhooks', '/subscribe'];

/**
 * JSON bodies are small (DEFAULT_JSON_LIMIT) unless their route is listed here: its own parser runs
 * first, and the default one then finds the body already read. Raise a limit here, per route, rather
 * than for every route.
 */
const DEFAULT_JSON_LIMIT = '100kb';
const LARGE_JSON_BODIES: { method: 'put' | 'post'; path: RegExp; limit: string }[] = [
  // A template carries the editor's design json, its html and plain text, and a preview image.
  // (Patterns without groups: a named parameter would be decoded here, before the contract checks the path.)
  { method: 'put', path: /^\/api\/templates\/[^/]+$/, limit: TEMPLATE_SAVE_BODY_LIMIT },
  // A member's do-not-mail list, pasted or read from a CSV file: up to 5,000,000 characters, escaped in JSON.
  { method: 'post', path: /^\/api\/suppressions$/, limit: '12mb' },
];

interface OpenApiRequestInfo {
  openapi?: { schema?: { operationId?: string } };
}

export function createApp(deps: AppDeps): Express {
  const { config, logger } = deps;
  // Members' tokens and API keys, told apart by their prefix (auth/api-key-verifier.ts).
  const verifier = withApiKeys(deps.verifier, deps.services.apiKeys);
  const app = express();
  app.disable('x-powered-by');
  // Which proxies in front may name the client (TRUST_PROXY; by default one on the same machine).
  app.set('trust proxy', config.trustProxy);
  app.use(securityHeaders(API_SECURITY_HEADERS));
  if (config.operationLogPath && config.validateResponses) app.use(operationLog(config.operationLogPath));
  // One count per address for every public route, whichever mount below a request goes through.
  const publicLimiter = publicRouteLimiter(config.rateLimits.publicRequests);
  // The open pixel and click redirect: hit by every mail client, so ahead of the request log and the
  // contract's validator (see routes/tracking.ts).
  app.use(TRACKING_PATH, publicLimiter);
  app.use(trackingHits(deps));

  app.use(
    pinoHttp({
      logger: logger.child({ component: 'http' }),
      autoLogging: { ignore: (req) => HEALTH_PATHS.has(req.url ?? '') },
      // A client that hangs up mid-request (an abandoned upload) is no fault of ours.
      customLogLevel: (req, res, err) =>
        req.readableAborted ? 'debug' : err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    }),
  );
  app.use(removeUntakenUploads(deps));

  // Every /api call needs a member's token: it is checked before any body is read, so a stranger's
  // request costs no parsing. Refusals are counted per address (429 past the limit).
  // An API key's calls are counted per key, whichever address they come from.
  app.use(
    '/api',
    signInFailureLimiter(config.rateLimits.signInFailures),
    requireMember(verifier),
    apiKeyLimiter(config.rateLimits.apiKeyRequests),
  );
  // A call that publishes (a send, an import) waits for the broker here, before its body is read: 503 while it is away.
  app.use(publishingCallsNeedTheBroker(deps));
  app.use(PUBLIC_PATHS, publicLimiter);
  // A sign-up form's cross-site calls: CORS for the form's own allowed origins, preflights answered here.
  app.use(signupCors(deps));

  for (const { method, path, limit } of LARGE_JSON_BODIES) app[method](path, express.json({ limit }));
  app.use(express.json({ limit: DEFAULT_JSON_LIMIT }));
  // SNS posts its JSON envelope as text/plain; RFC 8058 one-click unsubscribe posts a form.
  app.use(express.text({ type: 'text/plain', limit: '256kb' }));
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));

  app.use(
    OpenApiValidator.middleware({
      apiSpec: OPENAPI_SPEC_PATH,
      validateRequests: true,
      validateResponses: config.validateResponses,
      validateSecurity: { handlers: { bearerAuth: bearerAuthHandler(verifier) } },
      formats: CALENDAR_FORMATS,
      // Uploads stream into the import spool, never to a local temporary file nor to memory (upload-spool.ts).
      fileUploader: { storage: spoolStorage(deps), limits: { fileSize: config.import.maxBytes, files: 1, fields: 20 } },
    }),
  );
  app.use(finiteNumericParameters(OPENAPI_SPEC_PATH), unreadableUploads());

  app.use(routes(deps));
  // A refused sign-up, wherever it was refused, is a page for the person who posted the form.
  app.use('/subscribe', subscribeErrorPages(deps));

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
