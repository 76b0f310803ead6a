/**
 * Outgoing webhooks (issue 27): the endpoints admins register, their signing secrets, and the delivery log with
 * its re-send. Thin: openapi.yaml has checked the inputs (and declares every call admin's); the webhook
 * service checks the target and holds the rules.
 */
import type { Schemas } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import type { DeliveryStatus } from '../../services/webhooks/webhook-service.js';
import { id, int, str } from '../request.js';

export function webhooksRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { webhooks } = services;
  const router = Router();

  router.get('/api/webhooks', async (_req, res) => {
    res.json({ items: await webhooks.list() });
  });

  router.post('/api/webhooks', async (req, res) => {
    res.status(201).json(await webhooks.create(req.body as Schemas['WebhookEndpointInput'], memberOf(req)));
  });

  router.get('/api/webhooks/:id', async (req, res) => {
    res.json(await webhooks.get(id(req)));
  });

  router.put('/api/webhooks/:id', async (req, res) => {
    res.json(await webhooks.update(id(req), req.body as Schemas['WebhookEndpointInput'], memberOf(req)));
  });

  router.delete('/api/webhooks/:id', async (req, res) => {
    await webhooks.remove(id(req), memberOf(req));
    res.status(204).end();
  });

  router.get('/api/webhooks/:id/secret', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await webhooks.secret(id(req)));
  });

  router.post('/api/webhooks/:id/secret', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await webhooks.rotateSecret(id(req), memberOf(req)));
  });

  router.get('/api/webhooks/:id/deliveries', async (req, res) => {
    const before = req.query.before === undefined ? undefined : Number(req.query.before);
    const status = str(req.query.status) as DeliveryStatus | undefined;
    res.json(
      await webhooks.deliveries(id(req), { limit: int(req.query.limit, 50), ...(status ? { status } : {}), ...(before ? { before } : {}) }),
    );
  });

  router.get('/api/webhook-deliveries/:id', async (req, res) => {
    res.json(await webhooks.delivery(id(req)));
  });

  router.post('/api/webhook-deliveries/:id/resend', async (req, res) => {
    await webhooks.resend(id(req));
    res.status(204).end();
  });

  return router;
}
