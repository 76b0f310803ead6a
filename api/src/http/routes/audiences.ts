/**
 * The audience and contact calls (SPEC.md section 7). Thin: read the request, call the audience
 * service, map its errors to statuses. openapi.yaml has already validated (and typed) the inputs.
 *
 * Uploads: the OpenAPI validator's multipart parser has written the file to disk, capped at
 * IMPORT_MAX_BYTES (413 above it) and removed when the response ends; the service moves it into
 * the import spool folder before that.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { AppDeps } from '../../deps.js';
import {
  AudienceError,
  createAudienceService,
  DELETE_QUEUED,
  type AudienceErrorKind,
  type ImportUpload,
} from '../../services/audiences/audience-service.js';
import { loadImportSettings } from '../../services/contacts/import-settings.js';
import { contentDisposition } from '../../services/contacts/export.js';
import { HttpError } from '../errors.js';

const STATUS: Record<AudienceErrorKind, number> = { invalid: 400, 'not-found': 404, conflict: 409 };

type Handler = (req: Request, res: Response) => Promise<void>;

/** Express 5 forwards rejections to the error handler; this maps the service's errors first. */
const handle =
  (handler: Handler) =>
  async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      await handler(req, res);
    } catch (error) {
      next(error instanceof AudienceError ? new HttpError(STATUS[error.kind], error.message) : error);
    }
  };

const id = (req: Request): number => Number(req.params.id);
const int = (value: unknown, fallback: number): number => (value === undefined ? fallback : Number(value));
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const bool = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;

interface UploadedFile {
  fieldname: string;
  originalname: string;
  path: string;
  size: number;
}

function uploadOf(req: Request): ImportUpload {
  const files = (req as { files?: UploadedFile[] }).files;
  const file = Array.isArray(files) ? files.find((f) => f.fieldname === 'file') : undefined;
  if (file) return { kind: 'file', path: file.path, originalName: file.originalname, size: file.size };
  // Pasted text may also come as a plain form field.
  const text = (req.body as { file?: unknown } | undefined)?.file;
  return typeof text === 'string' && text !== '' ? { kind: 'text', text } : undefined;
}

export function audiencesRouter(deps: AppDeps): Router {
  const service = createAudienceService({
    pool: deps.pool,
    queue: deps.queue,
    importSettings: loadImportSettings(),
    logger: deps.logger.child({ component: 'audiences' }),
  });
  const router = Router();

  router.get(
    '/api/audiences',
    handle(async (req, res) => {
      res.json(await service.list({ page: int(req.query.page, 1), limit: int(req.query.limit, 10), name: str(req.query.name) }));
    }),
  );

  router.post(
    ['/api/audiences', '/api/audiences/'],
    handle(async (req, res) => {
      res.status(201).json(await service.create((req.body as { name?: unknown }).name, req.member?.email ?? null));
    }),
  );

  router.get(
    '/api/audiences/:id',
    handle(async (req, res) => {
      res.json(await service.get(id(req)));
    }),
  );

  router.put(
    '/api/audiences/:id',
    handle(async (req, res) => {
      res.json(await service.rename(id(req), (req.body as { name?: unknown }).name));
    }),
  );

  router.delete(
    '/api/audiences/:id',
    handle(async (req, res) => {
      await service.remove(id(req));
      res.status(202).json({ message: DELETE_QUEUED });
    }),
  );

  router.post(
    '/api/audiences/:id/import/file',
    handle(async (req, res) => {
      const message = await service.acceptImport(id(req), str(req.query.type), uploadOf(req));
      res.status(202).json({ message });
    }),
  );

  router.post(
    '/api/audiences/:id/download',
    handle(async (req, res) => {
      const { audience, stream } = await service.exportCsv(id(req));
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', contentDisposition(audience.name));
      res.setHeader('Cache-Control', 'no-store');
      // Backpressure end to end: PostgreSQL's COPY is read only as fast as the client takes the file.
      // Once the headers are out an error can only cut the response (pipeline does): log it, nothing more.
      await pipeline(stream, res).catch((err: unknown) => {
        req.log.warn({ err, audienceId: audience.id }, 'contact export cut short');
      });
    }),
  );

  router.get(
    '/api/audiences/:id/contacts',
    handle(async (req, res) => {
      res.json(
        await service.contacts(id(req), {
          page: int(req.query.page, 1),
          limit: int(req.query.limit, 10),
          email: str(req.query.email),
          hasError: bool(req.query.hasError),
        }),
      );
    }),
  );

  return router;
}
