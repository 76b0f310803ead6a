import { Router } from 'express';
import type { AppDeps } from '../../deps.js';

export function quotaRouter({ services, config, messageQueue }: Pick<AppDeps, 'services' | 'config' | 'messageQueue'>): Router {
  const router = Router();
  const { quota } = services;
  // Without either, SES publishes no event or the webhook takes none (the processes warn at start too).
  const deliveryEventsConfigured = Boolean(config.aws.sesConfigurationSet) && config.sesEvents.topicArns.length > 0;

  router.get('/api/ses-quota', async (_req, res) => {
    // The broker's state now, not waited for: while it is away the shell says that sending and imports are paused.
    const [figures, brokerAvailable] = await Promise.all([quota.getQuota(), messageQueue.available(0)]);
    res.json({ ...figures, deliveryEventsConfigured, sendingAndImportsPaused: !brokerAvailable });
  });

  return router;
}
