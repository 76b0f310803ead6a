/**
 * The report's read calls through the whole API (OpenAPI validation with responses checked, auth,
 * the error handler) against PostgreSQL: every combination of the email performance filters against
 * an oracle computed here from the seeded rows, paging from both ends, the streamed large page, the
 * xlsx export and the click counts. Jobs are written straight into the table in every state a job
 * can reach (the counts they need are kept by the database's own triggers); the actions, and the
 * counts under the real sending, tracking and SES event statements, are in reports-actions.test.ts.
 */
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BounceType, EmailPerformanceRow, SendStatus } from '@mailroom/api-client';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedGeneratedAudience, type SeedContact } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { STREAM_ABOVE } from '../../services/reports/report-service.js';
import { EXPORT_COLUMNS } from '../../services/reports/workbook.js';

let t: TestApp;
let auth: string;

const JOB_STATUSES = ['QUEUED', 'SENDING', 'SENT_WAIT_ACK', 'SENT_SUCCESS', 'FAILED', 'UNKNOWN'] as const;
const BOUNCE_TIME = '2024-05-06T07:08:09.000Z';
const COMPLAINT_TIME = '2024-05-07T10:11:12.000Z';

interface Seeded {
  campaignId: number;
  /** Every row the report can show, in display order: the jobs, then (apart) the NOT_SENT contacts. */
  jobs: EmailPerformanceRow[];
  notSent: EmailPerformanceRow[];
}

/** Contact i of the audience: a mix of cases, a literal underscore, a leading '=', some invalid. */
function contact(i: number): SeedContact {
  const email =
    i === 3
      ? '=1+2@example.org'
      : i % 6 === 0
        ? `Sam.${i}@Example.ORG`
        : i % 6 === 1
          ? `sam_${i}@example.org`
          : i % 6 === 2
            ? `samantha${i}@example.org`
            : `reader${i}@example.org`;
  return i % 9 === 4 ? { email: `broken-${i}`, error: 'Invalid email address' } : { email, data: {} };
}

/** Job k's state: every status, bounce type, open and click state, formula-looking messages. */
function jobState(k: number) {
  const status = JOB_STATUSES[k % JOB_STATUSES.length]!;
  const bounceType: BounceType | null = k % 4 === 1 ? 'HARD' : k % 4 === 2 ? 'SOFT' : null;
  const opened = k % 3 !== 0;
  return {
    status,
    bounceType,
    bounceMessage: bounceType ? `=HYPERLINK("https://evil.test","bounce ${k}")` : null,
    bounceTime: bounceType ? BOUNCE_TIME : null,
    complaintType: k % 7 === 0 ? 'abuse' : null,
    complaintTime: k % 7 === 0 ? COMPLAINT_TIME : null,
    errorMessage: status === 'FAILED' ? `+cmd|' /C calc'!A${k}` : null,
    opened,
    clicked: opened && k % 3 === 1,
    // People and machines (an addition to the spec): some opens and clicks only machines made.
    humanOpened: opened && k % 5 !== 0,
    humanClicked: opened && k % 3 === 1 && k % 5 !== 0 && k % 2 === 0,
  };
}

async function insertJobs(
  campaignId: number,
  contacts: { id: number; email: string }[],
  state: (k: number) => ReturnType<typeof jobState>,
) {
  const states = contacts.map((_, k) => state(k));
  const { rows } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, bounce_type, bounce_message, bounce_time,
                                complaint_type, complaint_time, error_message, opened_at, clicked_at, human_opened_at, human_clicked_at)
     SELECT $1, j.contact_id, j.email, j.status, j.bounce_type, j.bounce_message, j.bounce_time, j.complaint_type,
            j.complaint_time, j.error_message, CASE WHEN j.opened THEN now() END, CASE WHEN j.clicked THEN now() END,
            CASE WHEN j.human_opened THEN now() END, CASE WHEN j.human_clicked THEN now() END
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[],
                   $9::timestamptz[], $10::text[], $11::boolean[], $12::boolean[], $13::boolean[], $14::boolean[])
            WITH ORDINALITY AS j(contact_id, email, status, bounce_type, bounce_message, bounce_time, complaint_type,
                                 complaint_time, error_message, opened, clicked, human_opened, human_clicked, n)
      ORDER BY j.n
     RETURNING id`,
    [
      campaignId,
      contacts.map((c) => c.id),
      contacts.map((c) => c.email),
      states.map((s) => s.status),
      states.map((s) => s.bounceType),
      states.map((s) => s.bounceMessage),
      states.map((s) => s.bounceTime),
      states.map((s) => s.complaintType),
      states.map((s) => s.complaintTime),
      states.map((s) => s.errorMessage),
      states.map((s) => s.opened),
      states.map((s) => s.clicked),
      states.map((s) => s.humanOpened),
      states.map((s) => s.humanClicked),
    ],
  );
  await t.db.pool.query('UPDATE campaigns SET contact_count = contact_count + $2 WHERE id = $1', [campaignId, rows.length]);
  return rows.map((row, k) => ({
    ...states[k]!,
    id: row.id,
    contactId: contacts[k]!.id,
    email: contacts[k]!.email,
    suppressionReason: null,
    // Jobs written straight into the table have no hits, so no evidence (reports-evidence.test.ts records some).
    openEvidence: [],
    clickEvidence: [],
  }));
}

async function campaign(name: string, audienceId: number | null, status = 'SENT'): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    'INSERT INTO campaigns (name, status, audience_id, html) VALUES ($1, $2, $3, $4) RETURNING id',
    [name, status, audienceId, '<p>Hi</p>'],
  );
  return rows[0]!.id;
}

const notSentRow = (c: { id: number; email: string }): EmailPerformanceRow => ({
  id: null,
  contactId: c.id,
  email: c.email,
  status: 'NOT_SENT',
  clicked: false,
  opened: false,
  bounceType: null,
  bounceMessage: null,
  bounceTime: null,
  complaintType: null,
  complaintTime: null,
  errorMessage: null,
  suppressionReason: null,
  humanOpened: false,
  humanClicked: false,
  openEvidence: [],
  clickEvidence: [],
});

let readers: Seeded;
let generated: { campaignId: number; jobs: number; notSent: number };
let orphan: Seeded;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();

  const seedContacts = Array.from({ length: 40 }, (_, i) => contact(i));
  const audience = await seedAudience(t.db.pool, { name: 'Readers', headers: [], contacts: seedContacts });
  const valid = audience.contactIds
    .map((id, i) => ({ id, email: seedContacts[i]!.email, i }))
    .filter(({ i }) => seedContacts[i]!.error === undefined);
  // Every fifth valid contact has no job: NOT_SENT.
  const withJob = valid.filter((_, v) => v % 5 !== 3);
  const campaignId = await campaign('Readers news', audience.id);
  const jobs = await insertJobs(campaignId, withJob, jobState);
  readers = { campaignId, jobs, notSent: valid.filter((_, v) => v % 5 === 3).map(notSentRow) };
  // Another campaign of the same audience: none of its rows may show in the first one's report.
  await insertJobs(await campaign('Readers other', audience.id), valid, () => ({ ...jobState(3), status: 'FAILED' }));

  // A campaign whose audience is gone: its rows stay, its NOT_SENT is empty.
  const gone = await seedAudience(t.db.pool, { name: 'Gone', headers: [], contacts: seedContacts.slice(0, 12) });
  const orphanId = await campaign('Orphan', gone.id);
  const orphanJobs = await insertJobs(
    orphanId,
    gone.contactIds.map((id, i) => ({ id, email: seedContacts[i]!.email })).filter((_, i) => seedContacts[i]!.error === undefined),
    jobState,
  );
  await t.db.pool.query('UPDATE audiences SET deleted_at = now() WHERE id = $1', [gone.id]);
  orphan = { campaignId: orphanId, jobs: orphanJobs, notSent: [] };

  // Large enough to stream a page: 4,000 contacts, those with
  // valid_seq % 25 < 14 with a job (2,240: half SENT_SUCCESS), 1,760 NOT_SENT.
  const big = await seedGeneratedAudience(t.db.pool, 4000);
  const bigId = await campaign('Big', big.id);
  const { rows: bigContacts } = await t.db.pool.query<{ id: number; email: string }>(
    `SELECT id, email FROM contacts WHERE audience_id = $1 AND valid_seq % 25 < 14 ORDER BY valid_seq`,
    [big.id],
  );
  await insertJobs(bigId, bigContacts, (k) => ({ ...jobState(k), status: k % 2 ? 'SENT_SUCCESS' : 'SENT_WAIT_ACK' }));
  generated = { campaignId: bigId, jobs: bigContacts.length, notSent: 4000 - bigContacts.length };
}, 60_000);
afterAll(() => t?.close());

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);

interface Filters {
  email?: string;
  sendStatus?: SendStatus;
  bounceStatus?: BounceType;
  clicked?: boolean;
  opened?: boolean;
  humanClicked?: boolean;
  humanOpened?: boolean;
}

const queryOf = (filters: Filters, extra: Record<string, number> = {}) =>
  new URLSearchParams(
    Object.entries({ ...filters, ...extra })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();

/** What the report must answer for `filters`, in display order. */
function expected(seeded: Seeded, filters: Filters): EmailPerformanceRow[] {
  const term = filters.email?.trim().toLowerCase();
  const rows = filters.sendStatus === 'NOT_SENT' ? seeded.notSent : seeded.jobs.map(rowOf);
  return rows.filter(
    (r) =>
      (!filters.sendStatus || r.status === filters.sendStatus) &&
      (!filters.bounceStatus || r.bounceType === filters.bounceStatus) &&
      (filters.clicked === undefined || r.clicked === filters.clicked) &&
      (filters.opened === undefined || r.opened === filters.opened) &&
      (filters.humanClicked === undefined || r.humanClicked === filters.humanClicked) &&
      (filters.humanOpened === undefined || r.humanOpened === filters.humanOpened) &&
      (!term || r.email!.toLowerCase().includes(term)),
  );
}

const rowOf = (job: Seeded['jobs'][number] | EmailPerformanceRow): EmailPerformanceRow => ({
  id: job.id,
  contactId: job.contactId,
  email: job.email,
  status: job.status,
  clicked: job.clicked,
  opened: job.opened,
  bounceType: job.bounceType,
  bounceMessage: job.bounceMessage,
  bounceTime: job.bounceTime,
  complaintType: job.complaintType,
  complaintTime: job.complaintTime,
  errorMessage: job.errorMessage,
  suppressionReason: job.suppressionReason,
  humanOpened: job.humanOpened,
  humanClicked: job.humanClicked,
  openEvidence: job.openEvidence,
  clickEvidence: job.clickEvidence,
});

async function page(campaignId: number, filters: Filters, pageNo: number, limit: number) {
  const res = await get(`/api/reports/${campaignId}/email-performance?${queryOf(filters, { page: pageNo, limit })}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: EmailPerformanceRow[]; meta: Record<string, number> };
}

const EMAILS = [undefined, 'SAM', '_', '=1+'];
const SEND_STATUSES: (SendStatus | undefined)[] = [undefined, ...JOB_STATUSES, 'NOT_SENT'];
const BOUNCES: (BounceType | undefined)[] = [undefined, 'HARD', 'SOFT'];
const FLAGS = [undefined, true, false];

function* combinations(): Generator<Filters> {
  for (const email of EMAILS)
    for (const sendStatus of SEND_STATUSES)
      for (const bounceStatus of BOUNCES)
        for (const clicked of FLAGS) for (const opened of FLAGS) yield { email, sendStatus, bounceStatus, clicked, opened };
}

describe('report calls', () => {
  it('need a token', async () => {
    for (const path of ['clicks', 'overview-stat', 'email-performance', 'export-email-performance']) {
      expect((await api().get(`/api/reports/${readers.campaignId}/${path}`)).status, path).toBe(401);
    }
  });

  it('answer 404 for an unknown campaign and 400 for out-of-range or unknown filter values', async () => {
    for (const path of ['clicks', 'overview-stat', 'email-performance', 'export-email-performance']) {
      const res = await get(`/api/reports/999999/${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: 'Campaign not found' });
    }
    for (const query of [
      'sendStatus=SENT',
      'sendStatus=not_sent',
      'bounceStatus=none',
      'clicked=yes',
      'opened=1x',
      'page=0',
      'limit=1000000',
      `email=${'x'.repeat(321)}`,
      'email=%00',
    ]) {
      expect((await get(`/api/reports/${readers.campaignId}/email-performance?${query}`)).status, query).toBe(400);
    }
  });

  it('answers the overview: the campaign with its sending counters', async () => {
    await t.db.pool.query('UPDATE campaigns SET jobs_sent = 20, jobs_failed = 3 WHERE id = $1', [readers.campaignId]);
    const res = await get(`/api/reports/${readers.campaignId}/overview-stat`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jobsSent: 20, jobsFailed: 3, totalContactsCount: readers.jobs.length });
    expect(res.body.campaign).toMatchObject({ id: readers.campaignId, name: 'Readers news', status: 'SENT', audienceName: 'Readers' });
  });

  it('answers every filter combination exactly, with its total', async () => {
    const cases = [...combinations()].flatMap((filters) => [readers, orphan].map((seeded) => ({ filters, seeded })));
    let at = 0;
    let checked = 0;
    // A few requests at a time: the API and PostgreSQL wait on each other, not on this test.
    const next = async (): Promise<void> => {
      for (let item = cases[at++]; item; item = cases[at++]) {
        const { filters, seeded } = item;
        const want = expected(seeded, filters);
        const body = await page(seeded.campaignId, filters, 1, 100);
        expect({ filters, items: body.items }).toEqual({ filters, items: want });
        expect(body.meta).toEqual({
          currentPage: 1,
          itemCount: want.length,
          itemsPerPage: 100,
          totalItems: want.length,
          totalPages: Math.ceil(want.length / 100),
        });
        checked++;
      }
    };
    await Promise.all(Array.from({ length: 4 }, next));
    expect(checked).toBe(2 * EMAILS.length * SEND_STATUSES.length * BOUNCES.length * FLAGS.length * FLAGS.length);
    // The oracle is not trivial: a good share of the combinations keep some rows, and some keep none.
    const sizes = [...combinations()].map((filters) => expected(readers, filters).length);
    expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(sizes.length / 5);
    expect(sizes.some((n) => n === 0)).toBe(true);
  }, 120_000);

  it('answers the people-only filters exactly (an addition to the spec), with and without an address search', async () => {
    const cases: Filters[] = [];
    for (const humanOpened of [true, false, undefined])
      for (const humanClicked of [true, false, undefined])
        for (const opened of [true, undefined])
          for (const email of [undefined, 'sam'])
            for (const sendStatus of [undefined, 'SENT_SUCCESS', 'NOT_SENT'] as const)
              if (humanOpened !== undefined || humanClicked !== undefined)
                cases.push({ humanOpened, humanClicked, opened, email, sendStatus });
    for (const seeded of [readers, orphan])
      for (const filters of cases) {
        const want = expected(seeded, filters);
        const body = await page(seeded.campaignId, filters, 1, 100);
        expect({ filters, items: body.items, total: body.meta.totalItems }).toEqual({ filters, items: want, total: want.length });
      }
    // Machines' opens only: opened, by no person. The seed has some, and they are told apart.
    const machinesOnly = expected(readers, { opened: true, humanOpened: false });
    expect(machinesOnly.length).toBeGreaterThan(0);
    expect(machinesOnly.length).toBeLessThan(expected(readers, { opened: true }).length);
  }, 120_000);

  it('pages every view from both ends: each page is the slice of the whole', async () => {
    for (const filters of [
      {},
      { opened: false },
      { sendStatus: 'NOT_SENT' },
      { sendStatus: 'SENT_SUCCESS', clicked: false },
      { email: 'sam' },
    ] as Filters[]) {
      const want = expected(readers, filters);
      for (const limit of [1, 3, 4]) {
        const pages = Math.ceil(want.length / limit);
        for (let p = 1; p <= pages + 1; p++) {
          const body = await page(readers.campaignId, filters, p, limit);
          expect({ filters, limit, p, items: body.items }).toEqual({ filters, limit, p, items: want.slice((p - 1) * limit, p * limit) });
          expect(body.meta).toMatchObject({ currentPage: p, totalItems: want.length, totalPages: pages });
        }
      }
    }
  });

  it('answers a page larger than one body (the spec asks NOT_SENT with limit 999999) as the same JSON, streamed', async () => {
    for (const filters of [{ sendStatus: 'NOT_SENT' }, {}, { sendStatus: 'SENT_SUCCESS' }] as Filters[]) {
      const res = await get(`/api/reports/${generated.campaignId}/email-performance?${queryOf(filters, { page: 1, limit: 999999 })}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const total = filters.sendStatus === 'NOT_SENT' ? generated.notSent : filters.sendStatus ? generated.jobs / 2 : generated.jobs;
      expect(total).toBeGreaterThan(STREAM_ABOVE);
      expect(res.body.meta).toEqual({ currentPage: 1, itemCount: total, itemsPerPage: 999999, totalItems: total, totalPages: 1 });
      // The same rows as pages small enough to be answered (and checked against the contract) as one body.
      const pages = [];
      for (let p = 1; p <= Math.ceil(total / 1000); p++) pages.push(...(await page(generated.campaignId, filters, p, 1000)).items);
      expect(res.body.items).toEqual(pages);
    }
    const second = await get(`/api/reports/${generated.campaignId}/email-performance?sendStatus=NOT_SENT&page=2&limit=1200`);
    expect(second.body.meta).toEqual({
      currentPage: 2,
      itemCount: generated.notSent - 1200,
      itemsPerPage: 1200,
      totalItems: generated.notSent,
      totalPages: 2,
    });
    const past = await get(`/api/reports/${generated.campaignId}/email-performance?sendStatus=NOT_SENT&page=3&limit=999999`);
    expect(past.body).toEqual({
      items: [],
      meta: { currentPage: 3, itemCount: 0, itemsPerPage: 999999, totalItems: generated.notSent, totalPages: 1 },
    });
  });

  it('counts and pages a search exactly beyond the old caps (15,000 matches), for every kind of filter', async () => {
    // Two addresses in three at gmail.com; four contacts in five with a job, in every state.
    const audience = await seedGeneratedAudience(t.db.pool, 15_000, ['gmail.com', 'gmail.com', 'example.org']);
    const id = await campaign('Large search', audience.id);
    await t.db.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, bounce_type, opened_at, clicked_at)
       SELECT $1, id, email, ($3::text[])[1 + hashint4(valid_seq) % 6 + 5],
              CASE valid_seq % 7 WHEN 1 THEN 'HARD' WHEN 2 THEN 'SOFT' END,
              CASE WHEN valid_seq % 3 > 0 THEN now() END, CASE WHEN valid_seq % 9 = 1 THEN now() END
         FROM contacts WHERE audience_id = $2 AND valid_seq % 5 <> 0 ORDER BY valid_seq`,
      [id, audience.id, [...JOB_STATUSES, ...JOB_STATUSES]],
    );
    // The oracle: every row read plainly, filtered here.
    const { rows: jobs } = await t.db.pool.query<{
      email: string;
      status: SendStatus;
      bounceType: BounceType | null;
      opened: boolean;
      clicked: boolean;
    }>(
      `SELECT email, status, bounce_type AS "bounceType", opened_at IS NOT NULL AS opened, clicked_at IS NOT NULL AS clicked
         FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id`,
      [id],
    );
    const { rows: unsent } = await t.db.pool.query<{ email: string }>(
      `SELECT email FROM contacts c WHERE audience_id = $1
          AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $2 AND j.contact_id = c.id) ORDER BY valid_seq`,
      [audience.id, id],
    );
    const oracle = (filters: Filters) => {
      const term = filters.email!.toLowerCase();
      // A contact without a job has no bounce, no open and no click.
      if (filters.sendStatus === 'NOT_SENT')
        return unsent
          .filter((c) => c.email.includes(term) && !filters.bounceStatus && filters.opened !== true && filters.clicked !== true)
          .map((c) => `${c.email} NOT_SENT`);
      return jobs
        .filter(
          (r) =>
            r.email.includes(term) &&
            (!filters.sendStatus || r.status === filters.sendStatus) &&
            (!filters.bounceStatus || r.bounceType === filters.bounceStatus) &&
            (filters.clicked === undefined || r.clicked === filters.clicked) &&
            (filters.opened === undefined || r.opened === filters.opened),
        )
        .map((r) => `${r.email} ${r.status} ${r.bounceType} ${r.opened} ${r.clicked}`);
    };
    const seen = (rows: EmailPerformanceRow[]) =>
      rows.map((r) =>
        r.status === 'NOT_SENT' ? `${r.email} NOT_SENT` : `${r.email} ${r.status} ${r.bounceType} ${r.opened} ${r.clicked}`,
      );

    const cases: Filters[] = [
      { email: 'USER' },
      { email: 'gmail' },
      { email: 'gmail', sendStatus: 'FAILED' },
      { email: 'gmail', sendStatus: 'SENT_SUCCESS', clicked: false },
      { email: 'Gmail', bounceStatus: 'HARD', opened: true },
      { email: 'example.org', opened: false },
      { email: 'user', sendStatus: 'NOT_SENT' },
      { email: 'gmail', sendStatus: 'NOT_SENT' },
      { email: 'user1' },
      { email: 'user12345@', sendStatus: 'QUEUED' },
      { email: 'user', sendStatus: 'NOT_SENT', opened: true },
    ];
    expect(oracle({ email: 'user' }).length).toBeGreaterThan(10_005);
    expect(oracle({ email: 'gmail' }).length).toBeGreaterThan(5000);
    for (const filters of cases) {
      const want = oracle(filters);
      const pages = Math.max(1, Math.ceil(want.length / 100));
      for (const p of new Set([1, Math.ceil(pages / 2), pages, pages + 1])) {
        const body = await page(id, filters, p, 100);
        expect({ filters, p, total: body.meta.totalItems }).toEqual({ filters, p, total: want.length });
        expect({ filters, p, rows: seen(body.items) }).toEqual({ filters, p, rows: want.slice((p - 1) * 100, p * 100) });
      }
    }

    // A job that changes state, and a contact that gets a job, show in the next page's totals.
    const failed = oracle({ email: 'gmail', sendStatus: 'FAILED' }).length;
    const unsentGmail = oracle({ email: 'gmail', sendStatus: 'NOT_SENT' }).length;
    await t.db.pool.query(
      `UPDATE campaign_jobs SET status = 'SENT_SUCCESS'
        WHERE id = (SELECT min(id) FROM campaign_jobs WHERE campaign_id = $1 AND status = 'FAILED' AND email LIKE '%gmail%')`,
      [id],
    );
    await t.db.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email)
       SELECT $1, id, email FROM contacts c WHERE audience_id = $2 AND email LIKE '%gmail%'
          AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $1 AND j.contact_id = c.id) ORDER BY valid_seq LIMIT 1`,
      [id, audience.id],
    );
    expect((await page(id, { email: 'gmail', sendStatus: 'FAILED' }, 1, 10)).meta.totalItems).toBe(failed - 1);
    expect((await page(id, { email: 'gmail', sendStatus: 'NOT_SENT' }, 1, 10)).meta.totalItems).toBe(unsentGmail - 1);

    // A page larger than one body, and the export, hold every match too.
    const streamed = await get(`/api/reports/${id}/email-performance?email=gmail&sendStatus=SENT_SUCCESS&page=1&limit=999999`);
    const sentGmail = (await page(id, { email: 'gmail', sendStatus: 'SENT_SUCCESS' }, 1, 10)).meta.totalItems!;
    expect(sentGmail).toBeGreaterThan(STREAM_ABOVE);
    expect(streamed.body.meta).toMatchObject({ itemCount: sentGmail, totalItems: sentGmail });
    expect(streamed.body.items).toHaveLength(sentGmail);
    const exported = await get(`/api/reports/${id}/export-email-performance?email=gmail&sendStatus=SENT_SUCCESS`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.body as ArrayBuffer);
    expect(workbook.getWorksheet('Email performance')!.actualRowCount).toBe(sentGmail + 1);
  }, 60_000);

  it('exports the rows of the filters as email-performance-{id}.xlsx, every value a plain string cell', async () => {
    for (const filters of [
      {},
      { sendStatus: 'FAILED' },
      { sendStatus: 'NOT_SENT', email: '=' },
      { bounceStatus: 'HARD', opened: true },
    ] as Filters[]) {
      const res = await get(`/api/reports/${readers.campaignId}/export-email-performance?${queryOf(filters)}`)
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="email-performance-${readers.campaignId}.xlsx"; filename*=UTF-8''email-performance-${readers.campaignId}.xlsx`,
      );
      const workbook = new ExcelJS.Workbook();
      // exceljs's typings call a Buffer an ArrayBuffer; it reads Node's Buffer.
      await workbook.xlsx.load(res.body as ArrayBuffer);
      // The Summary sheet comes first (reports-overview.test.ts reads it).
      expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'Email performance']);
      const sheet = workbook.getWorksheet('Email performance')!;
      const cells: (string | null)[][] = [];
      sheet.eachRow({ includeEmpty: true }, (row) => {
        const values: (string | null)[] = [];
        for (let c = 1; c <= EXPORT_COLUMNS.length; c++) {
          const cell = row.getCell(c);
          if (cell.type === ExcelJS.ValueType.Null) {
            values.push(null);
            continue;
          }
          // Never a formula, a number, a date or a boolean: text only.
          expect([ExcelJS.ValueType.String, ExcelJS.ValueType.RichText], `${cell.address} ${String(cell.value)}`).toContain(cell.type);
          expect(cell.formula).toBeUndefined();
          values.push(cell.text);
        }
        cells.push(values);
      });
      const want = expected(readers, filters);
      expect(want.length).toBeGreaterThan(0);
      expect(cells).toEqual([
        EXPORT_COLUMNS.map(([header]) => header),
        ...want.map((row) => EXPORT_COLUMNS.map(([, value]) => value(row))),
      ]);
    }
    const formulaLike = expected(readers, { sendStatus: 'NOT_SENT', email: '=' });
    expect(formulaLike.map((r) => r.email)).toEqual(['=1+2@example.org']);
  });

  it('lists the links with their click counts in the order of the html', async () => {
    const { rows } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaign_links (campaign_id, href, position, clicks, unique_clicks)
       VALUES ($1, 'https://example.org/b', 2, 7, 3), ($1, 'https://example.org/a', 1, 12, 9) RETURNING id`,
      [readers.campaignId],
    );
    const res = await get(`/api/reports/${readers.campaignId}/clicks`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      // People's clicks (an addition) are counted from the hits: reports-link-clicks.test.ts.
      { id: rows[1]!.id, href: 'https://example.org/a', clicks: 12, uniqueClicks: 9, humanClicks: 0, humanUniqueClicks: 0 },
      { id: rows[0]!.id, href: 'https://example.org/b', clicks: 7, uniqueClicks: 3, humanClicks: 0, humanUniqueClicks: 0 },
    ]);
    expect((await get(`/api/reports/${orphan.campaignId}/clicks`)).body).toEqual([]);
  });
});
