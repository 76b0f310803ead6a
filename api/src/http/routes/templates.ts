/**
 * The template calls (docs/product.md, The calls). Thin: read the request, call the template service,
 * answer. openapi.yaml has already validated the inputs (names, bounded html, text and preview);
 * the body of a save may be a few MB (the editor's design), so only that route takes a larger body.
 */
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import type { TemplateSave } from '../../services/templates/template-service.js';
import { id, pageQuery, str } from '../request.js';

/** A save carries the design json, its html and plain text and a preview image (app.ts raises the body limit to this). */
export const TEMPLATE_SAVE_BODY_LIMIT = '5mb';

export function templatesRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { templates } = services;
  const router = Router();

  router.get('/api/templates', async (req, res) => {
    res.json(await templates.list({ ...pageQuery(req), name: str(req.query.name) }));
  });

  router.post('/api/templates', async (req, res) => {
    res.status(201).json(await templates.create((req.body as { name?: unknown }).name, memberOf(req)));
  });

  router.get('/api/templates/:id', async (req, res) => {
    res.json(await templates.get(id(req)));
  });

  router.put('/api/templates/:id', async (req, res) => {
    res.json(await templates.update(id(req), req.body as TemplateSave, memberOf(req)));
  });

  router.delete('/api/templates/:id', async (req, res) => {
    await templates.remove(id(req), memberOf(req));
    res.status(204).end();
  });

  router.post('/api/templates/:id/replicate', async (req, res) => {
    res.status(201).json(await templates.replicate(id(req), memberOf(req)));
  });

  return router;
}
