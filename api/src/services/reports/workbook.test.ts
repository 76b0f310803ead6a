/**
 * The export's workbook writer on its own: it holds about one batch of rows whatever the size of the
 * export, because it takes the next batch only once the zip has taken the XML of the earlier ones and
 * the reader has read them; its values stay text; and it words them as the report's table does.
 */
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EmailPerformanceRow, SendStatus } from '@mailroom/api-client';
import { EMAIL_PERFORMANCE_COLUMNS, HUMAN_HITS_COLUMN, MACHINE_EVIDENCE_COLUMN, SEND_STATUS_LABELS } from '@mailroom/api-client/labels';
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
  humanOpened: n % 4 === 0,
  humanClicked: n % 12 === 0,
  openEvidence: n % 4 === 2 ? ['apple-privacy-proxy'] : [],
  clickEvidence: [],
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

  it("writes the screen's words: its column headers, its send status labels, Yes/No and None", async () => {
    const statuses = Object.keys(SEND_STATUS_LABELS) as SendStatus[];
    const rows = statuses.map((status, n) => ({
      ...row(n + 1),
      status,
      clicked: n === 0,
      opened: n === 0,
      bounceType: n === 1 ? ('HARD' as const) : null,
    }));
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeWorkbook(
      out,
      (async function* () {
        yield rows;
      })(),
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const line = (r: number) => EXPORT_COLUMNS.map((_, c) => sheet.getRow(r).getCell(c + 1).text);
    // The spec's columns, then whether a person opened and clicked and why a machine did (additions to the spec).
    expect(line(1)).toEqual([...EMAIL_PERFORMANCE_COLUMNS, HUMAN_HITS_COLUMN, MACHINE_EVIDENCE_COLUMN]);
    const status = EMAIL_PERFORMANCE_COLUMNS.indexOf('Send Status');
    expect(statuses.map((_, n) => line(n + 2)[status])).toEqual(statuses.map((s) => SEND_STATUS_LABELS[s]));
    // The spec's own words, not the contract's constants.
    expect(line(2 + statuses.indexOf('SENT_WAIT_ACK'))[status]).toBe('Sent (waiting Ack)');
    expect(line(2).slice(2, 5)).toEqual(['Yes', 'Yes', 'None']);
    expect(line(3).slice(2, 5)).toEqual(['No', 'No', 'HARD']);
  });

  it("says whether a person opened and clicked, apart from the spec's Opened and Clicked", () => {
    const human = EXPORT_COLUMNS.find(([header]) => header === HUMAN_HITS_COLUMN)![1];
    const machineOnly = { ...row(2), opened: true, clicked: true, humanOpened: false, humanClicked: false };
    expect(human(machineOnly)).toBe('No / No');
    expect(human({ ...machineOnly, humanOpened: true })).toBe('Yes / No');
    expect(human({ ...machineOnly, humanOpened: true, humanClicked: true })).toBe('Yes / Yes');
  });

  it("says why a machine's open or click is one, clicks first as in the table, empty for people", () => {
    const why = EXPORT_COLUMNS.find(([header]) => header === MACHINE_EVIDENCE_COLUMN)![1];
    const machineOnly = { ...row(1), opened: true, clicked: true, humanOpened: false, humanClicked: false };
    expect(why({ ...machineOnly, openEvidence: [], clickEvidence: [] })).toBeNull();
    expect(why({ ...machineOnly, openEvidence: ['apple-privacy-proxy', 'scanner-burst'], clickEvidence: ['scanner-burst'] })).toBe(
      "Clicked: every link followed within seconds. Opened: Apple's privacy proxy fetched the images; every link followed within seconds.",
    );
    expect(why({ ...machineOnly, openEvidence: [], clickEvidence: ['bot-user-agent', 'hidden-link'] })).toBe(
      "Clicked: a bot's user agent, or none; the hidden link followed with it.",
    );
  });

  it('writes a suppressed NOT_SENT contact as the screen shows it, with the reason', () => {
    const status = EXPORT_COLUMNS.find(([header]) => header === 'Send Status')![1];
    const notSent = { ...row(1), id: null, status: 'NOT_SENT' as const };
    expect(status({ ...notSent, suppressionReason: 'HARD_BOUNCE' })).toBe('Suppressed (hard bounce)');
    expect(status({ ...notSent, suppressionReason: 'UNSUBSCRIBE' })).toBe('Suppressed (unsubscribed)');
    expect(status({ ...notSent, suppressionReason: 'COMPLAINT' })).toBe('Suppressed (complaint)');
    expect(status(notSent)).toBe('NOT_SENT');
  });
});
