// The contacts every benchmark imports: a generated CSV, uploaded through the API and imported by the worker.
/* global FormData */
import { closeSync, mkdtempSync, openAsBlob, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

/**
 * `BENCH_FIELDS=5` (issue 24): the file gets five typed columns (a number, a date, a yes/no, a choice and a text),
 * and the import maps every column to a new field of its type; 0 (the default) imports the spec's way, without a
 * mapping.
 */
export const FIELDS = Number(process.env.BENCH_FIELDS ?? 0);
if (FIELDS !== 0 && FIELDS !== 5) throw new Error('BENCH_FIELDS is 0 or 5');

export const CSV_HEADER = 'Email,First Name,Last Name,City,Company\n';
const TYPED_HEADER = ',Age,Joined,Member,Tier,Notes';

/** The mapping of a BENCH_FIELDS=5 import: the four text columns and the five typed ones, each to a new field. */
export const TYPED_MAPPING = {
  emailColumn: 'Email',
  columns: [
    { column: 'First Name', to: 'new', key: 'firstName', label: 'First Name', type: 'TEXT' },
    { column: 'Last Name', to: 'new', key: 'lastName', label: 'Last Name', type: 'TEXT' },
    { column: 'City', to: 'new', key: 'city', label: 'City', type: 'TEXT' },
    { column: 'Company', to: 'new', key: 'company', label: 'Company', type: 'TEXT' },
    { column: 'Age', to: 'new', key: 'age', label: 'Age', type: 'NUMBER' },
    { column: 'Joined', to: 'new', key: 'joined', label: 'Joined', type: 'DATE' },
    { column: 'Member', to: 'new', key: 'member', label: 'Member', type: 'YES_NO' },
    { column: 'Tier', to: 'new', key: 'tier', label: 'Tier', type: 'CHOICE', options: ['Gold', 'Silver', 'Bronze'] },
    { column: 'Notes', to: 'new', key: 'notes', label: 'Notes', type: 'TEXT' },
  ],
};

const TIERS = ['Gold', 'Silver', 'Bronze'];
const pad = (n) => (n < 10 ? `0${n}` : String(n));

/** Row i's typed values, as the file writes them and as the import stores them (a JSON value, or absent). */
export function typedValues(i) {
  // Every 1000th row from the 7th has an age that is not a number: an error row of its own.
  const badAge = i % 1000 === 7;
  const joined = `20${10 + (i % 15)}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;
  const tier = TIERS[i % 3];
  return {
    badAge,
    file: `,${badAge ? 'n/a' : 18 + (i % 70)},${joined},${i % 3 === 0 ? 'yes' : 'no'},${i % 7 === 0 ? tier.toLowerCase() : tier},Note ${i % 100}`,
    json: `${badAge ? '' : `,"age":${18 + (i % 70)}`},"joined":"${joined}","member":${i % 3 === 0},"tier":"${tier}","notes":"Note ${i % 100}"`,
  };
}
export const BAD_AGE_ERROR = "Age: 'n/a' is not a number (write it like 1234.5).";

/** Row i of the generated file: every 50th address invalid, every 101st a duplicate of the one before. */
function contactLine(i, fields) {
  const email = i % 50 === 0 ? `user${i}@example` : i % 101 === 0 ? `USER${i - 1}@example.org` : `user${i}@example.org`;
  return `${email},First${i},Last${i},City ${i % 1000},Company ${i % 5000}${fields ? typedValues(i).file : ''}\n`;
}

/** Writes the ROWS-row CSV to a temp file (with FIELDS typed columns); returns its path and size. */
export function generateCsv(rows = ROWS, fields = 0) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-bench-csv-'));
  const path = join(dir, 'contacts.csv');
  const fd = openSync(path, 'w');
  let size = 0;
  let buffer = fields ? CSV_HEADER.replace('\n', `${TYPED_HEADER}\n`) : CSV_HEADER;
  for (let i = 1; i <= rows; i++) {
    buffer += contactLine(i, fields);
    if (buffer.length > 1 << 20) {
      size += writeSync(fd, buffer);
      buffer = '';
    }
  }
  size += writeSync(fd, buffer);
  closeSync(fd);
  return { path, size, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Creates an audience and imports the CSV through the API (with `mapping`, sent before the file); resolves with the timings. */
export async function importThroughApi(stack, csv, name = 'Bench audience', mapping = undefined) {
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
  if (mapping) form.append('mapping', JSON.stringify(mapping));
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
