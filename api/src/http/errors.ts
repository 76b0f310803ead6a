/**
 * The one error handler. Every error answer is `{ message, errors? }` with a proper status;
 * a 500 never carries internals (they go to the log with the stack). Services throw DomainErrors;
 * their kinds become statuses here and nowhere else.
 */
import type { ErrorRequestHandler, Request } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import { AuthError, AuthUnavailableError } from '../auth/verifier.js';
import { isDatabaseUnavailable } from '../db/database.js';
import type { Logger } from '../logger.js';
import { BrokerUnavailableError } from '../queue/message-queue.js';
import { DATABASE_UNAVAILABLE, DomainError, type DomainErrorKind } from '../errors.js';
import { findingSentence, mediaTypeSentence, methodSentence } from './validator-messages.js';

export interface ErrorItem {
  path?: string;
  message: string;
  errorCode?: string;
}

export interface ErrorBody {
  message: string;
  errors?: ErrorItem[];
}

/** A call that publishes, while the broker is away (http/publishing-calls.ts). */
export const BROKER_UNAVAILABLE =
  'Sending and imports are paused: the message broker is unavailable. Nothing was lost; try again in a minute.';

export const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  unavailable: 503,
};

/**
 * PostgreSQL's "data exception" class (22xxx: invalid text for a type, out of range, a NUL byte
 * in text...): a value the contract let through that the database refuses. The caller's fault,
 * not ours; the contract should have caught it, so this is the safety net.
 */
function isInvalidInput(err: unknown): boolean {
  for (let e: unknown = err; e !== null && typeof e === 'object'; e = (e as { parent?: unknown }).parent) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.length === 5) return code.startsWith('22');
    if ((e as { parent?: unknown }).parent === e) break;
  }
  return false;
}

const INTERNAL: ErrorBody = { message: 'Internal server error' };

const VALIDATOR_ERROR_CLASSES = Object.values(validatorErrors);

interface ValidatorError extends Error {
  status: number;
  errors?: { path?: string; message: string; errorCode?: string }[];
}

function isValidatorError(err: unknown): err is ValidatorError {
  return VALIDATOR_ERROR_CLASSES.some((ErrorClass) => err instanceof ErrorClass);
}

/** body-parser and other http-errors style errors flag messages that are safe to show with `expose`. */
function isExposedClientError(err: unknown): err is { status: number; message: string; type?: string } {
  if (err === null || typeof err !== 'object') return false;
  const e = err as { status?: unknown; expose?: unknown };
  return e.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
}

/** What the validator's whole-request findings (no field to name) say to a member. */
const REQUEST_SENTENCES: Record<string, string> = {
  'multipart file(s) required': 'This request needs a file, sent as a form (multipart/form-data).',
};

interface ValidatedRequest {
  openapi?: { schema?: { requestBody?: { content?: Record<string, unknown> } } };
}

/** The media type the request's body was sent as (none without a Content-Type) and those its operation takes. */
function mediaTypes(req: Request | undefined): { sent: string | undefined; accepted: string[] } {
  const sent = req?.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
  const content = (req as ValidatedRequest | undefined)?.openapi?.schema?.requestBody?.content;
  return { sent, accepted: Object.keys(content ?? {}) };
}

/** The validator's 4xx answer, its findings written as sentences that keep each field's name. */
function validatorClientError(err: ValidatorError, req: Request | undefined): { status: number; body: ErrorBody } {
  const { status } = err;
  if (status === 415) {
    const { sent, accepted } = mediaTypes(req);
    return { status, body: { message: mediaTypeSentence(sent, accepted) } };
  }
  if (status === 405) return { status, body: { message: methodSentence(err.message) } };
  const errors = err.errors?.map(({ path, message, errorCode }) => ({
    ...(path === undefined ? {} : { path }),
    message: REQUEST_SENTENCES[message] ?? findingSentence({ path, message }),
    ...(errorCode === undefined ? {} : { errorCode }),
  }));
  if (!errors || errors.length === 0) return { status, body: { message: REQUEST_SENTENCES[err.message] ?? err.message } };
  return { status, body: { message: [...new Set(errors.map((item) => item.message))].join(' '), errors } };
}

/** Maps any error to its status and body; `req`, when given, names the media types a refused body could have had. */
export function errorResponse(err: unknown, req?: Request): { status: number; body: ErrorBody } {
  if (err instanceof DomainError) return { status: STATUS_OF_KIND[err.kind], body: { message: err.message } };
  if (isDatabaseUnavailable(err)) return { status: 503, body: { message: DATABASE_UNAVAILABLE } };
  if (err instanceof BrokerUnavailableError) return { status: 503, body: { message: BROKER_UNAVAILABLE } };
  if (isInvalidInput(err)) return { status: 400, body: { message: 'A value in the request is not valid' } };
  if (err instanceof AuthError) return { status: err.status, body: { message: err.message } };
  if (err instanceof AuthUnavailableError) return { status: err.status, body: { message: err.message } };
  if (isValidatorError(err)) {
    const { status } = err;
    if (status === 404) return { status, body: { message: 'Not found' } };
    if (status === 503) return { status, body: { message: err.message } };
    if (status >= 500) return { status: 500, body: INTERNAL };
    // Security failures: the message says it all (the validator's item only repeats the URL).
    if (status === 401 || status === 403) return { status, body: { message: err.message } };
    return validatorClientError(err, req);
  }
  if (isExposedClientError(err)) {
    if (err.type === 'entity.too.large') return { status: 413, body: { message: 'Request body too large' } };
    if (err.type === 'entity.parse.failed') return { status: 400, body: { message: "The request's body is not valid JSON." } };
    return { status: err.status, body: { message: err.message } };
  }
  return { status: 500, body: INTERNAL };
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    const { status, body } = errorResponse(err, req);
    const log = req.log ?? logger;
    if (status >= 500) log.error({ err }, 'request failed');
    else log.debug({ err: { message: (err as Error)?.message }, status }, 'request rejected');
    // Headers already out (a stream failed half-way): nothing sensible to send; let Express end it.
    if (res.headersSent) return next(err);
    res.status(status).json(body);
  };
}
