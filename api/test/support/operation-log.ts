import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Contract coverage log of the API tests (tests/contract reads it); truncated by global-setup.ts. */
export const OPERATION_LOG_PATH =
  process.env.MAILROOM_OPERATION_LOG ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../.operation-log.jsonl');
