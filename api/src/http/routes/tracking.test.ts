/**
 * The public routes of sent mail (open pixel, click redirect, unsubscribe page and RFC 8058
 * one-click) through the whole API with responses validated, on a campaign sent as far as its jobs
 * (no worker: the jobs are marked sent here; the pipeline has its own tests).
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { createTrackingTokens, type TrackingTokens } from '../../mail/tracking-tokens.js';
import { createTrackingService } from '../../services/tracking/tracking-service.js';
import { OPENAPI_SPEC_PATH } from '../app.js';
import { TRACKING_TOKEN } from './tracking.js';

let t: TestApp;
let tokens: TrackingTokens;
let audienceId: number;
let campaignId: number;
let otherCampaignId: number;
let jobs: { id: number; email: string }[];
let links: { id: number; href: string }[];

const api = () => request(t.app);
const one = async <T>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows[0] as T;

async function sentCampaign(auth: string, templateId: number): Promise<number> {
  const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Tracked', templateId });
  const id = created.body.id as number;
  await api()
    .put(`/api/campaigns/${id}`)
    .set('Authorization', auth)
    .send({ name: 'Tracked', audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Hi' });
  expect((await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth)).status).toBe(202);
  await t.db.pool.query(`UPDATE campaign_jobs SET status = 'SENT_WAIT_ACK' WHERE campaign_id = $1`, [id]);
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  tokens = createTrackingTokens(t.config.trackingSecret);
  const auth = await bearer();
  ({ id: audienceId } = await seedAudience(t.db.pool, {
    headers: [],
    contacts: [{ email: 'Ann@Example.org' }, { email: 'bob@example.org' }],
  }));
  const templateId = await seedTemplate(t.db.pool, {
    html: '<p><a href="https://example.org/a?x=1&amp;y=2">A</a> <a href="https://example.org/b">B</a></p>',
  });
  campaignId = await sentCampaign(auth, templateId);
  otherCampaignId = await sentCampaign(auth, templateId);
  jobs = (await t.db.pool.query('SELECT id, email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id', [campaignId])).rows;
  links = (
    await t.db.pool.query('SELECT id, href FROM campaign_links WHERE campaign_id = $1 AND NOT hidden ORDER BY position', [campaignId])
  ).rows;
});
afterAll(() => t?.close());

/** Hits are recorded in batches: record the ones taken so far. */
const recorded = () => t.deps.services.tracking.flush();

const counters = (id = campaignId) =>
  one<{ unique_opens: number; unique_clicks: number }>('SELECT unique_opens, unique_clicks FROM campaigns WHERE id = $1', [id]);
const events = (jobId: number, kind: string) =>
  one<{ n: number }>('SELECT count(*)::int AS n FROM tracking_events WHERE job_id = $1 AND kind = $2', [jobId, kind]).then((r) => r.n);

describe('open pixel', () => {
  it('answers the image, not cacheable, and records the first and every later open', async () => {
    const [ann] = jobs;
    for (let i = 0; i < 2; i++) {
      const res = await api()
        .get(`/t/o/${tokens.open(ann!.id)}`)
        .set('User-Agent', 'Mail/1.0');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/gif');
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    }
    await recorded();
    expect(await events(ann!.id, 'OPEN')).toBe(2);
    expect((await counters()).unique_opens).toBe(1);
    expect(await one('SELECT opened_at IS NOT NULL AS opened FROM campaign_jobs WHERE id = $1', [ann!.id])).toEqual({ opened: true });
    expect(await one('SELECT user_agent FROM tracking_events WHERE job_id = $1 LIMIT 1', [ann!.id])).toEqual({ user_agent: 'Mail/1.0' });
  });

  it('answers the image for a forged token and records nothing', async () => {
    const bob = jobs[1]!;
    const forged = tokens.open(bob.id).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const token of [forged, tokens.click(bob.id, links[0]!.id), tokens.open(999_999)]) {
      const res = await api().get(`/t/o/${token}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/gif');
    }
    await recorded();
    expect(await events(bob.id, 'OPEN')).toBe(0);
  });

  it('refuses a token that is not token-shaped, as the contract says', async () => {
    // These routes check their parameter themselves (ahead of the validator): the same rule as the contract's.
    const contract = parse(readFileSync(OPENAPI_SPEC_PATH, 'utf8')).components.parameters.TrackingToken.schema;
    expect({ maxLength: contract.maxLength, pattern: contract.pattern, minLength: contract.minLength }).toEqual({
      ...TRACKING_TOKEN,
      minLength: 1,
    });
    for (const path of [`/t/o/${'a'.repeat(513)}`, '/t/o/a%00b', '/t/c/a%20b', `/t/c/${'%C3%A9'}`]) {
      const res = await api().get(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ message: expect.stringContaining('request/params/token') });
    }
    expect((await api().get(`/t/o/${'a'.repeat(512)}`)).status).toBe(200);
  });
});

describe('click redirect', () => {
  it('records the click and redirects to the stored link only', async () => {
    const bob = jobs[1]!;
    const before = await counters();
    for (let i = 0; i < 2; i++) {
      const res = await api().get(`/t/c/${tokens.click(bob.id, links[0]!.id)}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('https://example.org/a?x=1&y=2');
    }
    expect((await api().get(`/t/c/${tokens.click(bob.id, links[1]!.id)}`)).headers.location).toBe('https://example.org/b');
    await recorded();
    expect(await events(bob.id, 'CLICK')).toBe(3);
    // A click is an open too (images were blocked): Bob had not opened.
    expect(await counters()).toEqual({ unique_clicks: before.unique_clicks + 1, unique_opens: before.unique_opens + 1 });
    const counts = await t.db.pool.query(
      'SELECT clicks, unique_clicks FROM campaign_links WHERE campaign_id = $1 AND NOT hidden ORDER BY position',
      [campaignId],
    );
    expect(counts.rows).toEqual([
      { clicks: 2, unique_clicks: 1 },
      { clicks: 1, unique_clicks: 1 },
    ]);
  });

  it('answers 404, never a redirect, for a forged or altered token or a link that is gone', async () => {
    const ann = jobs[0]!;
    const good = tokens.click(ann.id, links[0]!.id);
    const [job, link, mac] = good.split('.');
    const altered = [
      `${job}.${links[1]!.id.toString(36)}.${mac}`,
      `${(ann.id + 1).toString(36)}.${link}.${mac}`,
      `${job}.${link}.${mac!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      tokens.open(ann.id),
      tokens.click(ann.id, 999_999),
      createTrackingTokens('another-secret-of-enough-length').click(ann.id, links[0]!.id),
    ];
    for (const token of altered) {
      const res = await api().get(`/t/c/${token}`);
      expect(res.status, token).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
    await recorded();
    expect(await events(ann.id, 'CLICK')).toBe(0);
  });

  it('counts firsts once when hits of one job arrive together, or through several API processes at once', async () => {
    const ann = jobs[0]!;
    const otherJob = (await one<{ id: number }>('SELECT min(id) AS id FROM campaign_jobs WHERE campaign_id = $1', [otherCampaignId])).id;
    const before = await counters(otherCampaignId);
    // A second API process: its own service, its own buffer.
    const second = createTrackingService({ db: t.deps.db, trackingSecret: t.config.trackingSecret, logger: t.deps.logger });
    const link = (
      await one<{ id: number }>('SELECT min(id) AS id FROM campaign_links WHERE campaign_id = $1 AND NOT hidden', [otherCampaignId])
    ).id;
    for (const service of [t.deps.services.tracking, second]) {
      for (let i = 0; i < 5; i++) {
        service.open(tokens.open(otherJob), { userAgent: 'x', ip: undefined });
        expect(await service.click(tokens.click(otherJob, link), { userAgent: 'x', ip: undefined })).toBe('https://example.org/a?x=1&y=2');
      }
    }
    // A job with another campaign's link (a token the product never signs, but a signed one): not recorded.
    await t.deps.services.tracking.click(tokens.click(ann.id, link), { userAgent: 'x', ip: undefined });
    await Promise.all([recorded(), second.close()]);
    expect(await counters(otherCampaignId)).toEqual({ unique_opens: before.unique_opens + 1, unique_clicks: before.unique_clicks + 1 });
    expect(await one('SELECT clicks, unique_clicks FROM campaign_links WHERE id = $1', [link])).toEqual({ clicks: 10, unique_clicks: 1 });
    expect(await events(otherJob, 'OPEN')).toBe(10);
    expect(await events(ann.id, 'CLICK')).toBe(0);
  });
});

describe('people and machines (an addition to the spec)', () => {
  const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
  let classified: { id: number }[];
  let hiddenLink: number;
  const hits = (jobId: number) =>
    t.db.pool
      .query(
        `SELECT kind, host(client_ip) AS ip, machine, machine_reason AS reason, since_sent_ms > 3500000 AS "sentAnHourAgo"
           FROM tracking_events WHERE job_id = $1 ORDER BY id`,
        [jobId],
      )
      .then((r) => r.rows);
  const human = (jobId: number) =>
    one('SELECT human_opened_at IS NOT NULL AS opened, human_clicked_at IS NOT NULL AS clicked FROM campaign_jobs WHERE id = $1', [jobId]);

  beforeAll(async () => {
    const templateId = await seedTemplate(t.db.pool, { html: '<body><p><a href="https://example.org/only">Only</a></p></body>' });
    const id = await sentCampaign(await bearer(), templateId);
    await t.db.pool.query(`UPDATE campaign_jobs SET sent_at = now() - interval '1 hour' WHERE campaign_id = $1`, [id]);
    classified = (await t.db.pool.query('SELECT id FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id', [id])).rows;
    hiddenLink = (await one<{ id: number }>('SELECT id FROM campaign_links WHERE campaign_id = $1 AND hidden', [id])).id;
  });

  it("keeps each hit's address (X-Forwarded-For from a trusted proxy), agent and time since sending; Apple's proxy first, then a person", async () => {
    const job = classified[0]!.id;
    // The test's requests come from loopback, which TRUST_PROXY trusts by default.
    await api()
      .get(`/t/o/${tokens.open(job)}`)
      .set('User-Agent', SAFARI)
      .set('X-Forwarded-For', '17.58.1.2');
    await recorded();
    expect(await human(job)).toEqual({ opened: false, clicked: false });
    await api()
      .get(`/t/o/${tokens.open(job)}`)
      .set('User-Agent', SAFARI)
      .set('X-Forwarded-For', '198.51.100.4');
    await recorded();
    expect(await hits(job)).toEqual([
      { kind: 'OPEN', ip: '17.58.1.2', machine: true, reason: 'apple-privacy-proxy', sentAnHourAgo: true },
      { kind: 'OPEN', ip: '198.51.100.4', machine: false, reason: null, sentAnHourAgo: true },
    ]);
    // A later human open of a mail first opened by a machine counts as a human open.
    expect(await human(job)).toEqual({ opened: true, clicked: false });
  });

  it('takes the socket address, not X-Forwarded-For, when TRUST_PROXY trusts no proxy', async () => {
    const untrusting = await createTestApp({ env: { TRUST_PROXY: 'false' } });
    try {
      const { rows } = await untrusting.db.pool.query(
        `WITH c AS (INSERT INTO campaigns (name, status) VALUES ('Direct', 'SENT') RETURNING id)
         INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, sent_at) SELECT id, 1, 'x@example.org', 'SENT_SUCCESS', now() FROM c
         RETURNING id`,
      );
      const job = rows[0].id as number;
      const own = createTrackingTokens(untrusting.config.trackingSecret);
      await request(untrusting.app)
        .get(`/t/o/${own.open(job)}`)
        .set('User-Agent', SAFARI)
        .set('X-Forwarded-For', '17.58.1.2');
      await untrusting.deps.services.tracking.flush();
      const event = await untrusting.db.pool.query('SELECT host(client_ip) AS ip, machine FROM tracking_events WHERE job_id = $1', [job]);
      expect(event.rows).toEqual([{ ip: '127.0.0.1', machine: false }]);
    } finally {
      await untrusting.close();
    }
  });

  it("a hit on the hidden link makes the mail's hits around it machines', its own included, and is no click of the spec", async () => {
    const job = classified[1]!.id;
    const before = await counters(
      await one<{ id: number }>('SELECT campaign_id AS id FROM campaign_jobs WHERE id = $1', [job]).then((r) => r.id),
    );
    await api()
      .get(`/t/o/${tokens.open(job)}`)
      .set('User-Agent', SAFARI)
      .set('X-Forwarded-For', '40.94.0.1');
    await recorded();
    expect(await human(job)).toEqual({ opened: true, clicked: false });
    const res = await api()
      .get(`/t/c/${tokens.click(job, hiddenLink)}`)
      .set('User-Agent', SAFARI)
      .set('X-Forwarded-For', '40.94.0.2');
    expect(res.status).toBe(302);
    await recorded();
    expect(await hits(job)).toEqual([
      { kind: 'OPEN', ip: '40.94.0.1', machine: true, reason: 'hidden-link', sentAnHourAgo: true },
      { kind: 'CLICK', ip: '40.94.0.2', machine: true, reason: 'hidden-link', sentAnHourAgo: true },
    ]);
    expect(await human(job)).toEqual({ opened: false, clicked: false });
    // The spec's figures: the open counts (as every open does), the hidden click does not.
    const campaign = await one<{ id: number }>('SELECT campaign_id AS id FROM campaign_jobs WHERE id = $1', [job]);
    expect(await counters(campaign.id)).toEqual({ unique_opens: before.unique_opens + 1, unique_clicks: before.unique_clicks });
    expect(await one('SELECT clicks FROM campaign_links WHERE id = $1', [hiddenLink])).toEqual({ clicks: 0 });
    expect(await one('SELECT clicked_at FROM campaign_jobs WHERE id = $1', [job])).toEqual({ clicked_at: null });
  });
});

describe('unsubscribe', () => {
  const suppressed = () => t.db.pool.query('SELECT email_lower, reason, campaign_id FROM suppressions').then((r) => r.rows);

  it('GET shows a confirmation page with a one-click form and unsubscribes nobody', async () => {
    const res = await api().get(`/unsubscribe/${tokens.unsubscribe(jobs[0]!.id)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(await suppressed()).toEqual([]);
  });

  it('POST List-Unsubscribe=One-Click suppresses the address for the organisation, and repeating it is harmless', async () => {
    const url = `/unsubscribe/${tokens.unsubscribe(jobs[0]!.id)}`;
    for (let i = 0; i < 2; i++) {
      const res = await api().post(url).type('form').send('List-Unsubscribe=One-Click');
      expect(res.status).toBe(200);
      expect(res.text).toContain('You are unsubscribed');
    }
    const multipart = await api()
      .post(`/unsubscribe/${tokens.unsubscribe(jobs[1]!.id)}`)
      .field('List-Unsubscribe', 'One-Click');
    expect(multipart.status).toBe(200);
    expect(await suppressed()).toEqual([
      { email_lower: 'ann@example.org', reason: 'UNSUBSCRIBE', campaign_id: campaignId },
      { email_lower: 'bob@example.org', reason: 'UNSUBSCRIBE', campaign_id: campaignId },
    ]);
  });

  it('records the first unsubscribe of an address in the consent ledger, for every audience, and a repeat or a bad link not at all', async () => {
    const ledger = () =>
      t.db.pool
        .query(`SELECT event, audience_id, email, client_address, user_agent FROM consent_ledger WHERE event = 'UNSUBSCRIBED' ORDER BY id`)
        .then((r) => r.rows);
    // The test before posted Ann's link twice and Bob's once: one entry each, with the client's address (the route
    // passes the request's; supertest sends no agent).
    expect(await ledger()).toEqual([
      { event: 'UNSUBSCRIBED', audience_id: null, email: 'Ann@Example.org', client_address: '127.0.0.1', user_agent: null },
      { event: 'UNSUBSCRIBED', audience_id: null, email: 'bob@example.org', client_address: '127.0.0.1', user_agent: null },
    ]);
    const cid = await one<{ id: number }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status) VALUES ($1, 999999, 'Cid@Example.org', 'SENT_WAIT_ACK') RETURNING id`,
      [campaignId],
    );
    await api()
      .post(`/unsubscribe/${tokens.open(cid.id)}`)
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(404);
    expect(await ledger()).toHaveLength(2);
    // The service records the client's address and agent when it is given them.
    const request = { userAgent: 'Agent/1', ip: '::ffff:192.0.2.7' };
    expect(await t.deps.services.tracking.unsubscribe(tokens.unsubscribe(cid.id), request)).toBe(true);
    expect(await t.deps.services.tracking.unsubscribe(tokens.unsubscribe(cid.id), request)).toBe(true);
    expect((await ledger()).slice(2)).toEqual([
      { event: 'UNSUBSCRIBED', audience_id: null, email: 'Cid@Example.org', client_address: '192.0.2.7', user_agent: 'Agent/1' },
    ]);
  });

  it('answers 404 pages for links that are not valid, and 400 for other bodies', async () => {
    const forged = tokens.open(jobs[0]!.id);
    expect((await api().get(`/unsubscribe/${forged}`)).status).toBe(404);
    const res = await api().post(`/unsubscribe/${forged}`).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(
      (
        await api()
          .post(`/unsubscribe/${tokens.unsubscribe(999_999)}`)
          .type('form')
          .send('List-Unsubscribe=One-Click')
      ).status,
    ).toBe(404);
    const url = `/unsubscribe/${tokens.unsubscribe(jobs[0]!.id)}`;
    expect((await api().post(url).type('form').send('List-Unsubscribe=Yes')).status).toBe(400);
    expect((await api().post(url).type('form').send('')).status).toBe(400);
  });
});
