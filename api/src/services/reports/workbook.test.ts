/**
 * The export's workbook writer on its own: it holds about one batch of rows whatever the size of the
 * export, because it takes the next batch only once the zip has taken the XML of the earlier ones and
 * the reader has read them; and its values stay text.
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EmailPerformanceRow } from '@mailroom/api-client';
import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, writeWorkbook, zipInputOf } from './workbook.js';

const row = (n: number): EmailPerformanceRow => ({
  id: n,
  contactId: n,
  email: `reader${n}@example.org`,
  status: 'SENT_SUCCESS',
  clicked: n % 3 === 0,
  opened: n % 2 === 0,
  bounceType: null,
  bounceMessage: null,
  bounceTime: null,
  complaintType: null,
  complaintTime: null,
  errorMessage: n % 7 === 0 ? `=cmd|' /C calc'!A${n}` : null,
  suppressionReason: null,
});

describe('the export workbook', () => {
  it('finds where the zip reads the sheet from (exceljs internals it relies on)', () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new Writable({ write: (_c, _e, done) => done() }) });
    const sheet = workbook.addWorksheet('Sheet');
    sheet.addRow(['a']).commit();
    const input = zipInputOf(sheet);
    expect(input).toBeDefined();
    expect(typeof input!.write).toBe('function');
    expect(typeof input!.once).toBe('function');
  });

  it('takes the next batch only once the earlier ones have gone out to a slow reader', async () => {
    const BATCHES = 30;
    const ROWS = 2000;
    let arrived = 0;
    const arrivedAtPull: number[] = [];
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        arrived += chunk.length;
        setTimeout(done, 1);
      },
    });
    async function* batches() {
      for (let k = 0; k < BATCHES; k++) {
        arrivedAtPull.push(arrived);
        yield Array.from({ length: ROWS }, (_, i) => row(k * ROWS + i));
      }
    }
    await writeWorkbook(out, batches());
    const perBatch = arrived / BATCHES;
    // When batch k is asked for, the compressed rows of all batches but the last two are out.
    for (let k = 3; k < BATCHES; k++) expect(arrivedAtPull[k], `batch ${k}`).toBeGreaterThan((k - 2) * perBatch * 0.8);
  }, 60_000);

  it('writes a suppressed NOT_SENT contact as the screen shows it, with the reason', () => {
    const status = EXPORT_COLUMNS.find(([header]) => header === 'Send Status')![1];
    const notSent = { ...row(1), id: null, status: 'NOT_SENT' as const };
    expect(status({ ...notSent, suppressionReason: 'HARD_BOUNCE' })).toBe('Suppressed (hard bounce)');
    expect(status({ ...notSent, suppressionReason: 'UNSUBSCRIBE' })).toBe('Suppressed (unsubscribed)');
    expect(status({ ...notSent, suppressionReason: 'COMPLAINT' })).toBe('Suppressed (complaint)');
    expect(status(notSent)).toBe('NOT_SENT');
  });
});
