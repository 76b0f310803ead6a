/**
 * API keys (issue 27): an admin's keys, shown once and stored as a hash; their scopes, expiry and revocation, which
 * every API process honours within a second; their calls in the activity log under the key's name; their own rate limit.
 */
import { createHash } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps, createDeps, type AppDeps } from '../../deps.js';
import { createApp } from '../app.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer, testVerifier } from '../../../test/support/tokens.js';

const ROLE_MAP = 'team-admins=admin,team-editors=editor';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('API keys', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  /** A second API process on the same database: its own key cache. */
  let otherDeps: AppDeps;
  let other: Express;

  const createKey = async (body: Record<string, unknown>) =>
    (
      await request(t.app)
        .post('/api/api-keys')
        .set('Authorization', admin)
        .send({ expiresAt: inDays(30), ...body })
        .expect(201)
    ).body as { id: number; key: string; prefix: string };
  const asKey = (app: Express, key: string) => ({
    get: (path: string) => request(app).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => request(app).post(path).set('Authorization', `Bearer ${key}`).send(body),
  });

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE_MAP } });
    admin = await bearer({ email: 'ada@example.org', claims: { roles: ['team-admins'] } });
    editor = await bearer({ email: 'eddie@example.org', claims: { roles: ['team-editors'] } });
    otherDeps = await createDeps(t.config, { verifier: testVerifier({ roleMap: t.config.roles.map }) });
    other = createApp(otherDeps);
  });
  afterAll(async () => {
    await closeDeps(otherDeps).catch(() => {});
    await t?.close();
  });

  it('are made by admins only, and the key is shown once while only its hash is stored', async () => {
    await request(t.app)
      .post('/api/api-keys')
      .set('Authorization', editor)
      .send({ name: 'x', scopes: ['viewer'], expiresAt: inDays(1) })
      .expect(403);
    const created = await createKey({ name: 'Reporting', scopes: ['viewer'] });
    expect(created.key).toMatch(/^mr_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const list = await request(t.app).get('/api/api-keys').set('Authorization', admin).expect(200);
    const listed = (list.body as Record<string, unknown>[]).find((key) => key.id === created.id)!;
    expect(listed).toMatchObject({ name: 'Reporting', scopes: ['viewer'], createdBy: 'ada@example.org', revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(created.key);

    const { rows } = await t.db.pool.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [created.id]);
    expect(rows[0]!.key_hash).toEqual(createHash('sha256').update(created.key).digest());
    expect(JSON.stringify(rows[0])).not.toContain(created.key.slice(12));
  });

  it('authenticates calls, within its scopes only, and never manages keys', async () => {
    const reader = await createKey({ name: 'Reader', scopes: ['viewer'] });
    await asKey(t.app, reader.key).get('/api/audiences').expect(200);
    const refused = await asKey(t.app, reader.key).post('/api/audiences', { name: 'By a reader' }).expect(403);
    expect(refused.body.message).toBe(
      'The API key "Reader" has no scope for createAudience: it needs the editor scope or a higher one, or createAudience itself',
    );

    // An operation scope allows that one operation, beside what a role scope allows.
    const narrow = await createKey({ name: 'Audience maker', scopes: ['createAudience'] });
    await asKey(t.app, narrow.key).post('/api/audiences', { name: 'Made by a key' }).expect(201);
    const other = await asKey(t.app, narrow.key).get('/api/audiences').expect(403);
    expect(other.body.message).toMatch(/^The API key "Audience maker" has no scope for listAudiences: it needs the viewer scope/);

    const strongest = await createKey({ name: 'Everything', scopes: ['admin'] });
    await asKey(t.app, strongest.key).get('/api/campaigns').expect(200);
    await asKey(t.app, strongest.key).get('/api/api-keys').expect(403);
    await request(t.app)
      .post('/api/api-keys')
      .set('Authorization', admin)
      .send({ name: 'Bad', scopes: ['revokeApiKey'], expiresAt: inDays(1) })
      .expect(400);
    await request(t.app)
      .post('/api/api-keys')
      .set('Authorization', admin)
      .send({ name: 'Bad', scopes: ['doEverything'], expiresAt: inDays(1) })
      .expect(400);
    const me = await asKey(t.app, strongest.key).get('/api/me').expect(200);
    expect(me.body).toMatchObject({ apiKey: true, firstName: 'Everything' });
  });

  it("records a key's changes in the activity log under the key's name", async () => {
    const key = await createKey({ name: 'Sync job', scopes: ['editor'] });
    const { body } = await asKey(t.app, key.key).post('/api/audiences', { name: 'Synced' }).expect(201);
    const log = await request(t.app)
      .get(`/api/activity?objectType=audience&objectId=${body.id as number}`)
      .set('Authorization', admin)
      .expect(200);
    expect((log.body as { items: { memberEmail: string }[] }).items.map((item) => item.memberEmail)).toEqual(['api key: sync job']);
  });

  it("records an admin's making and revoking of a key in the activity log, never the key itself", async () => {
    const key = await createKey({ name: 'Logged key', scopes: ['viewer'] });
    await request(t.app).delete(`/api/api-keys/${key.id}`).set('Authorization', admin).expect(200);
    const log = await request(t.app).get(`/api/activity?objectType=api-key&objectId=${key.id}`).set('Authorization', admin).expect(200);
    const items = (log.body as { items: { kind: string; objectName: string; objectExists: boolean; details: Record<string, unknown> }[] })
      .items;
    expect(items.map((item) => [item.kind, item.objectName, item.objectExists])).toEqual([
      ['api-key-revoke', 'Logged key', false],
      ['api-key-create', 'Logged key', false],
    ]);
    expect(items[1]!.details).toMatchObject({ scopes: ['viewer'] });
    expect(JSON.stringify(items)).not.toContain(key.key);
  });

  it('refuses a key past its expiry, and an expiry in the past or too far ahead', async () => {
    await request(t.app)
      .post('/api/api-keys')
      .set('Authorization', admin)
      .send({ name: 'Old', scopes: ['viewer'], expiresAt: inDays(-1) })
      .expect(400);
    await request(t.app)
      .post('/api/api-keys')
      .set('Authorization', admin)
      .send({ name: 'Long', scopes: ['viewer'], expiresAt: inDays(400) })
      .expect(400);
    const key = await createKey({ name: 'Short-lived', scopes: ['viewer'] });
    await asKey(t.app, key.key).get('/api/audiences').expect(200);
    await t.db.pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [key.id]);
    const refusedAfter = await refusedWithin([t.app], key.key, 1000);
    expect(refusedAfter).toBeLessThan(1000);
  });

  it('refuses a revoked key within a second on every API process', async () => {
    const key = await createKey({ name: 'Revoked soon', scopes: ['viewer'] });
    // Both processes have read the key (their caches hold it).
    await asKey(t.app, key.key).get('/api/audiences').expect(200);
    await asKey(other, key.key).get('/api/audiences').expect(200);
    const revoked = await request(t.app).delete(`/api/api-keys/${key.id}`).set('Authorization', admin).expect(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const took = await refusedWithin([t.app, other], key.key, 1000);
    console.info(`a revoked key was refused by both API processes after ${took} ms`);
    expect(took).toBeLessThan(1000);
    const refused = await asKey(other, key.key).get('/api/audiences').expect(401);
    expect(refused.body.message).toBe('Invalid, revoked or expired API key');
    await request(t.app).delete('/api/api-keys/999999').set('Authorization', admin).expect(404);
    // The name is free again once revoked; a live key's name is not.
    await createKey({ name: 'Revoked soon', scopes: ['viewer'] });
    await request(t.app)
      .post('/api/api-keys')
      .set('Authorization', admin)
      .send({ name: 'revoked SOON', scopes: ['viewer'], expiresAt: inDays(1) })
      .expect(409);
  });

  /** Milliseconds until every app refuses the key (401), polling each every 20 ms; `limit` + 1 when one never did. */
  async function refusedWithin(apps: Express[], key: string, limit: number): Promise<number> {
    const started = Date.now();
    const pending = new Set(apps);
    while (pending.size > 0 && Date.now() - started <= limit) {
      for (const app of [...pending]) if ((await asKey(app, key).get('/api/audiences')).status === 401) pending.delete(app);
      if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return pending.size === 0 ? Date.now() - started : limit + 1;
  }
});

describe('API key rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_API_KEY: '3' } });
  });
  afterAll(() => t?.close());

  it('counts per key, and leaves other keys and members alone', async () => {
    const admin = await bearer();
    const make = async (name: string) =>
      (
        (
          await request(t.app)
            .post('/api/api-keys')
            .set('Authorization', admin)
            .send({ name, scopes: ['viewer'], expiresAt: inDays(1) })
            .expect(201)
        ).body as { key: string }
      ).key;
    const [first, second] = [await make('First'), await make('Second')];
    for (let i = 0; i < 3; i++) await request(t.app).get('/api/audiences').set('Authorization', `Bearer ${first}`).expect(200);
    const limited = await request(t.app).get('/api/audiences').set('Authorization', `Bearer ${first}`).expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    await request(t.app).get('/api/audiences').set('Authorization', `Bearer ${second}`).expect(200);
    for (let i = 0; i < 5; i++) await request(t.app).get('/api/audiences').set('Authorization', admin).expect(200);
  });
});
