/**
 * The public routes behind the links of sent mail (no token; outside /api): the open pixel, the
 * click redirect and the unsubscribe page with its RFC 8058 one-click POST. The signed token in
 * the path is all they trust (services/tracking).
 *
 * Mail clients, their image proxies and link scanners hit the pixel and the clicks a lot, so those
 * two answer without waiting for the database (hits are recorded in batches) and are mounted ahead
 * of the request log and the OpenAPI validator (`trackingHits`, see app.ts): the validator looks a
 * request's route up by compiling every path of the contract again, which cost ten times the rest
 * of the request. They check their one parameter against the contract's TrackingToken themselves
 * (tracking.test.ts compares the two) and answer its 400 as the validator would.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AppDeps } from '../../deps.js';
import { hitRequest } from '../request.js';
import { escapeHtml, sendPage } from '../public/page.js';

/** openapi.yaml's TrackingToken. */
export const TRACKING_TOKEN = { maxLength: 512, pattern: '^[A-Za-z0-9._~-]+$' };
const TOKEN = new RegExp(TRACKING_TOKEN.pattern);

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const escape = escapeHtml;

function page(res: Response, status: number, title: string, body: string): void {
  sendPage(res, {
    status,
    title,
    body,
    bodyAttributes: ' style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5"',
    headingAttributes: ' style="font-size:1.4rem"',
  });
}

interface OperationInfo {
  openapi?: { schema?: { operationId?: string } };
}

/** The token parameter as the contract has it, or a 400 answered. */
function tokenOf(req: Request, res: Response, operationId: string): string | undefined {
  // Named for the operation log (contract coverage), as the validator names the others.
  (req as OperationInfo).openapi = { schema: { operationId } };
  const raw: unknown = req.params.token;
  const token = typeof raw === 'string' ? raw : '';
  if (token.length <= TRACKING_TOKEN.maxLength && TOKEN.test(token)) return token;
  res.status(400).json({
    message: `request/params/token must match pattern "${TRACKING_TOKEN.pattern}" and have at most ${TRACKING_TOKEN.maxLength} characters`,
  });
  return undefined;
}

/**
 * What the tracking classification judges a hit on: its agent and the client's address. req.ip is
 * the socket's peer unless TRUST_PROXY names the proxies whose X-Forwarded-For to believe (app.ts).
 */

/** The open pixel and the click redirect, mounted ahead of the request log and the validator. */
export function trackingHits({ services }: Pick<AppDeps, 'services'>): Router {
  const { tracking } = services;
  const router = Router();

  router.get('/t/o/:token', ((req, res) => {
    const token = tokenOf(req, res, 'trackOpen');
    if (token === undefined) return;
    // The image whatever the token: a mail client shows a broken image otherwise.
    tracking.open(token, hitRequest(req));
    res.status(200).set({ 'Content-Type': 'image/gif', 'Cache-Control': 'no-store, max-age=0' }).end(PIXEL);
  }) satisfies RequestHandler);

  router.get('/t/c/:token', async (req, res) => {
    const token = tokenOf(req, res, 'trackClick');
    if (token === undefined) return;
    const href = await tracking.click(token, hitRequest(req));
    if (!href) {
      res.status(404).json({ message: 'Not found' });
      return;
    }
    // No body: Express's redirect negotiates one (text or html) per request, a tenth of a hit's cost.
    res.status(302).location(href).set('Cache-Control', 'no-store').end();
  });

  return router;
}

/** The way from the unsubscribe page to the person's preferences (issue 25): the same token. */
const preferencesLink = (token: string) =>
  `<p>Or choose which lists you receive: <a href="/preferences/${encodeURIComponent(token)}">Manage your preferences</a></p>`;

export function trackingRouter({ services, config }: Pick<AppDeps, 'services' | 'config'>): Router {
  const { tracking } = services;
  const org = escape(config.orgName);
  const invalid = (res: Response) => page(res, 404, 'This link is not valid', '<p>It may be incomplete or out of date.</p>');
  const router = Router();

  router.get('/unsubscribe/:token', async (req, res) => {
    const status = await tracking.unsubscribeStatus(req.params.token);
    if (status === 'invalid') return invalid(res);
    // A second visit (or a link of another campaign to the same address) asks nothing again.
    if (status === 'unsubscribed')
      return page(res, 200, 'You are already unsubscribed', `<p>This address does not receive emails from ${org} any more.</p>`);
    page(
      res,
      200,
      'Unsubscribe',
      `<p>Stop receiving emails from ${org} at this address?</p>` +
        `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
        `<button type="submit" style="font:inherit;padding:.5rem 1rem">Unsubscribe</button></form>` +
        preferencesLink(req.params.token!),
    );
  });

  router.post('/unsubscribe/:token', async (req, res) => {
    if (!(await tracking.unsubscribe(req.params.token, hitRequest(req)))) return invalid(res);
    page(res, 200, 'You are unsubscribed', `<p>You will not receive more emails from ${org} at this address.</p>`);
  });

  return router;
}
