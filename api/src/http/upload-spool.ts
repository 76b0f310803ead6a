/**
 * Contact-import uploads go straight into the import spool (a folder or an S3 bucket) as they
 * arrive: a multer storage engine, handed to the OpenAPI validator's multipart parser, streams the
 * file part through the audience service's receiveUpload (size cap, header check) and never writes
 * it anywhere else, nor holds it in memory. The parser's own cap (IMPORT_MAX_BYTES) still answers
 * 413; the spool then aborts the write, as it does when the client hangs up. An upload whose request
 * does not reach the import route (refused by the contract's checks) is removed when the response ends.
 */
import type { Request, RequestHandler } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import type { Readable } from 'node:stream';
import type { AppDeps } from '../deps.js';
import type { SpooledUpload } from '../services/audiences/audience-service.js';

/** The one operation that takes a file. */
const IMPORT_PATH = /^\/api\/audiences\/(\d{1,15})\/import\/file$/;

/** A file part as multer hands it to a storage engine, and as the engine leaves it on `req.files`. */
export interface SpooledFile extends SpooledUpload {
  fieldname: string;
  originalname: string;
  stream: Readable;
  /** Set by the import route once the audience service owns the spooled object. */
  taken?: boolean;
}

type Callback = (error: Error | null, info?: Partial<SpooledFile>) => void;

/** The multer storage engine (multer's StorageEngine shape: `_handleFile`, `_removeFile`). */
export function spoolStorage({ services, spool }: Pick<AppDeps, 'services' | 'spool'>) {
  return {
    _handleFile(req: Request, file: { fieldname: string; stream: Readable }, done: Callback): void {
      const route = IMPORT_PATH.exec(req.path);
      if (!route || req.method !== 'POST' || file.fieldname !== 'file') {
        // No other operation takes a file: read and drop it, and refuse the request.
        file.stream.resume();
        done(new validatorErrors.BadRequest({ path: req.path, message: 'This operation takes no file' }));
        return;
      }
      services.audiences.receiveUpload(Number(route[1]), file.stream).then(
        (upload) => done(null, upload),
        (error: unknown) => done(error as Error),
      );
    },
    _removeFile(_req: Request, file: Partial<SpooledFile>, done: (error: Error | null) => void): void {
      if (!file.name) return done(null);
      spool.delete(file.name).then(
        () => done(null),
        (error: unknown) => done(error as Error),
      );
    },
  };
}

/** The spooled file of an import request, now the audience service's to keep or remove. */
export function takeSpooledFile(req: Request, fieldname: string): SpooledFile | undefined {
  const files = (req as { files?: SpooledFile[] }).files;
  const file = Array.isArray(files) ? files.find((f) => f.fieldname === fieldname) : undefined;
  if (file) file.taken = true;
  return file;
}

/** Removes, when the response ends, spooled files that no route took (the request was refused before). */
export function removeUntakenUploads({ spool, logger }: Pick<AppDeps, 'spool' | 'logger'>): RequestHandler {
  return (req, res, next) => {
    res.on('close', () => {
      const files = (req as { files?: unknown }).files;
      if (!Array.isArray(files)) return;
      for (const file of files as Partial<SpooledFile>[]) {
        if (file.name && !file.taken) {
          spool.delete(file.name).catch((err: unknown) => logger.warn({ err, name: file.name }, 'could not remove a spooled upload'));
        }
      }
    });
    next();
  };
}
