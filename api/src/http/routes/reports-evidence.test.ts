/**
 * Why a row's open or click is a machine's (an addition to the spec): the evidence stored with its
 * hits, on the Email Performance page and in the export's column, through the whole API (responses
 * checked against the contract). Hits are recorded as the tracking routes record them: judged one by
 * one (classifyHit), then over the mail (record_tracking_hits).
 */
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailPerformanceRow } from '@mailroom/api-client';
import { MACHINE_EVIDENCE_COLUMN } from '@mailroom/api-client/labels';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';
import { classifyHit } from '../../services/tracking/classify.js';
import { trackingRepository } from '../../services/tracking/repository.js';
import { EXPORT_COLUMNS } from '../../services/reports/workbook.js';

let t: TestApp;
let auth: string;
const get = (path: string) => request(t.app).get(path).set('Authorization', auth);

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE_MAIL = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const SENT = new Date(Date.now() - 3 * 3_600_000);
const MIN = 60_000;

type Link = 'a' | 'b' | 'hidden' | null;
/** A hit `ms` after sending, with its evidence; hits of one flush go in one call, as the API's buffer does. */
type Hit = [ms: number, link: Link, agent: string, ip: string, flush?: number];

/** Each mail's hits, and what its row must say. */
const MAILS: { email: string; hits: Hit[]; openEvidence: string[]; clickEvidence: string[]; cell: string | null }[] = [
  {
    email: 'apple@example.org',
    hits: [[2_000, null, 'Mozilla/5.0', '17.58.1.2']],
    openEvidence: ['apple-privacy-proxy'],
    clickEvidence: [],
    cell: "Opened: Apple's privacy proxy fetched the images.",
  },
  {
    email: 'bot@example.org',
    hits: [[10 * MIN, 'a', 'python-requests/2.31.0', '192.0.2.1']],
    openEvidence: ['bot-user-agent'],
    clickEvidence: ['bot-user-agent'],
    cell: "Clicked: a bot's user agent, or none. Opened: a bot's user agent, or none.",
  },
  {
    // A scanner behind a browser's agent: the pixel and a link, then the hidden link in the next flush.
    email: 'scanner@example.org',
    hits: [
      [40_000, null, CHROME, '40.94.0.1'],
      [40_500, 'a', CHROME, '40.94.0.1'],
      [41_000, 'hidden', CHROME, '40.94.0.1', 1],
    ],
    openEvidence: ['hidden-link'],
    clickEvidence: ['hidden-link'],
    cell: 'Clicked: the hidden link followed with it. Opened: the hidden link followed with it.',
  },
  {
    // Apple's proxy, then the person reads it: the open is a person's; only machines clicked, too soon.
    email: 'mixed@example.org',
    hits: [
      [1_000, null, 'Mozilla/5.0', '17.58.1.2'],
      [3_000, 'b', CHROME, '40.94.0.9'],
      [90 * MIN, null, IPHONE_MAIL, '198.51.100.4', 1],
    ],
    openEvidence: [],
    clickEvidence: ['too-soon'],
    cell: 'Clicked: clicked less than 10 s after sending.',
  },
  {
    // Two kinds of evidence for one verdict, in the contract's order whatever the order of the hits.
    email: 'twice@example.org',
    hits: [
      [4_000, 'a', CHROME, '40.94.0.9'],
      [5 * MIN, null, 'Mozilla/5.0', '17.1.1.1', 1],
    ],
    openEvidence: ['apple-privacy-proxy', 'too-soon'],
    clickEvidence: ['too-soon'],
    cell: "Clicked: clicked less than 10 s after sending. Opened: Apple's privacy proxy fetched the images; clicked less than 10 s after sending.",
  },
  { email: 'person@example.org', hits: [[20 * MIN, 'a', CHROME, '203.0.113.5']], openEvidence: [], clickEvidence: [], cell: null },
  // The hidden link alone is neither an open nor a click: nothing to explain.
  { email: 'hidden@example.org', hits: [[30_000, 'hidden', CHROME, '52.1.1.2']], openEvidence: [], clickEvidence: [], cell: null },
  { email: 'unread@example.org', hits: [], openEvidence: [], clickEvidence: [], cell: null },
];

let campaignId: number;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
  campaignId = (
    await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaigns (name, status, html) VALUES ('Evidence', 'SENT', '<p>Hi</p>') RETURNING id`,
    )
  ).rows[0]!.id;
  const { rows: links } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaign_links (campaign_id, href, position, hidden)
     VALUES ($1, 'https://example.org/a', 0, false), ($1, 'https://example.org/b', 1, false), ($1, 'https://mail.example.org/', 2, true)
     RETURNING id`,
    [campaignId],
  );
  const linkIds = { a: links[0]!.id, b: links[1]!.id, hidden: links[2]!.id };
  const { rows: jobs } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, sent_at)
     SELECT $1, n, e, 'SENT_SUCCESS', $3 FROM unnest($2::text[]) WITH ORDINALITY AS m(e, n) ORDER BY n RETURNING id`,
    [campaignId, MAILS.map((mail) => mail.email), SENT],
  );
  const tracking = trackingRepository(t.deps.db);
  for (const flush of [0, 1])
    for (const [k, mail] of MAILS.entries()) {
      const hits = mail.hits.filter(([, , , , f = 0]) => f === flush);
      if (hits.length === 0) continue;
      await tracking.recordHits(
        hits.map(([ms, link, agent, ip]) => {
          const verdict = classifyHit({ kind: link ? 'click' : 'open', userAgent: agent, clientIp: ip });
          return {
            jobId: jobs[k]!.id,
            linkId: link && linkIds[link],
            userAgent: agent,
            at: new Date(SENT.getTime() + ms),
            clientIp: ip,
            machineReason: verdict.machine ? verdict.reason : null,
          };
        }),
      );
    }
});
afterAll(() => t?.close());

describe("why a row's open or click is a machine's (an addition to the spec)", () => {
  it('gives the evidence of each machine verdict on the Email Performance page, nothing for people', async () => {
    const res = await get(`/api/reports/${campaignId}/email-performance?page=1&limit=50`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.items as EmailPerformanceRow[];
    expect(rows.map((row) => [row.email, row.openEvidence, row.clickEvidence])).toEqual(
      MAILS.map((mail) => [mail.email, mail.openEvidence, mail.clickEvidence]),
    );
    // Evidence only where the row reads 'Yes (machine)'.
    for (const row of rows) {
      expect(row.openEvidence.length > 0, row.email!).toBe(row.opened && !row.humanOpened);
      expect(row.clickEvidence.length > 0, row.email!).toBe(row.clicked && !row.humanClicked);
    }
    // A searched page reads its rows by key: the same evidence.
    const searched = await get(`/api/reports/${campaignId}/email-performance?page=1&limit=50&email=twice`);
    expect(searched.body.items.map((row: EmailPerformanceRow) => [row.openEvidence, row.clickEvidence])).toEqual([
      [MAILS[4]!.openEvidence, MAILS[4]!.clickEvidence],
    ]);
  });

  it("writes it in the export's column, as text cells", async () => {
    const res = await get(`/api/reports/${campaignId}/export-email-performance`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as ArrayBuffer);
    const sheet = workbook.getWorksheet('Email performance')!;
    const column = EXPORT_COLUMNS.findIndex(([header]) => header === MACHINE_EVIDENCE_COLUMN) + 1;
    expect(column).toBe(EXPORT_COLUMNS.length);
    expect(sheet.getRow(1).getCell(column).text).toBe('Why a machine');
    const cells = MAILS.map((_, k) => sheet.getRow(k + 2).getCell(column));
    expect(cells.map((cell) => (cell.type === ExcelJS.ValueType.Null ? null : cell.text))).toEqual(MAILS.map((mail) => mail.cell));
    for (const cell of cells.filter((c) => c.type !== ExcelJS.ValueType.Null)) {
      expect(cell.type).toBe(ExcelJS.ValueType.RichText);
      expect(cell.formula).toBeUndefined();
    }
  });
});
