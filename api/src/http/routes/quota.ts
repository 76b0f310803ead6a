import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { createQuotaService, sesSendQuotaSource } from '../../services/quota/quota-service.js';

export function quotaRouter(deps: Pick<AppDeps, 'ses'>): Router {
  const router = Router();
  const quota = createQuotaService(sesSendQuotaSource(deps.ses));

  router.get('/api/ses-quota', async (_req, res) => {
    res.json(await quota.getQuota());
  });

  return router;
}
