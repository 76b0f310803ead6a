import { Router } from 'express';
import type { AppDeps } from '../../deps.js';

export function quotaRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const router = Router();
  const { quota } = services;

  router.get('/api/ses-quota', async (_req, res) => {
    res.json(await quota.getQuota());
  });

  return router;
}
