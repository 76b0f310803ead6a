/**
 * A broker outage takes out only what needs the broker (docs/decisions/sending.md, broker outage):
 * the app's queue reaches the real RabbitMQ through a TCP proxy this test controls
 * (test/support/tcp-proxy.ts), which refuses every connection while the broker is "away". Then
 * readiness stays 200, members list and read, the pixel, clicks and the unsubscribe page record what
 * they record, the quota says that sending and imports are paused, and every call that publishes
 * answers 503 with BROKER_UNAVAILABLE after the queue's wait, having changed nothing. Once the broker
 * is back, the same send goes through.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_AMQP_URL, type TestApp } from '../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../test/support/seed.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.js';
import { bearer } from '../../test/support/tokens.js';
import { createLogger } from '../logger.js';
import { createTrackingTokens } from '../mail/tracking-tokens.js';
import { RabbitMqMessageQueue } from '../queue/rabbitmq.js';
import { BROKER_UNAVAILABLE } from './errors.js';
import { isPublishingCall, PUBLISHING_CALLS } from './publishing-calls.js';
import { healthRouter } from './routes/health.js';

/** The queue's publish wait here (the HTTP process's is REQUEST_PUBLISH_WAIT_MS): short, to keep the test short. */
const WAIT_MS = 600;
const sendQuota = { Max24HourSend: 1000, MaxSendRate: 10, SentLast24Hours: 3 };

let proxy: TcpProxy;
let t: TestApp;
let auth: string;
let importDir: string;
let audienceId: number;
let templateId: number;
/** Sent as far as its jobs (no worker here: they are marked sent), to be opened, clicked and left. */
let sentId: number;
let jobs: { id: number; email: string }[];
/** Ready to send: it must stay a DRAFT while the broker is away. */
let draftId: number;

const api = () => request(t.app);
const rows = async <T>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows as T[];

async function campaign(name: string): Promise<number> {
  const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name, templateId });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const saved = await api()
    .put(`/api/campaigns/${id}`)
    .set('Authorization', auth)
    .send({ name, audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Hi' });
  expect(saved.status).toBe(200);
  return id;
}

const brokerAway = () => proxy.refuse();
async function brokerBack() {
  proxy.pass();
  expect(await t.deps.messageQueue.available(15_000)).toBe(true);
}

beforeAll(async () => {
  const amqp = new URL(TEST_AMQP_URL);
  proxy = await startTcpProxy({ host: amqp.hostname, port: Number(amqp.port || 5672) });
  amqp.hostname = '127.0.0.1';
  amqp.port = String(proxy.port);
  importDir = await mkdtemp(join(tmpdir(), 'mailroom-broker-outage-'));
  const queue = new RabbitMqMessageQueue(amqp.toString(), createLogger({ logLevel: 'silent' }), {
    prefix: `t-broker-${randomBytes(5).toString('hex')}.`,
    deleteQueuesOnClose: true,
    publishWaitMs: WAIT_MS,
  });
  t = await createTestApp({
    ses: { send: async () => ({ SendQuota: sendQuota }), destroy() {} } as never,
    env: { IMPORT_DIR: importDir },
    deps: { messageQueueAdapter: queue },
  });
  auth = await bearer();
  expect(await t.deps.messageQueue.available(15_000)).toBe(true);
  ({ id: audienceId } = await seedAudience(t.db.pool, {
    headers: [],
    contacts: [{ email: 'ann@example.org' }, { email: 'bob@example.org' }, { email: 'cy@example.org' }],
  }));
  templateId = await seedTemplate(t.db.pool, { html: '<p><a href="https://example.org/a">A</a></p>' });
  sentId = await campaign('Sent before the outage');
  expect((await api().post(`/api/campaigns/${sentId}/send`).set('Authorization', auth)).status).toBe(202);
  await t.db.pool.query(`UPDATE campaign_jobs SET status = 'SENT_WAIT_ACK' WHERE campaign_id = $1`, [sentId]);
  jobs = await rows('SELECT id, email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id', [sentId]);
  draftId = await campaign('To send during the outage');
});

afterAll(async () => {
  proxy?.pass();
  await t?.close();
  await proxy?.close();
  if (importDir) await rm(importDir, { recursive: true, force: true });
});

describe('while the broker is away', () => {
  beforeAll(() => brokerAway());

  it('the API stays ready (the database answers) and reports the broker down; a worker is not ready', async () => {
    const res = await api().get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', broker: 'down' } });
    // A worker's probe: it consumes, so it needs the broker.
    const worker = express().use(healthRouter(t.deps, { needs: ['database', 'broker'] }));
    const probe = await request(worker).get('/readyz').expect(503);
    expect(probe.body).toEqual({
      status: 'unavailable',
      checks: { database: 'up', broker: 'down' },
      message: 'Not ready: message broker unavailable',
    });
  });

  it('the quota says that sending and imports are paused', async () => {
    const res = await api().get('/api/ses-quota').set('Authorization', auth).expect(200);
    expect(res.body).toMatchObject({ emailsSent: 3, sendingAndImportsPaused: true });
  });

  it('members list and read: audiences, contacts, campaigns, the report', async () => {
    for (const path of [
      '/api/audiences',
      `/api/audiences/${audienceId}`,
      `/api/audiences/${audienceId}/contacts`,
      '/api/campaigns',
      `/api/campaigns/${sentId}`,
      '/api/templates',
      `/api/reports/${sentId}/overview`,
      `/api/reports/${sentId}/email-performance`,
    ]) {
      const res = await api().get(path).set('Authorization', auth);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('opens, clicks and unsubscribes are recorded', async () => {
    const tokens = createTrackingTokens(t.config.trackingSecret);
    const [ann, bob] = jobs;
    const [link] = await rows<{ id: number }>('SELECT id FROM campaign_links WHERE campaign_id = $1 AND NOT hidden', [sentId]);
    expect(
      (
        await api()
          .get(`/t/o/${tokens.open(ann!.id)}`)
          .set('User-Agent', 'Mail/1.0')
      ).status,
    ).toBe(200);
    const click = await api()
      .get(`/t/c/${tokens.click(ann!.id, link!.id)}`)
      .set('User-Agent', 'Mail/1.0');
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe('https://example.org/a');
    expect((await api().get(`/unsubscribe/${tokens.unsubscribe(bob!.id)}`)).status).toBe(200);
    const left = await api()
      .post(`/unsubscribe/${tokens.unsubscribe(bob!.id)}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(left.status).toBe(200);
    expect(left.text).toContain('You are unsubscribed');
    await t.deps.services.tracking.flush();
    expect(await rows('SELECT DISTINCT kind FROM tracking_events WHERE job_id = $1 ORDER BY kind', [ann!.id])).toEqual([
      { kind: 'CLICK' },
      { kind: 'OPEN' },
    ]);
    expect(await rows('SELECT email_lower, reason FROM suppressions')).toEqual([{ email_lower: 'bob@example.org', reason: 'UNSUBSCRIBE' }]);
  });

  it('a send waits for the broker, then answers 503 with the message, and the campaign stays a draft with no job', async () => {
    const started = performance.now();
    const res = await api().post(`/api/campaigns/${draftId}/send`).set('Authorization', auth);
    const waited = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: BROKER_UNAVAILABLE });
    expect(waited).toBeGreaterThanOrEqual(WAIT_MS - 50);
    expect(waited).toBeLessThan(WAIT_MS + 3_000);
    expect(await rows('SELECT status FROM campaigns WHERE id = $1', [draftId])).toEqual([{ status: 'DRAFT' }]);
    expect(await rows('SELECT id FROM campaign_jobs WHERE campaign_id = $1', [draftId])).toEqual([]);
  });

  it('an import answers 503 before its upload is stored, and the audience is left as it was', async () => {
    const created = await api().post('/api/audiences').set('Authorization', auth).send({ name: 'Imported during the outage' });
    const id = created.body.id as number;
    for (const [type, attach] of [
      ['csv', (r: request.Test) => r.attach('file', Buffer.from('email\ndee@example.org\n'), 'contacts.csv')],
      ['text', (r: request.Test) => r.field('file', 'email\ndee@example.org\n')],
    ] as const) {
      const res = await attach(api().post(`/api/audiences/${id}/import/file?type=${type}`).set('Authorization', auth));
      expect(res.status, type).toBe(503);
      expect(res.body).toEqual({ message: BROKER_UNAVAILABLE });
    }
    expect(await rows('SELECT is_importing, source FROM audiences WHERE id = $1', [id])).toEqual([{ is_importing: false, source: null }]);
    expect(await readdir(importDir, { recursive: true }).then((files) => files.filter((f) => !f.startsWith('.')))).toEqual([]);
  });

  it('every publishing call answers 503 with the message, the report actions included', async () => {
    const [job] = jobs;
    const calls = [
      `/api/campaigns/${sentId}/continue`,
      `/api/reports/${sentId}/retry-all-failed-jobs`,
      `/api/reports/${sentId}/resend-unconfirmed`,
      `/api/reports/${sentId}/retry-job/${job!.id}`,
      `/api/reports/${sentId}/send-to-not-sent`,
      `/api/reports/${sentId}/send-to-contact/1`,
    ];
    // Each pattern of the list is met by a call here (send and import above).
    for (const pattern of PUBLISHING_CALLS) {
      expect(
        [...calls, `/api/campaigns/${draftId}/send`, `/api/audiences/${audienceId}/import/file`].some((path) => pattern.test(path)),
        String(pattern),
      ).toBe(true);
    }
    const before = await rows('SELECT id, status FROM campaign_jobs ORDER BY id');
    for (const path of calls) {
      const res = await api().post(path).set('Authorization', auth);
      expect(res.status, path).toBe(503);
      expect(res.body, path).toEqual({ message: BROKER_UNAVAILABLE });
    }
    expect(await rows('SELECT id, status FROM campaign_jobs ORDER BY id')).toEqual(before);
  });

  it('calls that need no broker keep working: scheduling, unscheduling, deleting an audience', async () => {
    const scheduled = await api()
      .post(`/api/campaigns/${draftId}/schedule`)
      .set('Authorization', auth)
      .send({ at: new Date(Date.now() + 86_400_000).toISOString() });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect((await api().post(`/api/campaigns/${draftId}/unschedule`).set('Authorization', auth)).status).toBe(200);
    const created = await api().post('/api/audiences').set('Authorization', auth).send({ name: 'Deleted during the outage' });
    // Its purge is queued when it can be, else by the worker's sweep: the member is answered either way.
    const deleted = await api()
      .delete(`/api/audiences/${created.body.id as number}`)
      .set('Authorization', auth);
    expect(deleted.status).toBe(202);
    expect(isPublishingCall('POST', `/api/campaigns/${draftId}/schedule`)).toBe(false);
  });
});

describe('once the broker is back', () => {
  beforeAll(() => brokerBack());

  it('the quota no longer says paused, and the same send goes through', async () => {
    const quota = await api().get('/api/ses-quota').set('Authorization', auth).expect(200);
    expect(quota.body.sendingAndImportsPaused).toBe(false);
    const res = await api().post(`/api/campaigns/${draftId}/send`).set('Authorization', auth);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await rows('SELECT status FROM campaigns WHERE id = $1', [draftId])).toEqual([{ status: 'SENDING' }]);
    // Ann and Cy: Bob left while the broker was away.
    expect(await rows(`SELECT email FROM campaign_jobs WHERE campaign_id = $1 AND status = 'QUEUED' ORDER BY email`, [draftId])).toEqual([
      { email: 'ann@example.org' },
      { email: 'cy@example.org' },
    ]);
  });
});
