/**
 * The report calls (docs/product.md, The calls, Reports). Thin: read the request, call the report service,
 * answer. openapi.yaml has already validated the inputs (filter values are enums and booleans).
 */
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { Router, type Request, type Response } from 'express';
import type { BounceType, SendStatus } from '@mailroom/api-client';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import type { EmailPerformanceFilters } from '../../services/reports/report-service.js';
import { contentDisposition, startDownload } from '../download.js';
import { bool, id, pageQuery, str } from '../request.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const filtersOf = (req: Request): EmailPerformanceFilters => ({
  email: str(req.query.email)?.trim() || undefined,
  sendStatus: str(req.query.sendStatus) as SendStatus | undefined,
  bounceStatus: str(req.query.bounceStatus) as BounceType | undefined,
  clicked: bool(req.query.clicked),
  opened: bool(req.query.opened),
  humanClicked: bool(req.query.humanClicked),
  humanOpened: bool(req.query.humanOpened),
});

/** Streams a body with backpressure; once the headers are out a failure can only cut it (logged). */
async function send(req: Request, res: Response, stream: Readable, what: string): Promise<void> {
  await pipeline(stream, res).catch((err: unknown) => req.log.warn({ err, campaignId: id(req) }, `${what} cut short`));
}

export function reportsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { reports } = services;
  const router = Router();

  router.get('/api/reports/:id/clicks', async (req, res) => {
    res.json(await reports.clicks(id(req)));
  });

  router.get('/api/reports/:id/overview-stat', async (req, res) => {
    res.json(await reports.overview(id(req)));
  });

  // Additions to the spec: the overview's figures, its timeline and deliverability by domain.
  router.get('/api/reports/:id/overview', async (req, res) => {
    res.json(await reports.outcome(id(req)));
  });

  router.get('/api/reports/:id/timeline', async (req, res) => {
    res.json(await reports.timeline(id(req)));
  });

  router.get('/api/reports/:id/domains', async (req, res) => {
    res.json(await reports.domains(id(req)));
  });

  router.get('/api/reports/:id/email-performance', async (req, res) => {
    const page = await reports.emailPerformance(id(req), filtersOf(req), pageQuery(req));
    if (!('stream' in page)) return void res.json(page);
    res.type('application/json');
    await send(req, res, page.stream, 'email performance page');
  });

  router.get('/api/reports/:id/export-email-performance', async (req, res) => {
    const stream = await reports.exportEmailPerformance(id(req), filtersOf(req), memberOf(req));
    startDownload(res, contentDisposition(`email-performance-${id(req)}`, '.xlsx', 'email-performance'), XLSX);
    await send(req, res, stream, 'email performance export');
  });

  router.post('/api/reports/:id/retry-all-failed-jobs', async (req, res) => {
    res.status(202).json(await reports.retryAllFailed(id(req), memberOf(req)));
  });

  router.post('/api/reports/:id/resend-unconfirmed', async (req, res) => {
    res.status(202).json(await reports.resendUnconfirmed(id(req), memberOf(req)));
  });

  router.post('/api/reports/:id/retry-job/:jobId', async (req, res) => {
    res.status(202).json(await reports.retryJob(id(req), id(req, 'jobId'), memberOf(req)));
  });

  router.post('/api/reports/:id/send-to-not-sent', async (req, res) => {
    res.status(202).json(await reports.sendToNotSent(id(req), memberOf(req)));
  });

  router.post('/api/reports/:id/send-to-contact/:contactId', async (req, res) => {
    res.status(202).json(await reports.sendToContact(id(req), id(req, 'contactId'), memberOf(req)));
  });

  return router;
}
