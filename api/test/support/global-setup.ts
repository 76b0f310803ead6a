import { writeFileSync } from 'node:fs';
import { OPERATION_LOG_PATH } from './operation-log.js';

/** Once per `vitest run`: start the contract coverage log afresh. */
export default function setup(): void {
  writeFileSync(OPERATION_LOG_PATH, '');
}
