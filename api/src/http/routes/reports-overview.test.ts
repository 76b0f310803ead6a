/**
 * The report's overview, timeline and deliverability by domain (additions to the spec) through the
 * whole API (auth, OpenAPI validation with responses checked, the error handler) against PostgreSQL.
 * The figures are read from the aggregates of migration 0016, kept by triggers: here they are
 * checked against an oracle computed from the seeded rows, then, after a mixed load of the real
 * sending, SES event and tracking statements run at once (and hits re-marked as machines' after
 * the fact), against a direct count over the jobs and the hits. The export's Summary sheet too.
 */
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDomain, ReportOverview, ReportTimeline } from '@mailroom/api-client';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';
import { claimRepository } from '../../services/sending/claim-repository.js';
import { sesEventRepository } from '../../services/ses-events/repository.js';
import { trackingRepository } from '../../services/tracking/repository.js';
import { SUMMARY_DOMAIN_COLUMNS, SUMMARY_FIGURES } from '../../services/reports/workbook.js';

let t: TestApp;
let auth: string;

const get = (path: string) => request(t.app).get(path).set('Authorization', auth);
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
});
afterAll(() => t?.close());

async function newCampaign(status: string, deliveryDate: Date | null): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaigns (name, status, html, delivery_date) VALUES ('Outcome', $1, '<p>Hi</p>', $2) RETURNING id`,
    [status, deliveryDate],
  );
  return rows[0]!.id;
}

interface JobSpec {
  email: string;
  status: 'QUEUED' | 'SENDING' | 'SENT_WAIT_ACK' | 'SENT_SUCCESS' | 'FAILED' | 'UNKNOWN';
  bounce?: 'HARD' | 'SOFT';
  complaint?: boolean;
  opened?: boolean;
  clicked?: boolean;
  humanOpened?: boolean;
  humanClicked?: boolean;
  sentAt?: Date;
}

/** Inserts the jobs as they are (the triggers keep the aggregates); their ids in order. */
async function insertJobs(campaignId: number, jobs: JobSpec[]): Promise<number[]> {
  const at = (flag: boolean | undefined) => (flag ? new Date() : null);
  const { rows } = await t.db.pool.query<{ id: number }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, bounce_type, complaint_type, opened_at, clicked_at,
                                human_opened_at, human_clicked_at, sent_at)
     SELECT $1, j.n, j.email, j.status, j.bounce, j.complaint, j.opened_at, j.clicked_at, j.human_opened_at, j.human_clicked_at, j.sent_at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[],
                   $9::timestamptz[], $10::timestamptz[])
            WITH ORDINALITY AS j(email, status, bounce, complaint, opened_at, clicked_at, human_opened_at, human_clicked_at, sent_at, n)
      ORDER BY j.n
     RETURNING id`,
    [
      campaignId,
      jobs.map((j) => j.email),
      jobs.map((j) => j.status),
      jobs.map((j) => j.bounce ?? null),
      jobs.map((j) => (j.complaint ? 'abuse' : null)),
      jobs.map((j) => at(j.opened || j.clicked || j.humanOpened || j.humanClicked)),
      jobs.map((j) => at(j.clicked || j.humanClicked)),
      jobs.map((j) => at(j.humanOpened || j.humanClicked)),
      jobs.map((j) => at(j.humanClicked)),
      jobs.map((j) => j.sentAt ?? null),
    ],
  );
  await t.db.pool.query('UPDATE campaigns SET contact_count = contact_count + $2 WHERE id = $1', [campaignId, jobs.length]);
  return rows.map((row) => row.id);
}

async function insertHits(campaignId: number, hits: { jobId: number; click: boolean; machine: boolean; at: Date }[]): Promise<void> {
  await t.db.pool.query(
    `INSERT INTO tracking_events (campaign_id, job_id, kind, machine, created_at)
     SELECT $1, h.job, CASE WHEN h.click THEN 'CLICK' ELSE 'OPEN' END, h.machine, h.at
       FROM unnest($2::bigint[], $3::boolean[], $4::boolean[], $5::timestamptz[]) AS h(job, click, machine, at)`,
    [campaignId, hits.map((h) => h.jobId), hits.map((h) => h.click), hits.map((h) => h.machine), hits.map((h) => h.at)],
  );
}

const overviewOf = async (id: number) => {
  const res = await get(`/api/reports/${id}/overview`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportOverview;
};
const timelineOf = async (id: number) => {
  const res = await get(`/api/reports/${id}/timeline`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportTimeline;
};
const domainsOf = async (id: number) => {
  const res = await get(`/api/reports/${id}/domains`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { domains: ReportDomain[] }).domains;
};

/** What the overview should say of `jobs`, counted here from the specs. */
function expectedOverview(jobs: JobSpec[]) {
  const count = (keep: (job: JobSpec) => boolean) => jobs.filter(keep).length;
  const sent = (job: JobSpec) => job.status === 'SENT_WAIT_ACK' || job.status === 'SENT_SUCCESS';
  const opened = (job: JobSpec) => Boolean(job.opened || job.clicked || job.humanOpened || job.humanClicked);
  const clicked = (job: JobSpec) => Boolean(job.clicked || job.humanClicked);
  return {
    sent: count(sent),
    delivered: count((j) => j.status === 'SENT_SUCCESS'),
    bouncedHard: count((j) => j.bounce === 'HARD'),
    bouncedSoft: count((j) => j.bounce === 'SOFT'),
    complaints: count((j) => Boolean(j.complaint)),
    openedHuman: count((j) => Boolean(j.humanOpened || j.humanClicked)),
    openedMachine: count((j) => opened(j) && !(j.humanOpened || j.humanClicked)),
    clickedHuman: count((j) => Boolean(j.humanClicked)),
    clickedMachine: count((j) => clicked(j) && !j.humanClicked),
    failed: count((j) => j.status === 'FAILED'),
    unknown: count((j) => j.status === 'UNKNOWN'),
  };
}

describe('report overview, timeline and domains (additions to the spec)', () => {
  it('need a token, a campaign that exists and a valid id', async () => {
    for (const call of ['overview', 'timeline', 'domains']) {
      expect((await request(t.app).get(`/api/reports/1/${call}`)).status).toBe(401);
      const missing = await get(`/api/reports/999999/${call}`);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Campaign not found');
      for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999'])
        expect((await get(`/api/reports/${bad}/${call}`)).status).toBe(400);
    }
  });

  it('answer zeros and no buckets for a campaign never sent', async () => {
    const id = await newCampaign('DRAFT', null);
    expect(await overviewOf(id)).toEqual({
      sent: 0,
      delivered: 0,
      bouncedHard: 0,
      bouncedSoft: 0,
      complaints: 0,
      unsubscribed: 0,
      openedHuman: 0,
      openedMachine: 0,
      clickedHuman: 0,
      clickedMachine: 0,
      failed: 0,
      unknown: 0,
      totalContactsCount: 0,
      sendingStartedAt: null,
    });
    expect(await timelineOf(id)).toEqual({ sendingStartedAt: null, buckets: [] });
    expect(await domainsOf(id)).toEqual([]);
  });

  it('count every outcome, people and machines apart, and the unsubscribes of the campaign only', async () => {
    const started = new Date('2024-03-01T10:20:00Z');
    const id = await newCampaign('SENT', started);
    const other = await newCampaign('SENT', started);
    const jobs: JobSpec[] = [];
    const states: JobSpec['status'][] = ['SENT_SUCCESS', 'SENT_SUCCESS', 'SENT_WAIT_ACK', 'FAILED', 'UNKNOWN', 'QUEUED', 'SENDING'];
    for (let k = 0; k < 70; k++) {
      const status = states[k % states.length]!;
      const sent = status === 'SENT_SUCCESS' || status === 'SENT_WAIT_ACK';
      jobs.push({
        email: `reader${k}@${k % 2 === 0 ? 'gmail.com' : 'Outlook.COM'}`,
        status,
        bounce: sent && k % 11 === 0 ? 'HARD' : sent && k % 13 === 0 ? 'SOFT' : undefined,
        complaint: sent && k % 17 === 0,
        opened: sent && k % 3 === 0,
        humanOpened: sent && k % 5 === 0,
        clicked: sent && k % 6 === 0,
        humanClicked: sent && k % 10 === 0,
        sentAt: sent ? started : undefined,
      });
    }
    await insertJobs(id, jobs);
    await insertJobs(other, [{ email: 'someone@gmail.com', status: 'SENT_SUCCESS', humanOpened: true, complaint: true }]);
    await t.db.pool.query(
      `INSERT INTO suppressions (email_lower, reason, campaign_id) VALUES
         ('a@gmail.com', 'UNSUBSCRIBE', $1), ('b@gmail.com', 'UNSUBSCRIBE', $1), ('c@gmail.com', 'UNSUBSCRIBE', $1),
         ('d@gmail.com', 'HARD_BOUNCE', $1), ('e@gmail.com', 'UNSUBSCRIBE', $2), ('f@gmail.com', 'UNSUBSCRIBE', NULL)`,
      [id, other],
    );
    const expected = expectedOverview(jobs);
    // Enough of each for the test to mean something.
    for (const value of Object.values(expected)) expect(value).toBeGreaterThan(0);
    expect(await overviewOf(id)).toEqual({
      ...expected,
      unsubscribed: 3,
      totalContactsCount: 70,
      sendingStartedAt: started.toISOString(),
    });
  });

  it('bucket sends and hits per hour for 72 hours from the hour sending started, then per day, and follow a re-marked hit', async () => {
    const started = new Date('2024-04-01T10:20:00Z');
    const first = Date.parse('2024-04-01T10:00:00Z');
    const id = await newCampaign('SENT', started);
    const [a, b, c] = await insertJobs(id, [
      { email: 'a@gmail.com', status: 'SENT_SUCCESS', sentAt: new Date(first + 25 * 60_000) },
      { email: 'b@gmail.com', status: 'SENT_SUCCESS', sentAt: new Date(first + 25 * 60_000) },
      { email: 'c@gmail.com', status: 'SENT_WAIT_ACK', sentAt: new Date(first + 2 * HOUR + 5 * 60_000) },
    ]);
    const at = (hours: number) => new Date(first + hours * HOUR);
    await insertHits(id, [
      { jobId: a!, click: false, machine: false, at: at(-1) }, // before sending started (a clock apart): the first bucket
      { jobId: a!, click: false, machine: false, at: at(0.99) },
      { jobId: b!, click: false, machine: true, at: at(1) },
      { jobId: b!, click: true, machine: true, at: at(1.5) },
      { jobId: c!, click: true, machine: false, at: at(71.5) },
      { jobId: c!, click: false, machine: false, at: at(72) }, // the first day
      { jobId: a!, click: false, machine: true, at: at(95.99) },
      { jobId: a!, click: false, machine: false, at: at(96) }, // the second day
      { jobId: b!, click: true, machine: true, at: at(200) }, // day 6: 72 + floor(128 / 24) = bucket 77
    ]);
    const zero = { sent: 0, opensHuman: 0, opensMachine: 0, clicksHuman: 0, clicksMachine: 0 };
    const expected = Array.from({ length: 78 }, (_, k) => ({
      start: new Date(k < 72 ? first + k * HOUR : first + (72 + (k - 72) * 24) * HOUR).toISOString(),
      hours: k < 72 ? 1 : 24,
      ...zero,
    }));
    Object.assign(expected[0]!, { sent: 2, opensHuman: 2 });
    Object.assign(expected[1]!, { opensMachine: 1, clicksMachine: 1 });
    Object.assign(expected[2]!, { sent: 1 });
    Object.assign(expected[71]!, { clicksHuman: 1 });
    Object.assign(expected[72]!, { opensHuman: 1, opensMachine: 1 });
    Object.assign(expected[73]!, { opensHuman: 1 });
    Object.assign(expected[77]!, { clicksMachine: 1 });
    expect(await timelineOf(id)).toEqual({ sendingStartedAt: started.toISOString(), buckets: expected });

    // A burst found to be a scanner's later: its hits move from people to machines, and back.
    await t.db.pool.query(`UPDATE tracking_events SET machine = true WHERE campaign_id = $1 AND created_at < $2`, [id, at(1)]);
    Object.assign(expected[0]!, { opensHuman: 0, opensMachine: 2 });
    expect((await timelineOf(id)).buckets).toEqual(expected);
    await t.db.pool.query(`UPDATE tracking_events SET machine = NOT machine WHERE campaign_id = $1 AND created_at >= $2`, [id, at(72)]);
    Object.assign(expected[72]!, { opensHuman: 1, opensMachine: 1 });
    Object.assign(expected[73]!, { opensHuman: 0, opensMachine: 1 });
    Object.assign(expected[77]!, { clicksHuman: 1, clicksMachine: 0 });
    expect((await timelineOf(id)).buckets).toEqual(expected);
  });

  it('name the top five domains by mails sent, the organisation own and the rest as other, and flag the bad ones', async () => {
    expect(t.config.orgEmailDomain).toBe('example.org');
    const id = await newCampaign('SENT', new Date());
    const jobs: JobSpec[] = [];
    const add = (domain: string, n: number, spec: (k: number) => Partial<JobSpec> = () => ({})) => {
      for (let k = 0; k < n; k++) jobs.push({ email: `r${jobs.length}@${domain}`, status: 'SENT_SUCCESS', ...spec(k) });
    };
    add('gmail.com', 60, (k) => ({ bounce: k < 1 ? 'SOFT' : undefined, humanOpened: k % 2 === 0, humanClicked: k % 6 === 0 }));
    add('outlook.com', 40, (k) => ({ status: k < 4 ? 'SENT_WAIT_ACK' : 'SENT_SUCCESS', humanOpened: k % 4 === 0 }));
    // Bounces far above the campaign's: 6 of 30.
    add('bounces.test', 30, (k) => ({ bounce: k < 4 ? 'HARD' : k < 6 ? 'SOFT' : undefined }));
    // Complaints far above: 2 of 25 (8 %).
    add('complains.test', 25, (k) => ({ complaint: k < 2 }));
    // Many bounces but too few mails to judge.
    add('tiny.test', 3, () => ({ bounce: 'HARD' }));
    add('a.test', 2);
    add('b.test', 2);
    add('Example.ORG', 1, () => ({ humanOpened: true }));
    // Never sent: not in the table.
    add('failed.test', 5, () => ({ status: 'FAILED' }));
    await insertJobs(id, jobs);
    // What the domain limits and SES's 429s did (issue 28), as the workers record it; a domain held back with no
    // mail sent yet still counts (in 'other' here: the top five are by mails sent).
    const throttles: Record<string, [number, number, number]> = {
      'gmail.com': [3, 5, 1],
      'a.test': [0, 0, 2],
      'held.test': [0, 4, 0],
    };
    await t.db.pool.query(
      `INSERT INTO campaign_domain_throttles (campaign_id, domain, limit_waits, deferrals, ses_throttles)
       SELECT $1, d, w, f, s FROM unnest($2::text[], $3::int[], $4::int[], $5::int[]) AS x(d, w, f, s)`,
      [id, Object.keys(throttles), ...[0, 1, 2].map((k) => Object.values(throttles).map((v) => v[k]))],
    );
    const met = (members: string[], k: number) => members.reduce((sum, domain) => sum + (throttles[domain]?.[k] ?? 0), 0);

    const count = (keep: (j: JobSpec) => boolean, domains: string[]) =>
      jobs.filter((j) => domains.includes(j.email.split('@')[1]!.toLowerCase()) && keep(j)).length;
    const row = (domain: string | null, members: string[], flagged: boolean): ReportDomain => ({
      domain,
      sent: count((j) => j.status === 'SENT_SUCCESS' || j.status === 'SENT_WAIT_ACK', members),
      delivered: count((j) => j.status === 'SENT_SUCCESS', members),
      bouncedHard: count((j) => j.bounce === 'HARD', members),
      bouncedSoft: count((j) => j.bounce === 'SOFT', members),
      complaints: count((j) => Boolean(j.complaint), members),
      openedHuman: count((j) => Boolean(j.humanOpened || j.humanClicked), members),
      clickedHuman: count((j) => Boolean(j.humanClicked), members),
      flagged,
      limitWaits: met(members, 0),
      deferrals: met(members, 1),
      sesThrottles: met(members, 2),
    });
    expect(await domainsOf(id)).toEqual([
      row('gmail.com', ['gmail.com'], false),
      row('outlook.com', ['outlook.com'], false),
      row('bounces.test', ['bounces.test'], true),
      row('complains.test', ['complains.test'], true),
      row('tiny.test', ['tiny.test'], false),
      row('example.org', ['example.org'], false),
      row(null, ['a.test', 'b.test', 'held.test'], false),
    ]);
    // The overview's complaints are the domains' together.
    expect((await overviewOf(id)).complaints).toBe(2);
  });

  it('put a Summary sheet first in the export: the figures with their rates over sent, and the domain table', async () => {
    const id = await newCampaign('SENT', new Date('2024-05-01T08:00:00Z'));
    const jobs: JobSpec[] = [
      ...Array.from({ length: 8 }, (_, k): JobSpec => ({
        email: `p${k}@gmail.com`,
        status: 'SENT_SUCCESS',
        humanOpened: k < 4,
        humanClicked: k < 1,
      })),
      { email: '=cmd@evil.test', status: 'SENT_WAIT_ACK', bounce: 'HARD', opened: true },
      { email: 'x@gmail.com', status: 'FAILED' },
    ];
    await insertJobs(id, jobs);
    const overview = await overviewOf(id);
    const domains = await domainsOf(id);
    const res = await get(`/api/reports/${id}/export-email-performance`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Email performance']);
    const summary = workbook.getWorksheet('Summary')!;
    const rows: unknown[][] = [];
    summary.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
    const texts = rows.map((row) =>
      row.map((value) =>
        value && typeof value === 'object' && 'richText' in value
          ? (value as { richText: { text: string }[] }).richText.map((r) => r.text).join('')
          : value,
      ),
    );
    expect(texts.slice(0, 4)).toEqual([
      ['Sending started', '2024-05-01T08:00:00.000Z'],
      ['Total contacts', 10],
      [],
      ['Figure', 'Count', '% of sent'],
    ]);
    expect(texts.slice(4, 4 + SUMMARY_FIGURES.length).map((row) => row[0])).toEqual(SUMMARY_FIGURES.map(([label]) => label));
    const figure = (label: string) => texts.find((row) => row[0] === label)!;
    expect(overview.sent).toBe(9);
    expect(figure('Sent')).toEqual(['Sent', 9, 100]);
    expect(figure('Delivered')).toEqual(['Delivered', 8, 88.9]);
    expect(figure('Bounced (hard)')).toEqual(['Bounced (hard)', 1, 11.1]);
    expect(figure('Opened by people')).toEqual(['Opened by people', 4, 44.4]);
    expect(figure('Opened by machines only')).toEqual(['Opened by machines only', 1, 11.1]);
    expect(figure('Failed')).toEqual(['Failed', 1, 11.1]);
    expect(figure('Click-to-open by people (% of opened by people)')).toEqual([
      'Click-to-open by people (% of opened by people)',
      undefined,
      25,
    ]);
    const header = texts.findIndex((row) => row[0] === 'Domain');
    expect(texts[header]).toEqual(SUMMARY_DOMAIN_COLUMNS.map(([name]) => name));
    expect(texts.slice(header + 1)).toEqual([
      ['gmail.com', 8, 8, 0, 0, 0, 50, 12.5, 'No'],
      ['evil.test', 1, 0, 1, 0, 0, 0, 0, 'No'],
    ]);
    expect(domains.map((d) => d.domain)).toEqual(['gmail.com', 'evil.test']);
  });

  it('agree with a direct count over the jobs and the hits after a mixed load of sends, SES events, hits and re-marks at once', async () => {
    const id = await newCampaign('SENDING', new Date());
    const domains = ['gmail.com', 'Outlook.com', 'example.org', 'yahoo.com', 'a.test', 'b.test', 'c.test'];
    const ids = await insertJobs(
      id,
      Array.from({ length: 90 }, (_, k): JobSpec => ({ email: `load${k}@${domains[k % domains.length]}`, status: 'QUEUED' })),
    );
    const sending = claimRepository(t.deps.db);
    const events = sesEventRepository(t.deps.db);
    const tracking = trackingRepository(t.deps.db);
    const pool = t.db.pool;
    // Sends: claims of ten recorded as sent, failed or unknown, several at once.
    await Promise.all(
      Array.from({ length: 9 }, async (_, batch) => {
        const token = crypto.randomUUID();
        const claimed = await sending.claim(id, ids.slice(batch * 10, batch * 10 + 10), token);
        await sending.record(
          id,
          token,
          claimed.map((job, k) =>
            k === 7
              ? { id: job.id, status: 'FAILED', error: 'refused' }
              : k === 8
                ? { id: job.id, status: 'UNKNOWN', error: 'lost' }
                : { id: job.id, status: 'SENT_WAIT_ACK', messageId: `load-${job.id}` },
          ),
        );
      }),
    );
    const { rows: links } = await pool.query<{ id: number }>(
      `INSERT INTO campaign_links (campaign_id, href, position) VALUES ($1, 'https://example.org/a', 1), ($1, 'https://example.org/b', 2) RETURNING id`,
      [id],
    );
    const at = new Date();
    // Everything that moves a job or records a hit, at once.
    await Promise.all(
      ids.flatMap((jobId, n) => {
        const work: Promise<unknown>[] = [];
        const message = `load-${jobId}`;
        if (n % 2 === 0) work.push(t.deps.db.transaction((tx) => events.delivered(tx, message)));
        if (n % 9 === 1) work.push(t.deps.db.transaction((tx) => events.bounced(tx, message, { type: 'HARD', message: 'gone', time: at })));
        if (n % 9 === 2) work.push(t.deps.db.transaction((tx) => events.bounced(tx, message, { type: 'SOFT', message: 'full', time: at })));
        if (n % 8 === 0) work.push(t.deps.db.transaction((tx) => events.complained(tx, message, { type: 'abuse', time: at })));
        if (n % 10 === 3) work.push(tracking.unsubscribe(jobId));
        for (let k = 0; k < n % 4; k++)
          work.push(
            tracking.recordHits([
              { jobId, linkId: null, userAgent: 'test', at: new Date(Date.now() - (n % 30) * HOUR), clientIp: null, machineReason: null },
            ]),
          );
        if (n % 3 === 0)
          work.push(
            tracking.recordHits([
              {
                jobId,
                linkId: links[n % 2]!.id,
                userAgent: 'test',
                at: new Date(Date.now() - (n % 5) * HOUR),
                clientIp: null,
                machineReason: null,
              },
            ]),
          );
        // The classification's verdicts: a person's open and click, a machine's hits.
        if (n % 4 === 1) work.push(pool.query('UPDATE campaign_jobs SET human_opened_at = now() WHERE id = $1', [jobId]));
        if (n % 12 === 3)
          work.push(pool.query('UPDATE campaign_jobs SET human_opened_at = now(), human_clicked_at = now() WHERE id = $1', [jobId]));
        if (n % 5 === 0) work.push(pool.query(`UPDATE tracking_events SET machine = true WHERE job_id = $1`, [jobId]));
        return work;
      }),
    );
    // Re-marked after the fact: a burst turned out a scanner's, a verdict taken back.
    await pool.query(`UPDATE tracking_events SET machine = true WHERE campaign_id = $1 AND job_id % 7 = 0`, [id]);
    await pool.query(`UPDATE tracking_events SET machine = false WHERE campaign_id = $1 AND job_id % 11 = 0`, [id]);
    await pool.query(`UPDATE campaign_jobs SET human_opened_at = NULL, human_clicked_at = NULL WHERE campaign_id = $1 AND id % 13 = 0`, [
      id,
    ]);

    const nonZero = (table: string, columns: string) =>
      pool.query(
        `SELECT * FROM ${table} WHERE campaign_id = $1 AND (${columns}) <> (${columns
          .split(',')
          .map(() => 0)
          .join(',')}) ORDER BY 2`,
        [id],
      );
    const hourly = await nonZero('campaign_hourly_counts', 'sent, opens_human, opens_machine, clicks_human, clicks_machine');
    const { rows: hourlyCounted } = await pool.query(
      `SELECT campaign_id, hour, sum(sent)::int AS sent, sum(oh)::int AS opens_human, sum(om)::int AS opens_machine,
              sum(ch)::int AS clicks_human, sum(cm)::int AS clicks_machine
         FROM (SELECT campaign_id, date_trunc('hour', sent_at, 'UTC') AS hour, 1 AS sent, 0 AS oh, 0 AS om, 0 AS ch, 0 AS cm
                 FROM campaign_jobs WHERE campaign_id = $1 AND sent_at IS NOT NULL
               UNION ALL
               SELECT campaign_id, date_trunc('hour', created_at, 'UTC'), 0, (kind = 'OPEN' AND NOT machine)::int,
                      (kind = 'OPEN' AND machine)::int, (kind = 'CLICK' AND NOT machine)::int, (kind = 'CLICK' AND machine)::int
                 FROM tracking_events WHERE campaign_id = $1) m
        GROUP BY 1, 2 ORDER BY 2`,
      [id],
    );
    expect(hourly.rows).toEqual(hourlyCounted);
    expect(hourlyCounted.length).toBeGreaterThan(5);

    const byDomain = await nonZero(
      'campaign_domain_counts',
      'sent, delivered, bounced_hard, bounced_soft, complaints, opened_human, clicked_human',
    );
    const { rows: domainsCounted } = await pool.query(
      `SELECT campaign_id, lower(split_part(email, '@', 2)) AS domain,
              count(*) FILTER (WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS'))::int AS sent,
              count(*) FILTER (WHERE status = 'SENT_SUCCESS')::int AS delivered,
              count(*) FILTER (WHERE bounce_type = 'HARD')::int AS bounced_hard, count(*) FILTER (WHERE bounce_type = 'SOFT')::int AS bounced_soft,
              count(*) FILTER (WHERE complaint_type IS NOT NULL)::int AS complaints,
              count(*) FILTER (WHERE human_opened_at IS NOT NULL)::int AS opened_human,
              count(*) FILTER (WHERE human_clicked_at IS NOT NULL)::int AS clicked_human
         FROM campaign_jobs WHERE campaign_id = $1 GROUP BY 1, 2 ORDER BY 2`,
      [id],
    );
    expect(byDomain.rows).toEqual(domainsCounted);

    // And the calls read them: the same figures as counting the rows.
    const { rows: direct } = await pool.query(
      `SELECT count(*) FILTER (WHERE status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS'))::int AS sent,
              count(*) FILTER (WHERE status = 'SENT_SUCCESS')::int AS delivered,
              count(*) FILTER (WHERE bounce_type = 'HARD')::int AS "bouncedHard", count(*) FILTER (WHERE bounce_type = 'SOFT')::int AS "bouncedSoft",
              count(*) FILTER (WHERE complaint_type IS NOT NULL)::int AS complaints,
              (SELECT count(*)::int FROM suppressions WHERE campaign_id = $1 AND reason = 'UNSUBSCRIBE') AS unsubscribed,
              count(*) FILTER (WHERE human_opened_at IS NOT NULL)::int AS "openedHuman",
              count(*) FILTER (WHERE opened_at IS NOT NULL AND human_opened_at IS NULL)::int AS "openedMachine",
              count(*) FILTER (WHERE human_clicked_at IS NOT NULL)::int AS "clickedHuman",
              count(*) FILTER (WHERE clicked_at IS NOT NULL AND human_clicked_at IS NULL)::int AS "clickedMachine",
              count(*) FILTER (WHERE status = 'FAILED')::int AS failed, count(*) FILTER (WHERE status = 'UNKNOWN')::int AS unknown
         FROM campaign_jobs WHERE campaign_id = $1`,
      [id],
    );
    const overview = await overviewOf(id);
    expect(overview).toMatchObject(direct[0]!);
    for (const key of [
      'delivered',
      'bouncedHard',
      'bouncedSoft',
      'complaints',
      'unsubscribed',
      'openedHuman',
      'openedMachine',
      'clickedHuman',
      'failed',
      'unknown',
    ])
      expect(overview[key as keyof ReportOverview], key).toBeGreaterThan(0);
    const timeline = await timelineOf(id);
    const { rows: hits } = await pool.query(
      `SELECT count(*) FILTER (WHERE kind = 'OPEN' AND NOT machine)::int AS "opensHuman", count(*) FILTER (WHERE kind = 'OPEN' AND machine)::int AS "opensMachine",
              count(*) FILTER (WHERE kind = 'CLICK' AND NOT machine)::int AS "clicksHuman", count(*) FILTER (WHERE kind = 'CLICK' AND machine)::int AS "clicksMachine"
         FROM tracking_events WHERE campaign_id = $1`,
      [id],
    );
    const sum = (key: 'sent' | 'opensHuman' | 'opensMachine' | 'clicksHuman' | 'clicksMachine') =>
      timeline.buckets.reduce((n, b) => n + b[key], 0);
    expect({
      sent: sum('sent'),
      opensHuman: sum('opensHuman'),
      opensMachine: sum('opensMachine'),
      clicksHuman: sum('clicksHuman'),
      clicksMachine: sum('clicksMachine'),
    }).toEqual({
      sent: overview.sent,
      ...hits[0],
    });
    const table = await domainsOf(id);
    // Five domains by mails sent, the organisation's (example.org) if not among them, then the rest together.
    const named = table.filter((d) => d.domain !== null).map((d) => d.domain!);
    const rest = domainsCounted.filter((d) => !named.includes(d.domain as string));
    expect(named).toContain('example.org');
    expect(named.length).toBe(named.indexOf('example.org') < 5 ? 5 : 6);
    const leastNamed = Math.min(...table.filter((d) => d.domain !== null && d.domain !== 'example.org').map((d) => d.sent));
    for (const other of rest) expect(other.sent).toBeLessThanOrEqual(leastNamed);
    expect(table.at(-1)!.domain).toBeNull();
    expect(table.at(-1)!.sent).toBe(rest.reduce((n, d) => n + (d.sent as number), 0));
    for (const d of table.filter((d) => d.domain !== null)) {
      const counted = domainsCounted.find((c) => c.domain === d.domain)!;
      expect({ domain: d.domain, sent: d.sent, bouncedHard: d.bouncedHard, openedHuman: d.openedHuman }).toEqual({
        domain: counted.domain,
        sent: counted.sent,
        bouncedHard: counted.bounced_hard,
        openedHuman: counted.opened_human,
      });
    }
    expect(table.reduce((n, d) => n + d.sent, 0)).toBe(overview.sent);
    expect(table.reduce((n, d) => n + d.complaints, 0)).toBe(overview.complaints);
  }, 60_000);
});
