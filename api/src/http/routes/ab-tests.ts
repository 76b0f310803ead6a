/**
 * A/B tests (issue 28): a draft campaign's test and variants, the test's figures and verdict, and a member's
 * pick of the winner. Thin: read the request, call the A/B test service, answer; openapi.yaml has checked the
 * inputs (bounds, header fields on one line), the service checks the rest.
 */
import type { Schemas } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { id } from '../request.js';

export function abTestsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { abTests } = services;
  const router = Router();

  router.get('/api/campaigns/:id/ab-test', async (req, res) => {
    res.json(await abTests.get(id(req)));
  });

  router.put('/api/campaigns/:id/ab-test', async (req, res) => {
    res.json(await abTests.save(id(req), req.body as Schemas['AbTestInput']));
  });

  router.delete('/api/campaigns/:id/ab-test', async (req, res) => {
    await abTests.remove(id(req));
    res.status(204).end();
  });

  router.post('/api/campaigns/:id/ab-test/winner', async (req, res) => {
    res.json(await abTests.pickWinner(id(req), (req.body as Schemas['AbTestWinnerInput']).variant, memberOf(req)));
  });

  router.get('/api/campaigns/:id/ab-test/variants/:variant/clicks', async (req, res) => {
    res.json(await abTests.variantClicks(id(req), Number(req.params.variant)));
  });

  return router;
}
