import { writeFileSync } from 'node:fs';
import { OPERATION_LOG_PATH } from './operation-log.js';

/**
 * Once per `vitest run`: start the contract coverage log afresh, unless the run is one of several
 * that share it (`pnpm test` runs the API's tests in two steps and starts the log itself).
 */
export default function setup(): void {
  if (process.env.MAILROOM_OPERATION_LOG_KEEP === '1') return;
  writeFileSync(OPERATION_LOG_PATH, '');
}
