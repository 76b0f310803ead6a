/**
 * The suppressions calls (an addition to the spec). Thin: read the request, call the suppression
 * service, answer; openapi.yaml has checked the inputs.
 */
import type { SuppressionReason } from '@mailroom/api-client';
import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { contentDisposition, startDownload } from '../download.js';
import { bool, id, int, str } from '../request.js';

const reasonOf = (value: unknown) => str(value) as SuppressionReason | undefined;
const optionalInt = (value: unknown) => (value === undefined ? undefined : int(value, 0));

export function suppressionsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { suppressions } = services;
  const router = Router();

  router.get('/api/suppressions', async (req, res) => {
    res.json(
      await suppressions.list({
        limit: int(req.query.limit, 50),
        email: str(req.query.email),
        reason: reasonOf(req.query.reason),
        after: optionalInt(req.query.after),
        before: optionalInt(req.query.before),
        end: bool(req.query.end),
      }),
    );
  });

  router.post('/api/suppressions', async (req, res) => {
    res.json(await suppressions.add((req.body as { text: string }).text, memberOf(req)));
  });

  router.get('/api/suppressions/export', async (req, res) => {
    const stream = await suppressions.exportCsv({ email: str(req.query.email), reason: reasonOf(req.query.reason) }, memberOf(req));
    startDownload(res, contentDisposition('suppressions', '.csv', 'suppressions'), 'text/csv; charset=utf-8');
    await pipeline(stream, res).catch((err: unknown) => {
      req.log.warn({ err }, 'suppressions export cut short');
    });
  });

  router.delete('/api/suppressions/:id', async (req, res) => {
    await suppressions.remove(id(req), memberOf(req), {
      complaint: bool(req.query.confirmComplaint) ?? false,
      unsubscribe: bool(req.query.confirmUnsubscribe) ?? false,
    });
    res.status(204).end();
  });

  return router;
}
