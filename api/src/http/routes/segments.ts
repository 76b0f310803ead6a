/**
 * Segments (issue 26): an audience's saved rules, and the live count of a rule as the member edits it. Thin: read
 * the request, call the segment service, answer; openapi.yaml has checked the inputs, the service checks the
 * rule against the audience.
 */
import type { Schemas } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { bool, id } from '../request.js';

export function segmentsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { segments } = services;
  const router = Router();

  router.get('/api/audiences/:id/segments', async (req, res) => {
    res.json(await segments.list(id(req)));
  });

  router.post('/api/audiences/:id/segments', async (req, res) => {
    res.status(201).json(await segments.create(id(req), req.body as Schemas['SegmentInput'], memberOf(req)));
  });

  router.post('/api/audiences/:id/segment-count', async (req, res) => {
    res.json(await segments.count(id(req), (req.body as Schemas['SegmentCountInput']).rule, bool(req.query.sample) === true));
  });

  router.get('/api/segments/:id', async (req, res) => {
    res.json(await segments.get(id(req)));
  });

  router.put('/api/segments/:id', async (req, res) => {
    res.json(await segments.update(id(req), req.body as Schemas['SegmentInput'], memberOf(req)));
  });

  router.delete('/api/segments/:id', async (req, res) => {
    await segments.remove(id(req), memberOf(req));
    res.status(204).end();
  });

  return router;
}
