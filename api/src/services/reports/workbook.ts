/**
 * The email performance export: an xlsx workbook written by exceljs's streaming writer, one row
 * committed at a time, so memory holds a batch of rows whatever the size of the file.
 *
 * Every value is an inline string cell (`t="inlineStr"`): an address or a bounce message that
 * starts with '=' is text to the spreadsheet, never a formula, and nothing is interpreted as a
 * number or a date. No shared-strings table (it would grow with the file) and no styles.
 *
 * The first sheet, 'Summary' (an addition to the spec), holds the report overview's figures, each
 * with its rate over the mails sent, and the deliverability by domain: labels are text cells as
 * above, counts and rates are numbers (rates in percent, one decimal).
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EmailPerformanceRow, ReportDomain, ReportOverview } from '@mailroom/api-client';
import {
  bounceTypeLabel,
  EMAIL_PERFORMANCE_COLUMNS,
  HUMAN_HITS_COLUMN,
  humanHitsLabel,
  MACHINE_EVIDENCE_COLUMN,
  machineEvidenceLabel,
  sendStatusLabel,
  yesNo,
} from '@mailroom/api-client/labels';

type Column = (typeof EMAIL_PERFORMANCE_COLUMNS)[number] | typeof HUMAN_HITS_COLUMN | typeof MACHINE_EVIDENCE_COLUMN;

/** Each column of the report's table (docs/product.md, Email Performance) as the screen words it. */
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
  [HUMAN_HITS_COLUMN]: humanHitsLabel,
  [MACHINE_EVIDENCE_COLUMN]: machineEvidenceLabel,
};

/**
 * The sheet's columns: the table's, in its order (the spec's Opened and Clicked count machines too),
 * then whether a person opened and clicked and why a machine's open or click is one (additions to the spec).
 */
const COLUMNS: readonly Column[] = [...EMAIL_PERFORMANCE_COLUMNS, HUMAN_HITS_COLUMN, MACHINE_EVIDENCE_COLUMN];
export const EXPORT_COLUMNS: readonly [Column, (row: EmailPerformanceRow) => string | null][] = COLUMNS.map((column) => [
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

/** What the Summary sheet shows: the overview's figures and the domain table, read with the rows. */
export interface WorkbookSummary {
  overview: ReportOverview;
  domains: readonly ReportDomain[];
}

/** Percent of `total`, one decimal; empty when nothing was sent. */
const percent = (count: number, total: number): number | null => (total === 0 ? null : Math.round((count / total) * 1000) / 10);

/** The overview's figures as the Summary sheet words them, in the order of the report's Overview tab. */
export const SUMMARY_FIGURES: readonly [string, (o: ReportOverview) => number][] = [
  ['Sent', (o) => o.sent],
  ['Delivered', (o) => o.delivered],
  ['Bounced (hard)', (o) => o.bouncedHard],
  ['Bounced (soft)', (o) => o.bouncedSoft],
  ['Complaints', (o) => o.complaints],
  ['Unsubscribed', (o) => o.unsubscribed],
  ['Opened by people', (o) => o.openedHuman],
  ['Opened by machines only', (o) => o.openedMachine],
  ['Clicked by people', (o) => o.clickedHuman],
  ['Clicked by machines only', (o) => o.clickedMachine],
  ['Failed', (o) => o.failed],
  ['Unknown', (o) => o.unknown],
];

/** The domain table's columns: a text cell for the domain and the flag, numbers for the rest. */
export const SUMMARY_DOMAIN_COLUMNS: readonly [string, (d: ReportDomain) => string | number | null][] = [
  ['Domain', (d) => d.domain ?? 'Other'],
  ['Sent', (d) => d.sent],
  ['Delivered', (d) => d.delivered],
  ['Bounced (hard)', (d) => d.bouncedHard],
  ['Bounced (soft)', (d) => d.bouncedSoft],
  ['Complaints', (d) => d.complaints],
  ['Opened by people (% of sent)', (d) => percent(d.openedHuman, d.sent)],
  ['Clicked by people (% of sent)', (d) => percent(d.clickedHuman, d.sent)],
  ['Bounces or complaints far above the campaign', (d) => yesNo(d.flagged)],
];

const cell = (value: string | number | null) => (typeof value === 'string' ? text(value) : value);

function writeSummary(workbook: ExcelJS.stream.xlsx.WorkbookWriter, { overview, domains }: WorkbookSummary): void {
  const sheet = workbook.addWorksheet('Summary');
  const row = (...values: (string | number | null)[]) => sheet.addRow(values.map(cell)).commit();
  row('Sending started', overview.sendingStartedAt ?? 'Not sent');
  row('Total contacts', overview.totalContactsCount);
  row();
  row('Figure', 'Count', '% of sent');
  for (const [label, count] of SUMMARY_FIGURES) row(label, count(overview), percent(count(overview), overview.sent));
  row('Click-to-open by people (% of opened by people)', null, percent(overview.clickedHuman, overview.openedHuman));
  row();
  row(...SUMMARY_DOMAIN_COLUMNS.map(([header]) => header));
  for (const domain of domains) row(...SUMMARY_DOMAIN_COLUMNS.map(([, value]) => value(domain)));
  sheet.commit();
}

/**
 * Writes the workbook of `batches` (after the Summary sheet of `summary`, when given) into `out` and ends it. Between batches it waits until the zip has
 * taken the XML written so far and `out` has room (exceljs itself does not wait), and it stops asking
 * for batches once `out` is destroyed (the reader left).
 */
export async function writeWorkbook(
  out: Writable,
  batches: AsyncIterable<EmailPerformanceRow[]>,
  summary?: WorkbookSummary,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
    // The quickest deflate: the export is bound by CPU, and the rows compress well at any level.
    zip: { zlib: { level: 1 } },
  });
  if (summary) writeSummary(workbook, summary);
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
