/**
 * Mounts every feature router. Each feature owns one file here exporting
 * `<feature>Router(deps: AppDeps): Router` whose routes use the full paths of openapi.yaml
 * (`/api/audiences/...`), so this file only lists them.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.js';
import { activityRouter } from './activity.js';
import { audiencesRouter } from './audiences.js';
import { campaignsRouter } from './campaigns.js';
import { fieldsRouter } from './fields.js';
import { contactsRouter } from './contacts.js';
import { healthRouter } from './health.js';
import { peopleRouter } from './people.js';
import { quotaRouter } from './quota.js';
import { reportsRouter } from './reports.js';
import { suppressionsRouter } from './suppressions.js';
import { trackingRouter } from './tracking.js';
import { templatesRouter } from './templates.js';
import { sesEventsRouter } from './ses-events.js';
import { formsRouter } from './forms.js';
import { subscribeRouter } from './subscribe.js';
import { preferencesRouter } from './preferences.js';
import { segmentsRouter } from './segments.js';
import { abTestsRouter } from './ab-tests.js';
import { webhooksRouter } from './webhooks.js';
import { accessRouter } from './access.js';

export function routes(deps: AppDeps): Router {
  const router = Router();
  router.use(healthRouter(deps));
  router.use(quotaRouter(deps));

  // ---- feature routers: one line per feature ----
  router.use(audiencesRouter(deps));
  router.use(fieldsRouter(deps));
  router.use(contactsRouter(deps));
  router.use(campaignsRouter(deps));
  router.use(abTestsRouter(deps));
  router.use(reportsRouter(deps));
  router.use(suppressionsRouter(deps));
  router.use(trackingRouter(deps));
  router.use(templatesRouter(deps));
  router.use(sesEventsRouter(deps));
  router.use(activityRouter(deps));
  router.use(formsRouter(deps));
  router.use(subscribeRouter(deps));
  router.use(peopleRouter(deps));
  router.use(preferencesRouter(deps));
  router.use(segmentsRouter(deps));
  router.use(webhooksRouter(deps));
  router.use(accessRouter(deps));

  return router;
}
