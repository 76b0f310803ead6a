/**
 * The audience and contact calls (docs/product.md, The calls). Thin: read the request, call the audience
 * service, answer. openapi.yaml has already validated (and typed) the inputs; the service's
 * DomainErrors become statuses in the one error handler.
 *
 * Uploads: the OpenAPI validator's multipart parser has already streamed the file into the import
 * spool (upload-spool.ts), capped at IMPORT_MAX_BYTES (413 above it); the import service queues it
 * or removes it.
 */
import { Router, type Request } from 'express';
import { pipeline } from 'node:stream/promises';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { DELETE_QUEUED } from '../../services/audiences/audience-service.js';
import type { ImportInput } from '../../services/imports/import-service.js';
import { contentDisposition, startDownload } from '../download.js';
import { bool, id, pageQuery, str } from '../request.js';
import { takeFilePart } from '../upload-spool.js';

function importInputOf(req: Request): ImportInput {
  const file = takeFilePart(req, 'file');
  if (file) return { kind: 'file', fileName: file.originalname, upload: file.upload };
  // Pasted text may also come as a plain form field.
  const text = (req.body as { file?: unknown } | undefined)?.file;
  return typeof text === 'string' && text !== '' ? { kind: 'text', text } : undefined;
}

/** The import's `mapping` field (JSON, checked by the import service), when the form has one. */
function mappingOf(req: Request): string | undefined {
  const mapping = (req.body as { mapping?: unknown } | undefined)?.mapping;
  return typeof mapping === 'string' ? mapping : undefined;
}

/** The import's `lawfulBasis` field (checked by the contract, and again by the import service), when the form has one. */
function lawfulBasisOf(req: Request): string | undefined {
  const basis = (req.body as { lawfulBasis?: unknown } | undefined)?.lawfulBasis;
  return typeof basis === 'string' ? basis : undefined;
}

export function audiencesRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { audiences, imports } = services;
  const router = Router();

  router.get('/api/audiences', async (req, res) => {
    res.json(await audiences.list({ ...pageQuery(req), name: str(req.query.name) }));
  });

  router.post(['/api/audiences', '/api/audiences/'], async (req, res) => {
    res.status(201).json(await audiences.create((req.body as { name?: unknown }).name, memberOf(req)));
  });

  router.get('/api/audiences/:id', async (req, res) => {
    res.json(await audiences.get(id(req)));
  });

  router.put('/api/audiences/:id', async (req, res) => {
    res.json(await audiences.rename(id(req), (req.body as { name?: unknown }).name, memberOf(req)));
  });

  router.patch('/api/audiences/:id', async (req, res) => {
    res.json(await audiences.update(id(req), req.body as { publicName?: unknown }));
  });

  router.delete('/api/audiences/:id', async (req, res) => {
    await audiences.remove(id(req), memberOf(req));
    res.status(202).json({ message: DELETE_QUEUED });
  });

  router.post('/api/audiences/:id/import/file', async (req, res) => {
    const message = await imports.accept(
      id(req),
      str(req.query.type),
      importInputOf(req),
      memberOf(req),
      mappingOf(req),
      lawfulBasisOf(req),
    );
    res.status(202).json({ message });
  });

  router.get('/api/audiences/:id/import-mapping', async (req, res) => {
    res.json(await imports.mapping(id(req)));
  });

  router.post('/api/audiences/:id/download', async (req, res) => {
    const { audience, stream } = await audiences.exportCsv(id(req), memberOf(req));
    startDownload(res, contentDisposition(audience.name, '-contacts.csv', 'audience'), 'text/csv; charset=utf-8');
    // Backpressure end to end: PostgreSQL's COPY is read only as fast as the client takes the file.
    // Once the headers are out an error can only cut the response (pipeline does): log it, nothing more.
    await pipeline(stream, res).catch((err: unknown) => {
      req.log.warn({ err, audienceId: audience.id }, 'contact export cut short');
    });
  });

  router.get('/api/audiences/:id/consent-export', async (req, res) => {
    const { audience, stream } = await audiences.exportConsentCsv(id(req), memberOf(req));
    startDownload(res, contentDisposition(audience.name, '-consent.csv', 'audience'), 'text/csv; charset=utf-8');
    await pipeline(stream, res).catch((err: unknown) => {
      req.log.warn({ err, audienceId: audience.id }, 'consent export cut short');
    });
  });

  router.get('/api/audiences/:id/suppressed-contacts', async (req, res) => {
    res.json(await audiences.suppressedContacts(id(req)));
  });

  router.get('/api/audiences/:id/contacts', async (req, res) => {
    res.json(await audiences.contacts(id(req), { ...pageQuery(req), email: str(req.query.email), hasError: bool(req.query.hasError) }));
  });

  return router;
}
