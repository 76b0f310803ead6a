/**
 * Rate limits per client address (`req.ip`: the address a loopback proxy names in X-Forwarded-For,
 * see app.ts), answered 429 `{ message }` with Retry-After. The counters live in this process's
 * memory: with several API processes behind a balancer each counts its own share, which loosens a
 * limit by their number but never refuses anyone by mistake.
 */
import { isIPv4 } from 'node:net';
import type { Request, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Options, type RateLimitRequestHandler } from 'express-rate-limit';

const TOO_MANY = { message: 'Too many requests; try again later' };

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The address a limit counts: an IPv6 address by its /56 network (one subscriber's block), as
 * express-rate-limit's ipKeyGenerator does; an IPv4 address as it is, also when a dual-stack
 * listener writes it as IPv6 (`::ffff:a.b.c.d`), which is read here without ipKeyGenerator's
 * general IPv6 parser: that parser was a tenth of the cost of a tracking hit.
 */
export function clientKey(ip: string): string {
  const mapped = MAPPED_IPV4.exec(ip)?.[1];
  return mapped !== undefined && isIPv4(mapped) ? mapped : ipKeyGenerator(ip);
}

const common: Partial<Options> = {
  // RateLimit and RateLimit-Policy on answers; Retry-After on a 429. Draft 7's fields: draft 8 adds
  // a partition key, a SHA-256 of the address on every answer, which a client has no use for.
  standardHeaders: 'draft-7',
  legacyHeaders: false,
  keyGenerator: (req) => clientKey(req.ip ?? ''),
  // That check reads the key generator's source for ipKeyGenerator; clientKey calls it for IPv6.
  validate: { keyGeneratorIpFallback: false },
  handler: (_req: Request, res: Response, _next, options: Options) => {
    res.status(options.statusCode).json(TOO_MANY);
  },
};

/**
 * Failed sign-ins on /api (answers 401 or 403): past `limit` in 15 minutes the address is refused
 * until the window ends, whatever its token. Only refusals count, so a member at work never comes
 * near it, while a client probing tokens (or sending bodies it may not send) is slowed down.
 */
export function signInFailureLimiter(limit: number): RateLimitRequestHandler {
  return rateLimit({
    ...common,
    windowMs: 15 * 60_000,
    limit,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401 && res.statusCode !== 403,
  });
}

/**
 * The public routes (tracking pixel and clicks, unsubscribe, the SES webhook): `limit` requests a
 * minute per address. Mail clients' image proxies and SNS send many recipients' hits from a few
 * addresses, so the limit is sized for a campaign's burst, not for one person.
 */
export function publicRouteLimiter(limit: number): RateLimitRequestHandler {
  return rateLimit({ ...common, windowMs: 60_000, limit });
}

/**
 * An API key's calls (issue 27): `limit` a minute per key, wherever they come from, so one script's loop slows
 * itself and not the members. Members' calls are not counted here.
 */
export function apiKeyLimiter(limit: number): RateLimitRequestHandler {
  return rateLimit({
    ...common,
    windowMs: 60_000,
    limit,
    skip: (req) => !req.member?.apiKey,
    keyGenerator: (req) => `api-key:${req.member?.apiKey?.id ?? ''}`,
  });
}
