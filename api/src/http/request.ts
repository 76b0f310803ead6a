/**
 * Reading a request's parameters after the contract (openapi.yaml, enforced by
 * express-openapi-validator) has checked and coerced them: these only pick the value out with its
 * type, applying the defaults a missing optional parameter has.
 */
import type { Request } from 'express';
import type { PageQuery } from '../services/paging.js';
import type { HitRequest } from '../services/tracking/tracking-service.js';

/** The `{id}` path parameter (an integer the contract bounds to a safe range). */
export const id = (req: Request, name = 'id'): number => Number(req.params[name]);

/** An optional integer query parameter. */
export const int = (value: unknown, fallback: number): number => (value === undefined ? fallback : Number(value));

/** An optional string query parameter. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An optional boolean query parameter ('true'/'false' or already coerced). */
export const bool = (value: unknown): boolean | undefined =>
  value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;

/** `page` and `limit` of a list call, with the spec's defaults (1 and 10). */
export const pageQuery = (req: Request): PageQuery => ({ page: int(req.query.page, 1), limit: int(req.query.limit, 10) });

/** Who a public link's request came from: its agent and address (TRUST_PROXY decides whose X-Forwarded-For counts). */
export const hitRequest = (req: Request): HitRequest => ({ userAgent: req.get('user-agent') ?? '', ip: req.ip });
