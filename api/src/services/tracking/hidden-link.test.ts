/**
 * The hidden link is evidence, never a click (migration 0018): the report's timeline (the hourly
 * counts of migration 0016) leaves its hits out as Click Performance and the overview do, for hits
 * recorded from now on and for those counted before the migration.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, createTestDatabase } from '../../../test/support/db.js';
import { migrate, MIGRATIONS_DIR } from '../../db/migrate.js';
import { BURST_MS, TOO_SOON_MS } from './classify.js';
import { trackingRepository, type TrackingHit } from './repository.js';

const HOUR = 3_600_000;
const SENT = new Date('2024-06-01T10:00:00Z');
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

type Query = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** A sent campaign of two links and its hidden link, with `jobs` jobs sent at SENT. */
async function sentCampaign(query: Query, jobs: number) {
  const id = (await query(`INSERT INTO campaigns (name, status) VALUES ('Evidence', 'SENT') RETURNING id`)).rows[0]!.id as number;
  const { rows: links } = await query(
    `INSERT INTO campaign_links (campaign_id, href, position, hidden)
     VALUES ($1, 'https://example.org/a', 0, false), ($1, 'https://example.org/b', 1, false), ($1, 'https://mail.example.org/', 2, true)
     RETURNING id`,
    [id],
  );
  const { rows: jobRows } = await query(
    `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, sent_at)
     SELECT $1, n, 'r' || n || '@example.org', 'SENT_SUCCESS', $2 FROM generate_series(1, $3::int) n ORDER BY n RETURNING id`,
    [id, SENT, jobs],
  );
  return {
    id,
    links: { a: links[0]!.id as number, b: links[1]!.id as number, hidden: links[2]!.id as number },
    jobs: jobRows.map((row) => row.id as number),
  };
}

type Campaign = Awaited<ReturnType<typeof sentCampaign>>;

/**
 * Hits over several hours: people's opens and clicks, scanners that follow the hidden link with the
 * pixel and a link (over two flushes: the burst is found after the fact and re-marks the others), a
 * hidden-link hit alone, and one too soon after sending. Flushes in order.
 */
function hitsOf({ links, jobs }: Campaign): TrackingHit[][] {
  const hit = (job: number, ms: number, link: number | null, machineReason: TrackingHit['machineReason'] = null): TrackingHit => ({
    jobId: job,
    linkId: link,
    userAgent: CHROME,
    at: new Date(SENT.getTime() + ms),
    clientIp: '203.0.113.9',
    machineReason,
  });
  return jobs.flatMap((job, n) => {
    const at = (n % 4) * HOUR + 20_000 + n * 1_000;
    switch (n % 4) {
      case 0:
        return [[hit(job, at, null)], [hit(job, at + 30_000, links.a), hit(job, at + 90_000, links.b)]];
      case 1:
        return [[hit(job, at, null), hit(job, at + 500, links.a)], [hit(job, at + BURST_MS - 1_000, links.hidden)]];
      case 2:
        return [[hit(job, at, links.hidden, 'bot-user-agent')]];
      default:
        return [[hit(job, TOO_SOON_MS - 5_000, links.b)], [hit(job, at, links.hidden), hit(job, at + 200, null)]];
    }
  });
}

/** The campaign's hourly hit counts as stored, hours without a hit left out. */
const storedHits = (query: Query, campaignId: number) =>
  query(
    `SELECT hour, opens_human::int, opens_machine::int, clicks_human::int, clicks_machine::int FROM campaign_hourly_counts
      WHERE campaign_id = $1 AND (opens_human, opens_machine, clicks_human, clicks_machine) <> (0, 0, 0, 0) ORDER BY hour`,
    [campaignId],
  ).then((result) => result.rows);

/** The same counted from the hits themselves, the hidden link's left out. */
const countedHits = (query: Query, campaignId: number) =>
  query(
    `SELECT date_trunc('hour', e.created_at, 'UTC') AS hour,
            count(*) FILTER (WHERE e.kind = 'OPEN' AND NOT e.machine)::int AS opens_human,
            count(*) FILTER (WHERE e.kind = 'OPEN' AND e.machine)::int AS opens_machine,
            count(*) FILTER (WHERE e.kind = 'CLICK' AND NOT e.machine)::int AS clicks_human,
            count(*) FILTER (WHERE e.kind = 'CLICK' AND e.machine)::int AS clicks_machine
       FROM tracking_events e LEFT JOIN campaign_links l ON l.id = e.link_id
      WHERE e.campaign_id = $1 AND NOT coalesce(l.hidden, false)
      GROUP BY 1 ORDER BY 1`,
    [campaignId],
  ).then((result) => result.rows);

/** Every click the timeline counts, and every click of Click Performance (the links' counts). */
async function clickTotals(query: Query, campaignId: number) {
  const { rows } = await query(
    `SELECT (SELECT sum(clicks_human + clicks_machine)::int FROM campaign_hourly_counts WHERE campaign_id = $1) AS timeline,
            (SELECT sum(clicks)::int FROM campaign_links WHERE campaign_id = $1 AND NOT hidden) AS links,
            (SELECT count(*)::int FROM tracking_events e JOIN campaign_links l ON l.id = e.link_id
              WHERE e.campaign_id = $1 AND l.hidden) AS hidden`,
    [campaignId],
  );
  return rows[0] as { timeline: number; links: number; hidden: number };
}

describe('the hidden link in the report aggregates (migration 0018)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('leaves hidden-link hits out of the timeline as they are recorded and re-marked', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const query: Query = (text, params) => db.pool.query(text, params);
    const campaign = await sentCampaign(query, 24);
    const repo = trackingRepository(db.database);
    for (const flush of hitsOf(campaign)) await repo.recordHits(flush);

    const stored = await storedHits(query, campaign.id);
    expect(stored).toEqual(await countedHits(query, campaign.id));
    // The scanners' other hits are machines' (the burst re-marked them) and stay in the timeline.
    expect(stored.reduce((n, hour) => n + (hour.opens_machine as number), 0)).toBeGreaterThan(0);
    const totals = await clickTotals(query, campaign.id);
    expect(totals.hidden).toBeGreaterThan(0);
    expect(totals.timeline).toBe(totals.links);
  });

  it('takes the hidden link out of the aggregates counted before it', async () => {
    const database = await createEmptyDatabase();
    cleanups.push(database.drop);
    const before = await mkdtemp(join(tmpdir(), 'mailroom-migrations-'));
    cleanups.push(() => rm(before, { recursive: true, force: true }));
    for (const name of await readdir(MIGRATIONS_DIR)) if (name < '0018') await cp(join(MIGRATIONS_DIR, name), join(before, name));
    await migrate({ databaseUrl: database.url, directory: before });

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    const query: Query = (text, params) => client.query(text, params);
    const campaign = await sentCampaign(query, 24);
    const untouched = await sentCampaign(query, 1);
    // Recorded as the API did before migration 0018 (its function then took no burst size).
    for (const flush of hitsOf(campaign))
      await query('SELECT record_tracking_hits($1, $2, $3, $4, $5::inet[], $6, $7, $8)', [
        flush.map((hit) => hit.jobId),
        flush.map((hit) => hit.linkId),
        flush.map((hit) => hit.userAgent),
        flush.map((hit) => hit.at),
        flush.map((hit) => hit.clientIp),
        flush.map((hit) => hit.machineReason),
        TOO_SOON_MS,
        BURST_MS,
      ]);
    const earlier = await clickTotals(query, campaign.id);
    expect(earlier.timeline).toBe(earlier.links + earlier.hidden);
    const untouchedBefore = await query('SELECT * FROM campaign_hourly_counts WHERE campaign_id = $1', [untouched.id]);

    await migrate({ databaseUrl: database.url });

    expect(await storedHits(query, campaign.id)).toEqual(await countedHits(query, campaign.id));
    const corrected = await clickTotals(query, campaign.id);
    expect(corrected.timeline).toBe(corrected.links);
    expect(corrected.links).toBe(earlier.links);
    // The mails sent per hour stay as they were, and so does a campaign without hidden-link hits.
    const { rows: sent } = await query(`SELECT sum(sent)::int AS sent FROM campaign_hourly_counts WHERE campaign_id = $1`, [campaign.id]);
    expect(sent[0]!.sent).toBe(campaign.jobs.length);
    expect((await query('SELECT * FROM campaign_hourly_counts WHERE campaign_id = $1', [untouched.id])).rows).toEqual(untouchedBefore.rows);
  });
});
