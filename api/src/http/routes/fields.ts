/**
 * An audience's typed fields (an addition to the spec). Thin: read the request, call the field service, answer;
 * openapi.yaml has checked the inputs. A removal that templates stand in the way of answers 409 with them.
 */
import type { AudienceFieldChange, AudienceFieldInput, FieldInUse } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { bool, id } from '../request.js';

export function fieldsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { fields } = services;
  const router = Router();
  const keyOf = (params: Record<string, string>): string => params.key ?? '';

  router.get('/api/audiences/:id/fields', async (req, res) => {
    res.json(await fields.list(id(req)));
  });

  router.post('/api/audiences/:id/fields', async (req, res) => {
    res.status(201).json(await fields.add(id(req), req.body as AudienceFieldInput, memberOf(req)));
  });

  router.patch('/api/audiences/:id/fields/:key', async (req, res) => {
    res.json(await fields.change(id(req), keyOf(req.params), req.body as AudienceFieldChange, memberOf(req)));
  });

  router.delete('/api/audiences/:id/fields/:key', async (req, res) => {
    const outcome = await fields.remove(id(req), keyOf(req.params), bool(req.query.confirm) ?? false, memberOf(req));
    if (outcome.removed) {
      res.json({ message: outcome.message });
      return;
    }
    const body: FieldInUse = { message: outcome.message, templates: outcome.templates };
    res.status(409).json(body);
  });

  return router;
}
