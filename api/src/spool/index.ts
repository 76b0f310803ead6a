/** The import spool chosen by the configuration: an S3 bucket when S3_BUCKET is set, else the folder IMPORT_DIR. */
import type { ImportSettings } from '../config.js';
import { folderSpool } from './folder-spool.js';
import { s3Spool } from './s3-spool.js';
import type { ImportSpool } from './spool.js';

export type { ImportSpool } from './spool.js';
export { SpoolObjectMissingError, SpoolTooLargeError } from './spool.js';

export function createImportSpool(settings: ImportSettings['spool']): ImportSpool {
  return settings.kind === 's3' ? s3Spool(settings) : folderSpool(settings.dir);
}
