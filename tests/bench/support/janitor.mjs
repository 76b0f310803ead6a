// `node janitor.mjs <server url> <database> <folder>`: started by startStack (stack.mjs) with the API
// and the worker. It waits; on SIGTERM, sent by the benchmark when it stops or by exit-with-parent.mjs
// when the benchmark died without stopping, it drops the run's database and removes its folder.
import { rmSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';
import pg from 'pg';

const [serverUrl, database, folder] = process.argv.slice(2);
if (!serverUrl || !/^mailroom_bench_\w+$/.test(database ?? '') || !folder) {
  console.error('usage: node janitor.mjs <server url> <mailroom_bench_... database> <folder>');
  process.exit(2);
}

const idle = setInterval(() => {}, 1 << 30);
process.once('SIGTERM', async () => {
  clearInterval(idle);
  rmSync(folder, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } catch (error) {
    console.error(`could not drop the benchmark database ${database}:`, error);
    process.exitCode = 1;
  } finally {
    await client.end().catch(() => {});
  }
});
