/**
 * The email performance export: an xlsx workbook written by exceljs's streaming writer, one row
 * committed at a time, so memory holds a batch of rows whatever the size of the file.
 *
 * Every value is an inline string cell (`t="inlineStr"`): an address or a bounce message that
 * starts with '=' is text to the spreadsheet, never a formula, and nothing is interpreted as a
 * number or a date. No shared-strings table (it would grow with the file) and no styles.
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EmailPerformanceRow } from '@mailroom/api-client';
import { bounceTypeLabel, EMAIL_PERFORMANCE_COLUMNS, sendStatusLabel, yesNo } from '@mailroom/api-client/labels';

type Column = (typeof EMAIL_PERFORMANCE_COLUMNS)[number];

/** Each column of the report's table (SPEC.md, Email Performance) as the screen words it. */
const CELLS: Record<Column, (row: EmailPerformanceRow) => string | null> = {
  Email: (row) => row.email,
  // A suppressed contact reads as on the screen ('Suppressed (unsubscribed)').
  'Send Status': (row) => sendStatusLabel(row),
  Clicked: (row) => yesNo(row.clicked),
  Opened: (row) => yesNo(row.opened),
  'Bounce Type': (row) => bounceTypeLabel(row.bounceType),
  'Bounce Message': (row) => row.bounceMessage,
  'Bounce Time': (row) => row.bounceTime,
  'Complaint Type': (row) => row.complaintType,
  'Complaint Time': (row) => row.complaintTime,
  'Error Message': (row) => row.errorMessage,
};

/** The sheet's columns: the table's, in its order. */
export const EXPORT_COLUMNS: readonly [Column, (row: EmailPerformanceRow) => string | null][] = EMAIL_PERFORMANCE_COLUMNS.map((column) => [
  column,
  CELLS[column],
]);

/** A text cell that no spreadsheet evaluates: exceljs writes rich text as an inline string. */
const text = (value: string | null): ExcelJS.CellRichTextValue | null => (value === null ? null : { richText: [{ text: value }] });

/**
 * Where the zip reads a sheet's XML from. exceljs hands the XML over without backpressure (its
 * StreamBuf ignores what write() answers), so this buffer grows with the whole sheet when rows come
 * faster than deflate takes them: the writer waits on it. In exceljs 4.4 it is the sheet stream's
 * first pipe, archiver's PassThrough (readable-stream 2); workbook.test.ts fails if that changes.
 */
export function zipInputOf(sheet: ExcelJS.Worksheet): Writable | undefined {
  return (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];
}

/** Node's streams say it as writableNeedDrain; readable-stream 2 keeps it in its state only. */
const needsDrain = (stream: Writable): boolean =>
  stream.writableNeedDrain ?? (stream as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain ?? false;

/** Resolves once `stream` takes more (or is gone). */
function drained(stream: Writable | undefined): Promise<void> {
  if (!stream || !needsDrain(stream) || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Writes the workbook of `batches` into `out` and ends it. Between batches it waits until the zip has
 * taken the XML written so far and `out` has room (exceljs itself does not wait), and it stops asking
 * for batches once `out` is destroyed (the reader left).
 */
export async function writeWorkbook(out: Writable, batches: AsyncIterable<EmailPerformanceRow[]>): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
    // The quickest deflate: the export is bound by CPU, and the rows compress well at any level.
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet('Email performance');
  sheet.addRow(EXPORT_COLUMNS.map(([header]) => text(header))).commit();
  const zipInput = zipInputOf(sheet);
  for await (const rows of batches) {
    for (const row of rows) sheet.addRow(EXPORT_COLUMNS.map(([, value]) => text(value(row)))).commit();
    await drained(zipInput);
    await drained(out);
    if (out.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}
