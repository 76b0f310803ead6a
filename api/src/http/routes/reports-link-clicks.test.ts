/**
 * People's clicks per link (an addition to the spec) through the whole API (auth, OpenAPI validation
 * with responses checked) against PostgreSQL: the counts migration 0020's triggers keep, after the real
 * tracking statement records people's and machines' clicks (a bot, a click too soon, a scanner's burst
 * found after the fact, the hidden link), checked against exact figures and a direct count of the hits;
 * then the same after many recordings and re-marks at once.
 */
import { readFile } from 'node:fs/promises';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignLink } from '@mailroom/api-client';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';
import { BURST_MS, TOO_SOON_MS } from '../../services/tracking/classify.js';
import { trackingRepository, type TrackingHit } from '../../services/tracking/repository.js';

let t: TestApp;
let auth: string;

const get = (path: string) => request(t.app).get(path).set('Authorization', auth);

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
});
afterAll(() => t?.close());

/** A SENT campaign of `jobs` mails sent an hour ago, with three links and the hidden one. */
async function sentCampaign(jobs: number) {
  const pool = t.db.pool;
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO campaigns (name, status, html, delivery_date) VALUES ('Links', 'SENT', '<p>Hi</p>', now() - interval '1 hour') RETURNING id`,
  );
  const id = rows[0]!.id;
  const { rows: jobRows } = await pool.query<{ id: number }>(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, sent_at)
     SELECT $1, n, 'reader' || n || '@example.org', 'SENT_SUCCESS', now() - interval '1 hour' FROM generate_series(1, $2::int) n
      ORDER BY n RETURNING id`,
    [id, jobs],
  );
  const { rows: links } = await pool.query<{ id: number; hidden: boolean }>(
    `INSERT INTO campaign_links (campaign_id, href, position, hidden)
     VALUES ($1, 'https://example.org/news', 1, false), ($1, 'https://example.org/shop', 2, false),
            ($1, 'https://example.org/events', 3, false), ($1, 'https://example.org/hidden', 4, true)
     RETURNING id, hidden`,
    [id],
  );
  return { id, jobs: jobRows.map((row) => row.id), links: links.filter((l) => !l.hidden).map((l) => l.id), hidden: links[3]!.id };
}

const linksOf = async (id: number) => {
  const res = await get(`/api/reports/${id}/clicks`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CampaignLink[];
};

/** Each link's figures counted here from the hits themselves, as the screen should show them. */
async function countedFromHits(id: number) {
  const { rows } = await t.db.pool.query<Pick<CampaignLink, 'id' | 'clicks' | 'uniqueClicks' | 'humanClicks' | 'humanUniqueClicks'>>(
    `SELECT l.id, count(e.id)::int AS clicks, count(DISTINCT e.job_id)::int AS "uniqueClicks",
            count(e.id) FILTER (WHERE NOT e.machine)::int AS "humanClicks",
            count(DISTINCT e.job_id) FILTER (WHERE NOT e.machine)::int AS "humanUniqueClicks"
       FROM campaign_links l LEFT JOIN tracking_events e ON e.link_id = l.id AND e.kind = 'CLICK'
      WHERE l.campaign_id = $1 AND NOT l.hidden GROUP BY l.id, l.position ORDER BY l.position`,
    [id],
  );
  return rows;
}

const figures = (links: CampaignLink[]) =>
  links.map(({ id, clicks, uniqueClicks, humanClicks, humanUniqueClicks }) => ({
    id,
    clicks,
    uniqueClicks,
    humanClicks,
    humanUniqueClicks,
  }));

describe("people's clicks per link (an addition to the spec)", () => {
  it("count each link's people's clicks and people apart from machines', also when a burst is found after the fact", async () => {
    const { id, jobs, links, hidden } = await sentCampaign(7);
    const [news, shop, events] = links as [number, number, number];
    const [ann, bob, cat, dan, eve, fay, gus] = jobs as [number, number, number, number, number, number, number];
    const tracking = trackingRepository(t.deps.db);
    const base = Date.now() - 30 * 60_000;
    const hit = (jobId: number, linkId: number, atMs: number, machineReason: TrackingHit['machineReason'] = null): TrackingHit => ({
      jobId,
      linkId,
      userAgent: machineReason === 'bot-user-agent' ? 'Mozilla/5.0 (compatible; bingbot/2.0)' : 'Thunderbird/128.5',
      at: new Date(base + atMs),
      clientIp: null,
      machineReason,
    });
    // Ann, a person: news twice, shop once.
    await tracking.recordHits([hit(ann, news, 0), hit(ann, news, 60_000), hit(ann, shop, 120_000)]);
    // Bob: a bot followed news, then Bob himself did.
    await tracking.recordHits([hit(bob, news, 0, 'bot-user-agent')]);
    await tracking.recordHits([hit(bob, news, 300_000)]);
    // Cat: only a bot, on news and shop.
    await tracking.recordHits([hit(cat, news, 0, 'bot-user-agent'), hit(cat, shop, 1_000, 'bot-user-agent')]);
    // Dan: a click sooner after the send than a person could make.
    await t.db.pool.query(`UPDATE campaign_jobs SET sent_at = $2 WHERE id = $1`, [dan, new Date(base)]);
    await tracking.recordHits([hit(dan, events, TOO_SOON_MS / 2)]);
    // Eve: a scanner follows every link within the burst time, recorded in three flushes: the first two
    // count as people's until the third shows the burst.
    await tracking.recordHits([hit(eve, news, 0)]);
    await tracking.recordHits([hit(eve, shop, BURST_MS / 5)]);
    expect(figures(await linksOf(id)).find((link) => link.id === shop)?.humanClicks).toBe(2);
    await tracking.recordHits([hit(eve, events, (2 * BURST_MS) / 5)]);
    // Fay: the hidden link, which no person sees, beside a click on shop: both a machine's.
    await tracking.recordHits([hit(fay, shop, 0), hit(fay, hidden, 500)]);
    // Gus, a person, long after: events.
    await tracking.recordHits([hit(gus, events, 600_000)]);

    const shown = figures(await linksOf(id));
    expect(shown).toEqual([
      // news: Ann 2, Bob's bot 1 and Bob 1, Cat's bot 1, Eve's scanner 1.
      { id: news, clicks: 6, uniqueClicks: 4, humanClicks: 3, humanUniqueClicks: 2 },
      // shop: Ann 1, Cat's bot 1, Eve's scanner 1, Fay's 1 beside the hidden link.
      { id: shop, clicks: 4, uniqueClicks: 4, humanClicks: 1, humanUniqueClicks: 1 },
      // events: Dan's too soon 1, Eve's scanner 1, Gus 1.
      { id: events, clicks: 3, uniqueClicks: 3, humanClicks: 1, humanUniqueClicks: 1 },
    ]);
    expect(shown).toEqual(await countedFromHits(id));
    // The hidden link is never one of the report's links.
    expect((await linksOf(id)).map((link) => link.href)).toEqual([
      'https://example.org/news',
      'https://example.org/shop',
      'https://example.org/events',
    ]);
  });

  it('agree with a direct count of the hits after many recordings and re-marks at once, both ways', async () => {
    const { id, jobs, links } = await sentCampaign(60);
    const tracking = trackingRepository(t.deps.db);
    const pool = t.db.pool;
    const at = (n: number) => new Date(Date.now() - 40 * 60_000 + n * 7_000);
    await Promise.all(
      jobs.flatMap((jobId, n) => {
        const work: Promise<unknown>[] = [];
        for (let k = 0; k < (n % 4) + 1; k++) {
          work.push(
            tracking.recordHits([
              {
                jobId,
                linkId: links[(n + k) % 3]!,
                userAgent: 'Thunderbird/128.5',
                at: at(n * 10 + k),
                clientIp: null,
                machineReason: n % 5 === 0 ? 'bot-user-agent' : null,
              },
            ]),
          );
        }
        // A verdict re-marked while hits still arrive, and one taken back.
        if (n % 6 === 1) work.push(pool.query('UPDATE tracking_events SET machine = true WHERE job_id = $1', [jobId]));
        if (n % 10 === 0) work.push(pool.query('UPDATE tracking_events SET machine = false WHERE job_id = $1', [jobId]));
        return work;
      }),
    );
    await pool.query('UPDATE tracking_events SET machine = true WHERE campaign_id = $1 AND job_id % 7 = 0', [id]);
    await pool.query(`UPDATE tracking_events SET machine = NOT machine WHERE campaign_id = $1 AND job_id % 9 = 0`, [id]);

    const shown = figures(await linksOf(id));
    const counted = await countedFromHits(id);
    expect(shown).toEqual(counted);
    expect(counted.every((link) => link.humanClicks > 0 && link.humanClicks < link.clicks)).toBe(true);
    expect(counted.every((link) => link.humanUniqueClicks > 0 && link.humanUniqueClicks < link.uniqueClicks)).toBe(true);
  });

  it("answer zeros for links nobody clicked, and count the people's clicks recorded before migration 0020", async () => {
    const { id, jobs, links } = await sentCampaign(2);
    expect(figures(await linksOf(id)).map(({ humanClicks, humanUniqueClicks }) => [humanClicks, humanUniqueClicks])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    // Hits recorded before migration 0020: its own backfill, run again here on rows written without the triggers.
    const pool = t.db.pool;
    await pool.query('ALTER TABLE tracking_events DISABLE TRIGGER tracking_events_link_count_insert');
    try {
      await pool.query(
        `INSERT INTO tracking_events (campaign_id, job_id, kind, link_id, machine, created_at)
         VALUES ($1, $2, 'CLICK', $4, false, now()), ($1, $2, 'CLICK', $4, false, now()), ($1, $3, 'CLICK', $4, true, now()),
                ($1, $3, 'CLICK', $5, false, now() - interval '1 minute')`,
        [id, jobs[0], jobs[1], links[0], links[1]],
      );
    } finally {
      await pool.query('ALTER TABLE tracking_events ENABLE TRIGGER tracking_events_link_count_insert');
    }
    const migration = await readFile(new URL('../../db/migrations/0020_link_human_clicks.sql', import.meta.url), 'utf8');
    const backfill = migration.slice(migration.indexOf('INSERT INTO campaign_link_counts (link_id'));
    // The backfill counts every campaign's links: the counts the triggers kept for the other tests' links are
    // dropped first, and come back the same.
    const others = () => pool.query('SELECT * FROM campaign_link_counts WHERE campaign_id <> $1 ORDER BY link_id', [id]);
    const before = (await others()).rows;
    await t.deps.db.transaction(async (tx) => {
      await tx.query('DELETE FROM campaign_link_counts');
      await tx.query(backfill);
    });
    expect((await others()).rows).toEqual(before);
    expect(figures(await linksOf(id)).map(({ humanClicks, humanUniqueClicks }) => [humanClicks, humanUniqueClicks])).toEqual([
      [2, 1],
      [1, 1],
      [0, 0],
    ]);
  });
});
