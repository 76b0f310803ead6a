/**
 * Contact-import uploads go straight into the import spool (a folder or an S3 bucket) as they
 * arrive: a multer storage engine, handed to the OpenAPI validator's multipart parser, streams the
 * file part through the import service's receiveUpload (size cap, header check) and never writes
 * it anywhere else, nor holds it in memory. The parser's own cap (IMPORT_MAX_BYTES) still answers
 * 413; the spool then aborts the write, as it does when the client hangs up. An upload whose request
 * does not reach the import route (refused by the contract's checks) is removed when the response ends.
 */
import type { operations } from '@mailroom/api-client';
import { MAX_MAPPING_CHARS } from '@mailroom/api-client/fields';
import type { Request, RequestHandler } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import type { Readable } from 'node:stream';
import type { AppDeps } from '../deps.js';
import type { Upload } from '../services/imports/import-service.js';

/**
 * The one operation that takes a file, as the contract names it. The validator has matched the
 * request to its operation before it parses the body, so the route is the contract's, not a copy.
 */
const IMPORT_OPERATION = 'importContacts' satisfies keyof operations;

interface OpenApiRequest {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

/** A multipart file part as multer records it on `req.files`: its field, the member's file name, and our upload of it. */
export interface FilePart {
  fieldname: string;
  originalname: string;
  /** Bytes received (multer's field; the upload's size). */
  size?: number;
  upload?: Upload;
  /** Set by the import route once the import service owns the upload. */
  taken?: boolean;
}

type Callback = (error: Error | null, info?: Pick<FilePart, 'size' | 'upload'>) => void;

/** The audience of an import request, from the path the validator matched; undefined for any other request. */
function importedAudience(req: Request): number | undefined {
  const { schema, pathParams } = (req as OpenApiRequest).openapi ?? {};
  if (schema?.operationId !== IMPORT_OPERATION) return undefined;
  const id = pathParams?.id ?? '';
  // Only names the upload in the spool; the validator checks the parameter itself after the body.
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}

/**
 * The address's column that a `mapping` field sent before the file names, so that the file's start is checked
 * for that column rather than one named like an email. Read leniently: the import service checks the whole
 * mapping, and refuses it, later.
 */
function mappedEmailColumn(req: Request): string | undefined {
  const text = (req.body as { mapping?: unknown } | undefined)?.mapping;
  if (typeof text !== 'string' || text.length > MAX_MAPPING_CHARS) return undefined;
  try {
    const mapping = JSON.parse(text) as { emailColumn?: unknown } | null;
    return typeof mapping?.emailColumn === 'string' ? mapping.emailColumn : undefined;
  } catch {
    return undefined;
  }
}

/** The multer storage engine (multer's StorageEngine shape: `_handleFile`, `_removeFile`). */
export function spoolStorage({ services, spool }: Pick<AppDeps, 'services' | 'spool'>) {
  return {
    _handleFile(req: Request, file: { fieldname: string; stream: Readable }, done: Callback): void {
      const audienceId = importedAudience(req);
      if (audienceId === undefined || file.fieldname !== 'file') {
        // No other operation takes a file: read and drop it, and refuse the request.
        file.stream.resume();
        done(new validatorErrors.BadRequest({ path: req.path, message: 'This operation takes no file' }));
        return;
      }
      services.imports.receiveUpload(audienceId, file.stream, mappedEmailColumn(req)).then(
        (upload) => done(null, { size: upload.size, upload }),
        (error: unknown) => done(error as Error),
      );
    },
    _removeFile(_req: Request, file: Partial<FilePart>, done: (error: Error | null) => void): void {
      const name = file.upload?.name;
      if (!name) return done(null);
      spool.delete(name).then(
        () => done(null),
        (error: unknown) => done(error as Error),
      );
    },
  };
}

/** The file part of an import request, its upload now the import service's to keep or remove. */
export function takeFilePart(req: Request, fieldname: string): (FilePart & { upload: Upload }) | undefined {
  const files = (req as { files?: FilePart[] }).files;
  const file = Array.isArray(files) ? files.find((f) => f.fieldname === fieldname) : undefined;
  if (!file?.upload) return undefined;
  file.taken = true;
  return file as FilePart & { upload: Upload };
}

/** Removes, when the response ends, uploads that no route took (the request was refused before). */
export function removeUntakenUploads({ spool, logger }: Pick<AppDeps, 'spool' | 'logger'>): RequestHandler {
  return (req, res, next) => {
    res.on('close', () => {
      const files = (req as { files?: unknown }).files;
      if (!Array.isArray(files)) return;
      for (const file of files as Partial<FilePart>[]) {
        const name = file.upload?.name;
        if (name && !file.taken) {
          spool.delete(name).catch((err: unknown) => logger.warn({ err, upload: name }, 'could not remove an upload'));
        }
      }
    });
    next();
  };
}
