/**
 * The preference centre (issue 25; outside /api, no sign-in): `/preferences/{token}` with the unsubscribe
 * link's token. The preference service holds the rules; this file reads requests and writes pages
 * (public/preference-pages.ts). Leaving everything is the unsubscribe link's own call (tracking service).
 *
 * A save is taken only from the page's own form: it carries the signed value the page wrote, and a browser
 * names the API's own origin (the pages send `Referrer-Policy: same-origin`, so the post carries it). The token
 * in the path is the person's key already; these keep another site's page from posting with a link it saw.
 */
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../deps.js';
import { sendPreferencesMessage, sendPreferencesPage, sendSavedPage, type PreferencePageFrame } from '../public/preference-pages.js';
import { hitRequest } from '../request.js';

export function preferencesRouter({ services, config }: Pick<AppDeps, 'services' | 'config'>): Router {
  const { preferences, tracking } = services;
  const frame: PreferencePageFrame = { orgName: config.orgName };
  const ownOrigin = new URL(config.publicUrl).origin;
  const router = Router();

  const invalid = (res: Response) =>
    sendPreferencesMessage(res, frame, 404, 'This link is not valid', [
      'It may be incomplete or out of date: open the link from the mail again.',
    ]);

  const token = (req: Request<{ token: string }>) => req.params.token;

  router.get('/preferences/:token', async (req, res) => {
    const view = await preferences.view(token(req));
    if (view.kind === 'invalid') return invalid(res);
    sendPreferencesPage(res, frame, view);
  });

  router.post('/preferences/:token', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const origin = req.get('origin');
    if ((origin !== undefined && origin !== ownOrigin) || !preferences.checkForm(token(req), body.form))
      return sendPreferencesMessage(res, frame, 403, 'Your preferences were not saved', [
        'Only the preference page itself can change your preferences: open the link from the mail again.',
      ]);
    if (body.action === 'leave') {
      if (!(await tracking.unsubscribe(token(req), hitRequest(req)))) return invalid(res);
      return sendPreferencesMessage(res, frame, 200, 'You are unsubscribed', [
        `You will not receive more emails from ${config.orgName} at this address.`,
      ]);
    }
    const result = await preferences.save(token(req), body, { address: req.ip, userAgent: req.get('user-agent') });
    if (result.kind === 'invalid') return invalid(res);
    if (result.kind === 'errors')
      return sendPreferencesPage(res, frame, { ...result.view, errors: result.errors, posted: result.posted }, 400);
    sendSavedPage(res, frame, token(req), result.saved);
  });

  return router;
}
