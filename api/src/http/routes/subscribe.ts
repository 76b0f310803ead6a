/**
 * The public sign-up routes (issue 25; no token, outside /api): a form's hosted page, its challenge,
 * the submission, the confirmation link, and the page's own static files. The signup service holds the
 * rules; this file reads requests and writes pages (public/signup-pages.ts) or, for a JSON call, JSON.
 *
 * A refusal from anywhere before the route (the contract's validator: a wrong content type, a body too
 * large) reaches this router's error handler too, so a person posting the form sees the reason on a page.
 */
import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import type { AppDeps } from '../../deps.js';
import { errorResponse } from '../errors.js';
import { clientKey } from '../rate-limits.js';
import {
  sendConfirmPage,
  sendFormPage,
  sendSignupMessage,
  signupStaticFiles,
  STATIC_PREFIX,
  type PageFrame,
} from '../public/signup-pages.js';

/** A JSON caller (the optional JSON call of an embedding site) wants JSON answers; a browser's form post wants pages. */
const wantsJson = (req: Request) => {
  const accept = req.get('accept') ?? '';
  return /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
};

const originOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** A refusal: JSON for a JSON caller, else a page with the reason and the way back to the form. */
function refusal(frame: PageFrame, req: Request, res: Response, status: number, message: string, slug?: string): void {
  if (wantsJson(req)) {
    res.status(status).set('Cache-Control', 'no-store').json({ message });
    return;
  }
  const back = slug ? `<p><a href="/subscribe/${encodeURIComponent(slug)}">Back to the form</a></p>` : '';
  sendSignupMessage(res, frame, status, status === 404 ? 'Not found' : 'Your sign-up was not sent', [message], back);
}

/**
 * Refusals of the sign-up routes from anywhere (the contract's 415 and 400, the body parser's 413, the
 * service's DomainErrors), as pages for a browser: mounted on /subscribe after every router (app.ts).
 */
export function subscribeErrorPages({ config }: Pick<AppDeps, 'config'>): ErrorRequestHandler {
  const frame: PageFrame = { orgName: config.orgName };
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const { status, body } = errorResponse(err, req);
    if (status >= 500 && status !== 503) return next(err);
    // Mounted on /subscribe: the path starts with the form's slug.
    const slug = /^\/([a-z0-9-]{1,64})(?:\/challenge)?$/.exec(req.path)?.[1];
    refusal(frame, req, res, status, body.message, slug === 'confirm' || slug === 'static' ? undefined : slug);
  };
}

export function subscribeRouter({ services, config }: Pick<AppDeps, 'services' | 'config'>): Router {
  const { signups } = services;
  const frame: PageFrame = { orgName: config.orgName };
  const ownOrigin = new URL(config.publicUrl).origin;
  let files: ReturnType<typeof signupStaticFiles> | undefined;
  const router = Router();

  const refuse = (req: Request, res: Response, status: number, message: string, slug?: string) =>
    refusal(frame, req, res, status, message, slug);

  router.get(`${STATIC_PREFIX}/:file`, (req, res) => {
    files ??= signupStaticFiles(config.orgColor);
    const file = files.get(req.params.file!);
    if (!file) {
      res.status(404).json({ message: 'Not found' });
      return;
    }
    // The same bytes for every form and no data: any site may load them (an embedded form's widget runs on the
    // organisation's site). What the check guards, the challenge and the post, answers the form's origins only.
    res
      .status(200)
      .type(file.type)
      .set({ 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' })
      .send(file.body);
  });

  router.get('/subscribe/confirm/:token', async (req, res) => {
    const state = await signups.confirmPage(req.params.token!);
    if (state.kind === 'ready') return sendConfirmPage(res, frame, state.formName);
    linkState(res, state.kind);
  });

  router.post('/subscribe/confirm/:token', async (req, res) => {
    const state = await signups.confirm(req.params.token!, { address: req.ip, userAgent: req.get('user-agent') });
    if (state.kind === 'confirmed')
      return sendSignupMessage(res, frame, 200, 'You are subscribed', [
        state.formName
          ? `Thank you: you will receive "${state.formName}" from ${config.orgName}.`
          : 'Thank you: your subscription is confirmed.',
      ]);
    linkState(res, state.kind);
  });

  const linkState = (res: Response, kind: 'used' | 'expired' | 'invalid' | 'ready' | 'confirmed') => {
    if (kind === 'expired')
      return sendSignupMessage(res, frame, 410, 'This link has expired', ['Sign up again on the form to get a new link.']);
    if (kind === 'used')
      return sendSignupMessage(res, frame, 410, 'This link was already used', [
        'Your subscription was confirmed with it already, or the sign-up was withdrawn. Nothing else is needed.',
      ]);
    sendSignupMessage(res, frame, 404, 'This link is not valid', ['It may be incomplete: open the link from the mail again.']);
  };

  router.get('/subscribe/:formSlug/challenge', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await signups.challenge(req.params.formSlug!));
  });

  router.get('/subscribe/:formSlug', async (req, res) => {
    const { form, fields } = await signups.page(req.params.formSlug!);
    sendFormPage(res, frame, {
      slug: form.slug,
      name: form.name,
      description: form.description,
      consentWording: form.consentWording,
      consentVersion: form.consentVersion,
      fields: fields.map(({ key, required, rule }) => ({ key, required, label: rule.label, type: rule.type, options: rule.options })),
      successOrigin: originOf(form.successUrl),
    });
  });

  router.post('/subscribe/:formSlug', async (req, res) => {
    const slug = req.params.formSlug!;
    const json = wantsJson(req);
    const origin = req.get('origin');
    const { form } = await signups.page(slug);
    // A browser names the page that posts: the API's own, or a site the form allows.
    if (origin !== undefined && origin !== ownOrigin && !form.allowedOrigins.includes(origin))
      return refuse(req, res, 403, 'This site may not send sign-ups to this form.', slug);
    const result = await signups.submit(slug, req.body, {
      address: req.ip,
      key: clientKey(req.ip ?? ''),
      userAgent: req.get('user-agent'),
      json,
    });
    if (result.kind === 'too-many') {
      res.set('Retry-After', '3600');
      return refuse(req, res, 429, result.message, slug);
    }
    const { successMessage, successUrl } = result.form;
    if (json) {
      res.status(200).set('Cache-Control', 'no-store').json({ message: successMessage });
      return;
    }
    if (successUrl) {
      res.status(303).location(successUrl).end();
      return;
    }
    sendSignupMessage(res, frame, 200, 'Thank you', [successMessage]);
  });

  return router;
}
