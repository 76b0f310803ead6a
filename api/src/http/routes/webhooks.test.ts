/**
 * Outgoing webhooks (issue 27) through the whole API with the worker's consumers in this process (in-process
 * queue) and a local receiver: the endpoint calls, every event type written by the product's own records
 * (the triggers of migration 0034), each delivery's signature checked by the `standardwebhooks` package (an
 * implementation independent of ours), retries with backoff and the same id, FAILED once its time is up, and
 * a re-send.
 */
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../../test/support/webhook-receiver.js';

const ALL_EVENTS = [
  'contact.subscribed',
  'contact.confirmed',
  'contact.unsubscribed',
  'contact.erased',
  'contact.bounced',
  'contact.complained',
  'campaign.sent',
  'import.finished',
];
const RETRY_BASE_MS = 150;

let t: TestApp;
let auth: string;
let receiver: WebhookReceiver;

const api = () => request(t.app);
const get = (path: string) => api().get(path).set('Authorization', auth);
const post = (path: string, body: object = {}) => api().post(path).set('Authorization', auth).send(body);
const put = (path: string, body: object) => api().put(path).set('Authorization', auth).send(body);
const del = (path: string) => api().delete(path).set('Authorization', auth);
const query = async <R>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows as R[];

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const bodyOf = (hit: ReceivedWebhook) => JSON.parse(hit.body) as { type: string; timestamp: string; data: Record<string, unknown> };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ workers: true, env: { WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), WEBHOOK_TIMEOUT_SECONDS: '1' } });
  auth = await bearer();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.answer = () => 204;
  await query('DELETE FROM webhook_endpoints');
});

describe('webhook endpoints', () => {
  it('registers, lists, changes and deletes an endpoint; the secret is shown at creation and to an admin who asks', async () => {
    const created = await post('/api/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['campaign.sent', 'contact.bounced'],
      description: 'CRM',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body).toMatchObject({
      url: `${receiver.url}/hook`,
      events: ['campaign.sent', 'contact.bounced'],
      description: 'CRM',
      enabled: true,
    });
    const id = created.body.id as number;

    const list = await get('/api/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).not.toHaveProperty('secret');

    expect((await get(`/api/webhooks/${id}/secret`)).body.secret).toBe(created.body.secret);
    const rotated = await post(`/api/webhooks/${id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await get(`/api/webhooks/${id}/secret`)).body.secret).toBe(rotated.body.secret);

    const changed = await put(`/api/webhooks/${id}`, { url: `${receiver.url}/other`, events: ['import.finished'], enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ url: `${receiver.url}/other`, events: ['import.finished'], enabled: false, description: 'CRM' });
    expect((await get(`/api/webhooks/${id}`)).body.enabled).toBe(false);

    expect((await del(`/api/webhooks/${id}`)).status).toBe(204);
    expect((await get(`/api/webhooks/${id}`)).status).toBe(404);
    expect((await del(`/api/webhooks/${id}`)).status).toBe(404);

    // Each change is in the activity log, the endpoint named by its origin alone (a path may hold a receiver's secret).
    const log = await get(`/api/activity?objectType=webhook&objectId=${id}`);
    const items = log.body.items as { kind: string; objectName: string; details: Record<string, unknown> }[];
    expect(items.map((item) => item.kind)).toEqual(['webhook-delete', 'webhook-change', 'webhook-rotate-secret', 'webhook-create']);
    expect(new Set(items.map((item) => item.objectName))).toEqual(new Set([new URL(receiver.url).origin]));
    expect(items[1]!.details).toEqual({ events: ['import.finished'], enabled: false });
    expect(JSON.stringify(items)).not.toMatch(/whsec_|\/hook|\/other/);
  });

  it('refuses what is not an http(s) URL, and an event it does not know', async () => {
    expect((await post('/api/webhooks', { url: 'ftp://example.org/x', events: ['campaign.sent'] })).status).toBe(400);
    expect((await post('/api/webhooks', { url: `${receiver.url}/x`, events: ['campaign.opened'] })).status).toBe(400);
    expect((await post('/api/webhooks', { url: `http://user:pass@127.0.0.1/x`, events: ['campaign.sent'] })).status).toBe(400);
    expect(await query('SELECT 1 FROM webhook_endpoints')).toHaveLength(0);
  });
});

describe('deliveries', () => {
  it('delivers every event type from the record that makes it, signed so that standardwebhooks verifies it', async () => {
    const created = await post('/api/webhooks', { url: `${receiver.url}/all`, events: ALL_EVENTS });
    const secret = created.body.secret as string;
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [{ email: 'ann@example.com' }] });
    const contactId = audience.contactIds[0]!;

    // The consent ledger's entries, as sign-ups, the preference centre, an erasure and an import write them.
    for (const event of ['SUBSCRIBED', 'CONFIRMED', 'UNSUBSCRIBED']) {
      await query(`INSERT INTO consent_ledger (audience_id, address_key, email, event) VALUES ($1, address_key($2), $2, $3)`, [
        audience.id,
        'Ann@Example.com',
        event,
      ]);
    }
    await query(`INSERT INTO consent_ledger (audience_id, address_key, email, event) VALUES ($1, 'erased:abc', 'erased:abc', 'ERASED')`, [
      audience.id,
    ]);
    await query(`INSERT INTO consent_ledger (audience_id, event, member_email, contacts) VALUES ($1, 'IMPORTED', 'm@example.org', 12)`, [
      audience.id,
    ]);
    // A campaign sent, whose mail bounced and drew a complaint, as the SES events record them.
    const [campaign] = await query<{ id: number }>(
      `INSERT INTO campaigns (name, status, audience_id, contact_count, jobs_sent) VALUES ('News', 'SENDING', $1, 1, 1) RETURNING id`,
      [audience.id],
    );
    const [job] = await query<{ id: number }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, ses_message_id) VALUES ($1, $2, 'ann@example.com', 'SENT_WAIT_ACK', 'ses-1') RETURNING id`,
      [campaign!.id, contactId],
    );
    await query(`UPDATE campaign_jobs SET status = 'SENT_SUCCESS' WHERE id = $1`, [job!.id]); // no event
    await query(`UPDATE campaigns SET status = 'SENT' WHERE id = $1`, [campaign!.id]);
    await query(`UPDATE campaign_jobs SET bounce_type = 'HARD', bounce_message = 'no such user', bounce_time = now() WHERE id = $1`, [
      job!.id,
    ]);
    await query(`UPDATE campaign_jobs SET complaint_type = 'abuse', complaint_time = now() WHERE id = $1`, [job!.id]);

    await until(() => receiver.received.length >= ALL_EVENTS.length || undefined, 'every event');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(ALL_EVENTS.length);

    const verifier = new Webhook(secret);
    const byType = new Map<string, { data: Record<string, unknown> }>();
    for (const hit of receiver.received) {
      const headers = hit.headers as Record<string, string>;
      // Throws unless the signature, the id and the timestamp agree with the body.
      expect(() => verifier.verify(hit.body, headers)).not.toThrow();
      expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      const body = bodyOf(hit);
      byType.set(body.type, body);
    }
    expect([...byType.keys()].sort()).toEqual([...ALL_EVENTS].sort());
    expect(byType.get('contact.subscribed')!.data).toMatchObject({ email: 'Ann@Example.com', audienceId: audience.id, source: 'form' });
    expect(byType.get('contact.erased')!.data).toEqual({ erasedKey: 'erased:abc', audienceId: audience.id });
    expect(byType.get('import.finished')!.data).toMatchObject({ audienceId: audience.id, contacts: 12 });
    expect(byType.get('campaign.sent')!.data).toMatchObject({ campaignId: campaign!.id, name: 'News', sent: 1 });
    expect(byType.get('contact.bounced')!.data).toMatchObject({ email: 'ann@example.com', bounceType: 'HARD', campaignId: campaign!.id });
    expect(byType.get('contact.complained')!.data).toMatchObject({ complaintType: 'abuse' });

    // A signature with another secret does not verify (the check above can fail).
    const hit = receiver.received[0]!;
    expect(() =>
      new Webhook('whsec_' + Buffer.alloc(32, 7).toString('base64')).verify(hit.body, hit.headers as Record<string, string>),
    ).toThrow();

    const log = await get(`/api/webhooks/${created.body.id}/deliveries?limit=5`);
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(5);
    expect(log.body.nextBefore).toBe(log.body.items[4].id);
    expect(log.body.items.every((d: { status: string }) => d.status === 'DELIVERED')).toBe(true);
    const rest = await get(`/api/webhooks/${created.body.id}/deliveries?before=${log.body.nextBefore}&status=DELIVERED`);
    expect(rest.body.items).toHaveLength(ALL_EVENTS.length - 5);
    expect(rest.body.nextBefore).toBeNull();
  });

  it('sends an endpoint only the events it asked for, and nothing when it is off', async () => {
    await post('/api/webhooks', { url: `${receiver.url}/some`, events: ['import.finished'] });
    await post('/api/webhooks', { url: `${receiver.url}/off`, events: ['import.finished'], enabled: false });
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [{ email: 'bo@example.com' }] });
    await query(
      `INSERT INTO consent_ledger (audience_id, address_key, email, event) VALUES ($1, 'bo@example.com', 'bo@example.com', 'SUBSCRIBED')`,
      [audience.id],
    );
    await query(`INSERT INTO consent_ledger (audience_id, event, contacts) VALUES ($1, 'IMPORTED', 3)`, [audience.id]);
    await until(() => receiver.received.length >= 1 || undefined, 'the import');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.map((hit) => [hit.path, bodyOf(hit).type])).toEqual([['/some', 'import.finished']]);
  });

  it('retries a failing endpoint with growing delays and the same id, logging each attempt', async () => {
    receiver.answer = (n) => (n <= 2 ? 500 : 200);
    const created = await post('/api/webhooks', { url: `${receiver.url}/flaky`, events: ['import.finished'] });
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [] });
    await query(`INSERT INTO consent_ledger (audience_id, event, contacts) VALUES ($1, 'IMPORTED', 1)`, [audience.id]);

    await until(() => receiver.received.length >= 3 || undefined, 'three attempts');
    const [first, second, third] = receiver.received;
    expect(new Set(receiver.received.map((hit) => hit.headers['webhook-id'])).size).toBe(1);
    expect(first!.body).toBe(third!.body);
    // Backoff: base, then twice the base (the poller adds up to a quarter second).
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(RETRY_BASE_MS - 20);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS - 20);

    const page = await get(`/api/webhooks/${created.body.id}/deliveries`);
    const deliveryId = page.body.items[0].id as number;
    const detail = await until(async () => {
      const res = await get(`/api/webhook-deliveries/${deliveryId}`);
      return res.body.status === 'DELIVERED' ? res : undefined;
    }, 'delivered');
    expect(detail.body.attempts).toBe(3);
    expect(detail.body.messageId).toBe(first!.headers['webhook-id']);
    expect(detail.body.attemptLog.map((a: { status: number }) => a.status)).toEqual([500, 500, 200]);
    expect(detail.body.payload).toMatchObject({ type: 'import.finished', data: { audienceId: audience.id } });
  });

  it('marks a delivery failed once its time is up, and re-sends it with the same id', async () => {
    receiver.answer = () => 503;
    const created = await post('/api/webhooks', { url: `${receiver.url}/down`, events: ['import.finished'] });
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [] });
    // As if 24 hours had passed since the event: the next failure is the last.
    await query(`INSERT INTO consent_ledger (audience_id, event, contacts) VALUES ($1, 'IMPORTED', 1)`, [audience.id]);
    await query(`UPDATE webhook_deliveries SET give_up_at = now() + interval '50 milliseconds' WHERE endpoint_id = $1`, [created.body.id]);
    const failed = await until(async () => {
      const res = await get(`/api/webhooks/${created.body.id}/deliveries?status=FAILED`);
      return res.body.items.length === 1 ? res.body.items[0] : undefined;
    }, 'failed');
    expect(failed).toMatchObject({ status: 'FAILED', lastStatus: 503, nextAttemptAt: null });
    const triedBefore = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.received).toHaveLength(triedBefore);

    receiver.answer = () => 200;
    expect((await post(`/api/webhook-deliveries/${failed.id}/resend`)).status).toBe(204);
    expect((await post(`/api/webhook-deliveries/${failed.id}/resend`)).status).toBe(409);
    await until(async () => ((await get(`/api/webhook-deliveries/${failed.id}`)).body.status === 'DELIVERED' ? true : undefined), 'resent');
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(failed.messageId);
    expect((await post(`/api/webhook-deliveries/999999/resend`)).status).toBe(404);
  });

  it('gives up an attempt that gets no answer in time, and tries it again later', async () => {
    receiver.answer = (n) => (n === 1 ? 'hang' : 204);
    const created = await post('/api/webhooks', { url: `${receiver.url}/slow`, events: ['import.finished'] });
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [] });
    await query(`INSERT INTO consent_ledger (audience_id, event, contacts) VALUES ($1, 'IMPORTED', 1)`, [audience.id]);
    const page = await until(async () => {
      const res = await get(`/api/webhooks/${created.body.id}/deliveries`);
      return res.body.items[0]?.status === 'DELIVERED' ? res : undefined;
    }, 'delivered after a timeout');
    const detail = await get(`/api/webhook-deliveries/${page.body.items[0].id}`);
    expect(detail.body.attemptLog[0]).toMatchObject({ status: null, error: 'No answer within 1 s' });
    expect(detail.body.attemptLog[0].durationMs).toBeGreaterThanOrEqual(950);
    expect(detail.body.attemptLog[1]).toMatchObject({ status: 204, error: null });
  });

  it('a dead endpoint holds up nobody else: its attempts wait in its own line', async () => {
    receiver.answer = (_n, hit) => (hit.path === '/dead' ? 'hang' : 204);
    const dead = await post('/api/webhooks', { url: `${receiver.url}/dead`, events: ['import.finished'] });
    await post('/api/webhooks', { url: `${receiver.url}/live`, events: ['import.finished'] });
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [] });
    // 80 deliveries each: the dead endpoint's take 80 / 8 at once x 1 s = 10 s to go through once.
    await query(`INSERT INTO consent_ledger (audience_id, event, contacts) SELECT $1, 'IMPORTED', n FROM generate_series(1, 80) n`, [
      audience.id,
    ]);
    const started = Date.now();
    await until(() => receiver.received.filter((hit) => hit.path === '/live').length >= 80 || undefined, 'the live endpoint', 8_000);
    const liveSeconds = (Date.now() - started) / 1000;
    const [counted] = await query<{ tried: number }>(
      `SELECT count(*)::int AS tried FROM webhook_deliveries WHERE endpoint_id = $1 AND attempts > 0`,
      [dead.body.id],
    );
    expect(liveSeconds).toBeLessThan(8);
    // The dead endpoint's deliveries are far from all tried: the live ones did not wait for them.
    expect(counted!.tried).toBeLessThan(40);
    // Never more than WEBHOOK_ENDPOINT_CONCURRENCY (8) of its attempts at once in this worker.
    const deadHits = receiver.received.filter((hit) => hit.path === '/dead');
    const inFirstSecond = deadHits.filter((hit) => hit.at - deadHits[0]!.at < 900);
    expect(inFirstSecond.length).toBeLessThanOrEqual(8);
  });

  it("an erasure takes the person's address out of the deliveries kept, and its own event names only the erased key", async () => {
    receiver.answer = (_n, hit) => (hit.path === '/down' ? 503 : 204);
    const down = await post('/api/webhooks', { url: `${receiver.url}/down`, events: ['contact.unsubscribed'] });
    await post('/api/webhooks', { url: `${receiver.url}/erasures`, events: ['contact.erased'] });
    const audience = await seedAudience(t.db.pool, { headers: ['email'], contacts: [{ email: 'cy@example.com' }] });
    await query(`INSERT INTO consent_ledger (audience_id, address_key, email, event) VALUES ($1, address_key($2), $2, 'UNSUBSCRIBED')`, [
      audience.id,
      'Cy@Example.com',
    ]);
    await until(() => receiver.received.some((hit) => hit.path === '/down') || undefined, 'a failed attempt');
    expect((await post('/api/people/erase', { email: 'cy@example.com' })).status).toBe(200);

    const [kept] = await query<{ payload: { data: { email: string } }; address_key: string }>(
      'SELECT payload, address_key FROM webhook_deliveries WHERE endpoint_id = $1',
      [down.body.id],
    );
    expect(kept!.payload.data.email).toMatch(/^erased:/);
    expect(kept!.address_key).toBe(kept!.payload.data.email);
    expect(JSON.stringify(await query('SELECT * FROM webhook_deliveries'))).not.toMatch(/cy@example\.com/i);
    const erasure = await until(() => receiver.received.find((hit) => hit.path === '/erasures'), 'the erasure event');
    expect(bodyOf(erasure).data).toEqual({ erasedKey: kept!.payload.data.email, audienceId: audience.id });
  });
});
