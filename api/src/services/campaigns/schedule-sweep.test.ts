/**
 * The schedule sweep (an addition to the spec) against PostgreSQL:
 *  - two workers (two sets of services, each with its own connection pool and queue) sweeping at
 *    the same moment start each due campaign exactly once: one dispatch, its jobs and links created
 *    once, each job published once;
 *  - the pre-send checks run again when the time comes; a campaign that fails them is a DRAFT again
 *    with the reason, not lost;
 *  - a time missed while no worker ran starts at the first sweep of the worker that starts after it,
 *    and one missed while the database was away starts as soon as it is back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeededAudience } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import { closeDeps, createDeps, type AppDeps } from '../../deps.js';
import { createLogger } from '../../logger.js';
import type { PublishOptions, QueueName } from '../../queue/message-queue.js';
import { InProcessMessageQueue } from '../../queue/in-process.js';
import { campaignWorkers } from '../../workers/campaigns.js';
import { startWorkers } from '../../workers/index.js';
import { TEMPLATE_EMPTY } from './rules.js';

/** An in-process queue that remembers what was published to it (nothing consumes it here). */
class RecordingQueue extends InProcessMessageQueue {
  readonly published: { queue: QueueName; payload: unknown }[] = [];
  override async publish<T>(queue: QueueName, payload: T, options?: PublishOptions): Promise<void> {
    this.published.push({ queue, payload });
    await super.publish(queue, payload, options);
  }
}

const SENDERS = 'news@example.org';
const MEMBER = { email: 'member@example.org' };
const HTML = '<p>Hello {{firstName}}</p><a href="https://example.org/a">A</a><a href="https://example.org/b">B</a>';

let ses: SesEndpoint;
let a: TestApp;
let b: AppDeps;
let queueA: RecordingQueue;
let queueB: RecordingQueue;
let audience: SeededAudience;
let templateId: number;

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 200, max24HourSend: 100_000 });
  const logger = createLogger({ logLevel: 'silent' });
  queueA = new RecordingQueue(logger);
  queueB = new RecordingQueue(logger);
  a = await createTestApp({
    env: { AUTHORIZED_SENDER_EMAILS: SENDERS, SES_ENDPOINT: ses.endpoint },
    deps: { messageQueueAdapter: queueA },
  });
  // The second worker: the same configuration, its own pool of connections and its own queue.
  b = await createDeps(a.config, { messageQueueAdapter: queueB });
  audience = await seedAudience(a.db.pool, {
    headers: ['firstName'],
    contacts: [
      { email: 'ann@example.org', data: { firstName: 'Ann' } },
      { email: 'bad', error: 'Invalid email address' },
      { email: 'bob@example.org', data: { firstName: 'Bob' } },
      { email: 'cid@example.org', data: { firstName: 'Cid' } },
    ],
  });
  templateId = await seedTemplate(a.db.pool, { name: 'News', html: HTML });
}, 60_000);
afterAll(async () => {
  await closeDeps(b).catch(() => {});
  await a?.close();
  await ses?.close();
});

async function scheduledCampaign(atMs: number, deps: AppDeps = a.deps): Promise<number> {
  const { campaigns, scheduling } = deps.services;
  const { id } = await campaigns.create({ name: `At ${atMs}`, templateId }, MEMBER);
  await campaigns.update(
    id,
    { name: `At ${atMs}`, audienceId: audience.id, templateId, fromName: 'News', fromEmail: SENDERS, subject: 'Hi {{firstName}}' },
    MEMBER,
  );
  await scheduling.schedule(id, new Date(atMs).toISOString(), MEMBER);
  return id;
}

/** A missed time: the campaign's time moved into the past, as if it had passed while nothing swept. */
const backdate = (id: number, seconds: number) =>
  a.db.pool.query(`UPDATE campaigns SET scheduled_at = now() - $2 * interval '1 second' WHERE id = $1`, [id, seconds]);

const campaignRow = async (id: number) =>
  (
    await a.db.pool.query<{ status: string; scheduled_at: Date | null; delivery_date: Date | null; error_message: string | null }>(
      'SELECT status, scheduled_at, delivery_date, error_message FROM campaigns WHERE id = $1',
      [id],
    )
  ).rows[0]!;
const countOf = async (sql: string, id: number) => (await a.db.pool.query<{ n: number }>(sql, [id])).rows[0]!.n;
const publishedJobIds = (queue: RecordingQueue, campaignId: number) =>
  queue.published
    .filter((message) => message.queue === 'campaign-send' && (message.payload as { campaignId: number }).campaignId === campaignId)
    .flatMap((message) => (message.payload as { jobIds: number[] }).jobIds);

describe('the schedule sweep', () => {
  it('leaves a campaign whose time has not come', async () => {
    const id = await scheduledCampaign(Date.now() + 60_000);
    await Promise.all([a.deps.services.scheduling.startDue(), b.services.scheduling.startDue()]);
    expect((await campaignRow(id)).status).toBe('SCHEDULED');
    expect(await countOf('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', id)).toBe(0);
    await a.deps.services.scheduling.unschedule(id, MEMBER);
  });

  it('two workers sweeping at once start each due campaign exactly once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await scheduledCampaign(Date.now() + 60_000));
    for (const id of ids) await backdate(id, 1);
    // Several rounds of both sweeps at the same moment, as two workers' timers would run them.
    const rounds = await Promise.all([0, 1, 2].flatMap(() => [a.deps.services.scheduling.startDue(), b.services.scheduling.startDue()]));
    const started = rounds.flatMap((round) => round.started);
    expect([...started].sort((x, y) => x - y)).toEqual(ids);
    for (const id of ids) {
      const row = await campaignRow(id);
      expect(row.status).toBe('SENDING');
      expect(row.delivery_date!.getTime()).toBeGreaterThanOrEqual(row.scheduled_at!.getTime());
      // The three valid contacts, once; the snapshot's links (the template's two and the hidden one), once.
      expect(await countOf('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', id)).toBe(3);
      expect(await countOf('SELECT contact_count AS n FROM campaigns WHERE id = $1', id)).toBe(3);
      expect(await countOf('SELECT count(*)::int AS n FROM campaign_links WHERE campaign_id = $1', id)).toBe(3);
      expect(await countOf('SELECT count(DISTINCT href)::int AS n FROM campaign_links WHERE campaign_id = $1', id)).toBe(3);
      const published = [...publishedJobIds(queueA, id), ...publishedJobIds(queueB, id)];
      expect(published).toHaveLength(3);
      expect(new Set(published).size).toBe(3);
      // One dispatch: every job of the campaign was published by one worker only.
      expect(publishedJobIds(queueA, id).length === 0 || publishedJobIds(queueB, id).length === 0).toBe(true);
      // And one send in the activity log, by the member who scheduled it, after their schedule.
      const { rows: logged } = await a.db.pool.query<{ kind: string; member_email: string; jobs: number }>(
        `SELECT kind, member_email, (details->>'jobs')::int AS jobs FROM activity
          WHERE object_type = 'campaign' AND object_id = $1 AND kind IN ('schedule', 'send') ORDER BY id`,
        [id],
      );
      expect(logged).toEqual([
        { kind: 'schedule', member_email: MEMBER.email, jobs: null },
        { kind: 'send', member_email: MEMBER.email, jobs: 3 },
      ]);
    }
  });

  it('runs the pre-send checks again when the time comes: a failing campaign is a DRAFT again with the reason', async () => {
    const emptyTemplate = await seedTemplate(a.db.pool, { name: 'Soon empty', html: '<p>Hello</p>' });
    const id = await scheduledCampaign(Date.now() + 60_000);
    await a.db.pool.query('UPDATE campaigns SET template_id = $2 WHERE id = $1', [id, emptyTemplate]);
    // The template was emptied after the campaign was scheduled.
    await a.db.pool.query("UPDATE templates SET html = '' WHERE id = $1", [emptyTemplate]);
    await backdate(id, 1);
    const [first, second] = await Promise.all([a.deps.services.scheduling.startDue(), b.services.scheduling.startDue()]);
    expect([...first.returned, ...second.returned]).toEqual([id]);
    expect([...first.started, ...second.started]).not.toContain(id);
    const row = await campaignRow(id);
    expect(row).toMatchObject({ status: 'DRAFT', scheduled_at: null, delivery_date: null });
    expect(row.error_message).toContain(TEMPLATE_EMPTY);
    expect(row.error_message).toContain('did not start');
    expect(await countOf('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', id)).toBe(0);
    // The member sees it on the campaign, and a later schedule or send clears it.
    expect((await a.deps.services.campaigns.get(id)).errorMessage).toContain(TEMPLATE_EMPTY);
  });
});

describe('a missed time', () => {
  it('starts at the first sweep of a worker that starts after it', async () => {
    const id = await scheduledCampaign(Date.now() + 60_000);
    // The time passed a minute ago, while no worker ran.
    await backdate(id, 60);
    const workers = await startWorkers(a.deps, [campaignWorkers]);
    try {
      const deadline = Date.now() + 10_000;
      while ((await campaignRow(id)).status === 'SCHEDULED' && Date.now() < deadline) await sleep(100);
      const row = await campaignRow(id);
      expect(['SENDING', 'SENT']).toContain(row.status);
      // The report has both: planned a minute before it really started.
      expect(row.delivery_date!.getTime() - row.scheduled_at!.getTime()).toBeGreaterThanOrEqual(59_000);
    } finally {
      await workers.close();
    }
  });
});

describe('a time missed while the database was away', () => {
  let proxy: TcpProxy;
  let cut: TestApp;
  beforeAll(async () => {
    proxy = await startTcpProxy({ port: 5432 });
    cut = await createTestApp({
      env: { AUTHORIZED_SENDER_EMAILS: SENDERS, SES_ENDPOINT: ses.endpoint },
      databaseUrl: (url) => proxy.url(url),
      workers: [campaignWorkers],
    });
  }, 60_000);
  afterAll(async () => {
    proxy?.pass();
    await cut?.close();
    await proxy?.close();
  });

  it('starts as soon as the database is back', async () => {
    const own = await seedAudience(cut.db.pool, { headers: [], contacts: [{ email: 'dee@example.org' }] });
    const template = await seedTemplate(cut.db.pool, { html: '<p>Hi</p>' });
    const { campaigns, scheduling } = cut.deps.services;
    const { id } = await campaigns.create({ name: 'Outage', templateId: template }, MEMBER);
    await campaigns.update(
      id,
      { name: 'Outage', audienceId: own.id, templateId: template, fromName: 'N', fromEmail: SENDERS, subject: 'S' },
      MEMBER,
    );
    await scheduling.schedule(id, new Date(Date.now() + 1_500).toISOString(), MEMBER);
    proxy.refuse();
    // The time passes while the worker cannot reach the database.
    await sleep(3_000);
    const status = async () =>
      (await cut.db.pool.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id])).rows[0]!.status;
    expect(await status()).toBe('SCHEDULED');
    proxy.pass();
    const back = Date.now();
    while ((await status()) === 'SCHEDULED' && Date.now() - back < 10_000) await sleep(100);
    expect(['SENDING', 'SENT']).toContain(await status());
    expect(Date.now() - back).toBeLessThan(10_000);
  }, 30_000);
});
