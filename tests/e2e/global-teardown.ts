/** Ends what global-setup started (by the pids in .state/stack.json) and drops the suite's database. */
import { existsSync, rmSync } from 'node:fs';
import pg from 'pg';
import { deleteTestQueues } from '../support/test-queues.mjs';
import { ADMIN_DATABASE_URL, killGroup, readState, stateFile } from './support/stack';

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(stateFile)) return;
  const state = readState();
  if (state.stackPid) await killGroup(state.stackPid, 15_000);
  if (state.campaignsRemotePid) await killGroup(state.campaignsRemotePid, 5_000);
  if (state.sesPid) await killGroup(state.sesPid, 5_000);
  // The stack's queues (its QUEUE_PREFIX): the stack is gone, so nothing consumes them any more.
  if (state.queuePrefix) {
    await deleteTestQueues(state.queuePrefix).catch((error: unknown) => console.error('[e2e] could not delete the run’s queues:', error));
  }
  if (/^mailroom_e2e_\d+$/.test(state.databaseName)) {
    const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${state.databaseName}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
  rmSync(stateFile, { force: true });
}
