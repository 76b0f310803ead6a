/**
 * The sign-up forms of an audience (issue 25), behind the member's token. Thin: openapi.yaml has
 * checked the inputs; the form service holds the rules.
 */
import type { SignupFormInput } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { id } from '../request.js';

export function formsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { forms } = services;
  const router = Router();

  router.get('/api/audiences/:id/forms', async (req, res) => {
    res.json({ items: await forms.list(id(req)) });
  });

  router.post('/api/audiences/:id/forms', async (req, res) => {
    res.status(201).json(await forms.create(id(req), req.body as SignupFormInput, memberOf(req)));
  });

  router.get('/api/forms/:id', async (req, res) => {
    res.json(await forms.get(id(req)));
  });

  router.put('/api/forms/:id', async (req, res) => {
    res.json(await forms.update(id(req), req.body as SignupFormInput, memberOf(req)));
  });

  router.delete('/api/forms/:id', async (req, res) => {
    await forms.remove(id(req), memberOf(req));
    res.status(204).end();
  });

  return router;
}
