import { Router } from 'express';
import type { AppDeps } from '../../deps.js';

export function quotaRouter({ services, config }: Pick<AppDeps, 'services' | 'config'>): Router {
  const router = Router();
  const { quota } = services;
  // Without either, SES publishes no event or the webhook takes none (the processes warn at start too).
  const deliveryEventsConfigured = Boolean(config.aws.sesConfigurationSet) && config.sesEvents.topicArns.length > 0;

  router.get('/api/ses-quota', async (_req, res) => {
    res.json({ ...(await quota.getQuota()), deliveryEventsConfigured });
  });

  return router;
}
