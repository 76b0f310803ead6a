// The contacts every benchmark imports: a generated CSV, uploaded through the API and imported by the worker.
/* global FormData */
import { closeSync, mkdtempSync, openAsBlob, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

export const CSV_HEADER = 'Email,First Name,Last Name,City,Company\n';

/** Row i of the generated file: every 50th address invalid, every 101st a duplicate of the one before. */
function contactLine(i) {
  const email = i % 50 === 0 ? `user${i}@example` : i % 101 === 0 ? `USER${i - 1}@example.org` : `user${i}@example.org`;
  return `${email},First${i},Last${i},City ${i % 1000},Company ${i % 5000}\n`;
}

/** Writes the ROWS-row CSV to a temp file; returns its path and size. */
export function generateCsv(rows = ROWS) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-bench-csv-'));
  const path = join(dir, 'contacts.csv');
  const fd = openSync(path, 'w');
  let size = 0;
  let buffer = CSV_HEADER;
  for (let i = 1; i <= rows; i++) {
    buffer += contactLine(i);
    if (buffer.length > 1 << 20) {
      size += writeSync(fd, buffer);
      buffer = '';
    }
  }
  size += writeSync(fd, buffer);
  closeSync(fd);
  return { path, size, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Creates an audience and imports the CSV through the API; resolves with the timings. */
export async function importThroughApi(stack, csv, name = 'Bench audience') {
  const created = await stack.api('/api/audiences', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (created.status !== 201) throw new Error(`create audience: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  // Ten minutes a million rows (and at least ten): a busy machine is slow, a stuck import never ends.
  const timeoutMinutes = 10 * Math.max(1, Math.ceil(ROWS / 1e6));

  const form = new FormData();
  form.append('file', await openAsBlob(csv.path, { type: 'text/csv' }), 'contacts.csv');
  const started = performance.now();
  const upload = await stack.api(`/api/audiences/${id}/import/file?type=csv`, { method: 'POST', body: form });
  const uploadSeconds = (performance.now() - started) / 1000;
  if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  let audience;
  for (;;) {
    const res = await stack.api(`/api/audiences/${id}`);
    audience = await res.json();
    if (!audience.isImporting) break;
    if (performance.now() - started > timeoutMinutes * 60_000) throw new Error(`import did not finish in ${timeoutMinutes} minutes`);
    await sleep(25);
  }
  const seconds = (performance.now() - started) / 1000;
  if (audience.importErrorMessage) throw new Error(`import failed: ${audience.importErrorMessage}`);
  return { id, audience, seconds, uploadSeconds };
}
