/**
 * Who calls and API keys (issue 27). Thin: the contract has checked the inputs and the role (x-mailroom-role, enforced
 * by the bearer check); the API key service checks the rest.
 */
import type { Schemas } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { id } from '../request.js';

export function accessRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { apiKeys } = services;
  const router = Router();

  router.get('/api/me', (req, res) => {
    const { email, firstName, lastName, role, apiKey } = memberOf(req);
    res.json({ email, firstName, lastName, role, apiKey: Boolean(apiKey) } satisfies Schemas['Caller']);
  });

  router.get('/api/api-keys', async (_req, res) => {
    res.json(await apiKeys.list());
  });

  router.post('/api/api-keys', async (req, res) => {
    res.status(201).json(await apiKeys.create(req.body as Schemas['ApiKeyInput'], memberOf(req)));
  });

  router.delete('/api/api-keys/:id', async (req, res) => {
    res.json(await apiKeys.revoke(id(req), memberOf(req)));
  });

  return router;
}
