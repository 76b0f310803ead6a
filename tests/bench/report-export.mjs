// `pnpm bench report-export`: the xlsx export of a campaign of 1,000,000 jobs (seeded as in the
// report-page benchmark), no filter: seconds from the request to the last byte, read as fast as the
// client can, and the API's peak RSS during the export. The workbook is then read back (exceljs's
// streaming reader, not timed) to check that every row is in it.
// Budget: <= 60 s and <= 300 MB.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ROWS } from './support/contacts.mjs';
import { peakRssMb, resetPeakRss } from './support/processes.mjs';
import { startReportStack } from './report-page.mjs';

const ExcelJS = createRequire(new URL('../../api/package.json', import.meta.url))('exceljs');

/**
 * The rows of the workbook's one sheet of rows, the one whose header starts with 'Email' (the header
 * left out). The Summary sheet before it holds figures, not rows: counting it made 1,000,021 of a
 * million. The streaming reader names sheets only once it has read the workbook's index, hence the header.
 */
async function countRows(path) {
  const sheetsOfRows = [];
  for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'ignore', styles: 'ignore' })) {
    let header = '';
    let rows = 0;
    for await (const row of sheet) {
      if (row.number === 1) header = row.getCell(1).text;
      else rows++;
    }
    if (header === 'Email') sheetsOfRows.push(rows);
  }
  if (sheetsOfRows.length !== 1) throw new Error(`${sheetsOfRows.length} sheets of rows in the workbook, not 1`);
  return sheetsOfRows[0];
}

async function main() {
  const { stack, campaignId } = await startReportStack();
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-bench-xlsx-'));
  try {
    await stack.pool.query('VACUUM ANALYZE contacts, campaign_jobs');
    resetPeakRss(stack.http.pid);
    const baseline = peakRssMb(stack.http.pid);
    const file = join(dir, 'export.xlsx');

    const started = performance.now();
    const res = await stack.api(`/api/reports/${campaignId}/export-email-performance`);
    if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
    const seconds = (performance.now() - started) / 1000;
    const rss = peakRssMb(stack.http.pid);
    const load = loadavg().map((n) => Number(n.toFixed(2)));

    const rows = await countRows(file);
    if (rows !== ROWS) throw new Error(`exported ${rows} rows of ${ROWS}`);
    console.log(`Content-Disposition: ${res.headers.get('content-disposition')}`);
    console.log(`${rows} rows in ${seconds.toFixed(2)} s (budget <= 60)`);
    console.log(`API peak RSS during the export ${rss} MB (before: ${baseline} MB; budget <= 300); load average ${load.join(' ')}`);
    console.log(JSON.stringify({ bench: 'report-export', rows, seconds: Number(seconds.toFixed(2)), peakRssMb: rss, loadAverage: load }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
