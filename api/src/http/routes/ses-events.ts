/**
 * The public SES event webhook (`POST /webhooks/ses`): SNS posts its JSON envelope as text/plain
 * (the app's text parser keeps the raw body); the service verifies and applies it.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.js';

export function sesEventsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const router = Router();
  router.post('/webhooks/ses', async (req, res) => {
    await services.sesEvents.receive(req.body);
    res.status(204).end();
  });
  return router;
}
