/**
 * Rate limits per client address (`req.ip`: the address a loopback proxy names in X-Forwarded-For,
 * see app.ts), answered 429 `{ message }` with Retry-After. The counters live in this process's
 * memory: with several API processes behind a balancer each counts its own share, which loosens a
 * limit by their number but never refuses anyone by mistake.
 */
import type { Request, Response } from 'express';
import { rateLimit, type Options, type RateLimitRequestHandler } from 'express-rate-limit';

const TOO_MANY = { message: 'Too many requests; try again later' };

const common: Partial<Options> = {
  // RateLimit and RateLimit-Policy on answers; Retry-After on a 429.
  standardHeaders: 'draft-8',
  legacyHeaders: false,
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
