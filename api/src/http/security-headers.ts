/**
 * Security headers. Every answer says its declared type is the only one (nosniff), how much of its
 * address may travel in a Referer, and, through its Content-Security-Policy, what it may load and
 * who may frame it. The API's answers get the policy below; the shell's pages get theirs from the
 * web front (web/content-security-policy.ts), which uses the same middleware.
 */
import type { Request, RequestHandler } from 'express';

export type SecurityHeaders = Readonly<Record<string, string>>;

/** A browser never runs or shows an answer as anything but its Content-Type (a JSON body is never HTML). */
export const NOSNIFF: SecurityHeaders = { 'X-Content-Type-Options': 'nosniff' };

/**
 * The API's answers. Nothing of the API runs script or loads anything; the few pages it serves
 * (the unsubscribe page of a mail) are text with inline style attributes and a form posting back to
 * the API. No Referer leaves them: their addresses hold tracking and unsubscribe tokens.
 */
export const API_SECURITY_HEADERS: SecurityHeaders = {
  ...NOSNIFF,
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** Sets `headers` (or the headers chosen for the request) on every answer, before anything else writes. */
export function securityHeaders(headers: SecurityHeaders | ((request: Request) => SecurityHeaders)): RequestHandler {
  return (request, response, next) => {
    response.set(typeof headers === 'function' ? headers(request) : headers);
    next();
  };
}
