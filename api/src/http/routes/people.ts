/**
 * One person across audiences (an addition, issue 24). Thin: read the address, call the people
 * service, answer; openapi.yaml has checked the inputs. The address comes as a query value or in the
 * body, never in the path, so no access log's path holds it.
 */
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { contentDisposition, startDownload } from '../download.js';
import { str } from '../request.js';

export function peopleRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { people } = services;
  const router = Router();

  router.get('/api/people', async (req, res) => {
    res.json(await people.find(str(req.query.email) ?? ''));
  });

  router.get('/api/people/export', async (req, res) => {
    const document = await people.export(str(req.query.email) ?? '', memberOf(req));
    // Named by the day, not the address: a file name travels further than the file's content.
    startDownload(
      res,
      contentDisposition(`person-${document.exportedAt.slice(0, 10)}`, '.json', 'person'),
      'application/json; charset=utf-8',
    );
    res.json(document);
  });

  router.post('/api/people/erase', async (req, res) => {
    res.json(await people.erase((req.body as { email: string }).email, memberOf(req)));
  });

  return router;
}
