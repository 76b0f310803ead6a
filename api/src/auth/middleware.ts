/**
 * Express glue for bearer authentication.
 *
 * - `bearerAuthHandler(verifier)` is the `validateSecurity.handlers.bearerAuth` of express-openapi-validator: it reads
 *   `Authorization: Bearer <jwt>`, verifies it, sets `req.member` and resolves `true`, or throws an `AuthError`
 *   (status 401/403, safe message). The validator turns that into an HttpError with the same status and message, which the
 *   central error handler answers as `{ message }`.
 * - `requireMember(verifier)` does the same as a plain Express middleware (routes outside the OpenAPI document).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import { authorize } from './access.js';
import { AuthError, type Member, type TokenVerifier } from './verifier.js';

export { AuthError, AuthUnavailableError, createTokenVerifier } from './verifier.js';
export type { Member, TokenVerifier, TokenVerifierOptions } from './verifier.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The signed-in member, set by the bearer authentication (every `/api` route). */
      member?: Member;
    }
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when there is none (or another scheme). */
export function readBearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(value);
  return match?.[1];
}

/**
 * Verifies the request's bearer token and stores the member on the request. Throws `AuthError` (or AuthUnavailableError).
 * A request already authenticated (the app checks /api before reading bodies) is not verified twice.
 */
export async function authenticate(verifier: TokenVerifier, req: Request): Promise<Member> {
  if (req.member) return req.member;
  const token = readBearerToken(req.headers.authorization);
  if (!token) throw new AuthError(401, 'Missing bearer token');
  const member = await verifier.verify(token);
  req.member = member;
  return member;
}

interface OpenApiOperation {
  openapi?: { schema?: { operationId?: string } };
}

/**
 * `validateSecurity: { handlers: { bearerAuth: bearerAuthHandler(verifier) } }` for express-openapi-validator. The
 * validator calls it once it knows the operation and before it reads an upload or checks a body, so this is where the
 * contract's role table is enforced (access.ts): a caller without the role is refused 403 before anything is read.
 */
export function bearerAuthHandler(verifier: TokenVerifier): (req: Request, scopes: string[], schema: unknown) => Promise<true> {
  return async (req) => {
    const member = await authenticate(verifier, req);
    authorize(member, (req as OpenApiOperation).openapi?.schema?.operationId);
    return true;
  };
}

/** Plain Express middleware doing the same; errors go to `next` for the central error handler. */
export function requireMember(verifier: TokenVerifier): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    authenticate(verifier, req).then(() => next(), next);
  };
}

/** The member of an authenticated request (route handlers behind the bearer check). */
export function memberOf(req: Request): Member {
  if (!req.member) throw new AuthError(401, 'Missing bearer token');
  return req.member;
}
