/**
 * CORS for a sign-up form's JSON call and challenge (issue 25): only the origins the form allows get the
 * Access-Control headers, and a preflight (OPTIONS, which the contract does not list) is answered here,
 * ahead of the validator. Any other origin gets no CORS header, so a browser withholds the answer from its
 * script; its preflight is refused with 403.
 */
import type { RequestHandler } from 'express';
import type { AppDeps } from '../../deps.js';

const FORM_CALL = /^\/subscribe\/([a-z0-9-]{1,64})(?:\/challenge)?$/;

export function signupCors({ services }: Pick<AppDeps, 'services'>): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    const slug = FORM_CALL.exec(req.path)?.[1];
    if (!origin || !slug || slug === 'static' || slug === 'confirm') return next();
    services.signups.allowedOrigins(slug).then((origins) => {
      const allowed = origins.includes(origin);
      res.vary('Origin');
      if (allowed) res.set('Access-Control-Allow-Origin', origin);
      if (req.method !== 'OPTIONS') return next();
      if (!allowed) {
        res.status(403).json({ message: 'This site may not call this form.' });
        return;
      }
      res
        .status(204)
        .set({
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': 'Content-Type, Accept',
          'Access-Control-Max-Age': '600',
        })
        .end();
    }, next);
  };
}
