/**
 * The role table (issue 27): EVERY /api operation of openapi.yaml, read from the file, called with a valid request by
 * a member of EVERY role. A role below the operation's x-mailroom-role is refused 403 with a message naming who can;
 * a role at or above it is never refused for its role (the call may still fail for its own reasons: a 404 for an id
 * that a delete removed, a 409). Also: what the roles come from (the claim, the map, the default).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../auth/roles.js';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { buildUrl, doc, operations, paramSample, sample, type Json, type Operation } from '../../test/support/contract-operations.js';
import { startTestSes, type TestSes } from '../../test/support/ses.js';
import { bearer } from '../../test/support/tokens.js';

const ROLE_MAP = 'team-viewers=viewer,team-editors=editor,team-senders=sender,team-admins=admin';
const CSV = 'email,name\nann@example.org,Ann\n';

const roleOf = (op: Operation): Role =>
  (doc.paths as Record<string, Record<string, Json>>)[op.path]![op.method]!['x-mailroom-role'] as Role;

/** The role refusal's words (auth/access.ts), told apart from a 403 a service answers for its own rule. */
const ROLE_REFUSAL = /can do this; you are an? (viewer|editor|sender)$/;

function call(t: TestApp, op: Operation, authorization: string) {
  const pathValues = Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, paramSample(p)]));
  const query: [string, string][] = op.params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, paramSample(p)]);
  const agent = request(t.app);
  let req = agent[op.method](buildUrl(op, pathValues, query)).set('Authorization', authorization);
  if (op.jsonBody) req = req.set('content-type', 'application/json').send(JSON.stringify(sample(op.jsonBody)));
  else if (op.multipart) req = req.attach('file', Buffer.from(CSV), { filename: 'contacts.csv', contentType: 'text/csv' });
  return req;
}

describe('every operation with every role', () => {
  let t: TestApp;
  let ses: TestSes;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    ses = await startTestSes();
    t = await createTestApp({
      ses: ses.client,
      env: { ROLE_MAP, OIDC_ROLES_CLAIM: 'realm_access.roles', RATE_LIMIT_SIGN_IN_FAILURES: '1000000' },
    });
    for (const role of ROLES)
      tokens[role] = await bearer({ email: `${role}@example.org`, claims: { realm_access: { roles: [`team-${role}s`] } } });
    // One entity of each kind (id 1 in this fresh database), so that ids point at something real.
    for (const op of operations.filter((o) => o.method === 'post' && !o.path.includes('{') && o.jsonBody)) await call(t, op, tokens.admin);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await ses?.close();
  });

  it('declares a role for every /api operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(80);
    expect(operations.filter((op) => !ROLES.includes(roleOf(op))).map((op) => op.id)).toEqual([]);
  });

  it('refuses exactly the roles below the one the contract names, and says who can', async () => {
    const wrong: string[] = [];
    const counts = { refused: 0, allowed: 0 };
    // Lowest role first, so that an admin's delete comes after everyone else's call of the same id.
    for (const role of ROLES) {
      for (const op of operations) {
        const needed = roleOf(op);
        const allowed = ROLES.indexOf(role) >= ROLES.indexOf(needed);
        const { status, body } = await call(t, op, tokens[role]);
        const message = typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : '';
        const refusedForRole = status === 403 && ROLE_REFUSAL.test(message);
        if (allowed && refusedForRole) wrong.push(`${role} ${op.id}: refused (${message})`);
        if (!allowed && !refusedForRole) wrong.push(`${role} ${op.id}: ${status} ${message}, expected 403 for needing ${needed}`);
        if (!allowed && refusedForRole && !message.startsWith(`${needed.charAt(0).toUpperCase()}${needed.slice(1)}s`)) {
          wrong.push(`${role} ${op.id}: the refusal "${message}" does not start with who can (${needed})`);
        }
        counts[allowed ? 'allowed' : 'refused'] += 1;
        if (status >= 500) wrong.push(`${role} ${op.id}: ${status} ${message}`);
      }
    }
    console.info(`role walk: ${operations.length} operations x ${ROLES.length} roles, ${JSON.stringify(counts)}`);
    expect(wrong).toEqual([]);
    expect(counts.refused).toBeGreaterThan(50);
  }, 300_000);

  it('tells the caller its role', async () => {
    for (const role of ROLES) {
      const { body } = await request(t.app).get('/api/me').set('Authorization', tokens[role]).expect(200);
      expect(body).toMatchObject({ email: `${role}@example.org`, role, apiKey: false });
    }
  });

  it('makes a member with no mapped value a viewer, and the highest of several mapped values wins', async () => {
    const none = await bearer({ email: 'nobody@example.org', claims: { realm_access: { roles: ['someone-else'] } } });
    expect((await request(t.app).get('/api/me').set('Authorization', none)).body.role).toBe('viewer');
    const missing = await bearer({ email: 'nothing@example.org' });
    expect((await request(t.app).get('/api/me').set('Authorization', missing)).body.role).toBe('viewer');
    const several = await bearer({ email: 'both@example.org', claims: { realm_access: { roles: ['team-senders', 'team-viewers'] } } });
    expect((await request(t.app).get('/api/me').set('Authorization', several)).body.role).toBe('sender');
  });

  it('shows a member below admin their own activity only', async () => {
    await request(t.app).post('/api/audiences').set('Authorization', tokens.editor).send({ name: 'Editor audience' }).expect(201);
    await request(t.app).post('/api/audiences').set('Authorization', tokens.admin).send({ name: 'Admin audience' }).expect(201);
    const mine = await request(t.app).get('/api/activity?member=admin').set('Authorization', tokens.editor).expect(200);
    const emails = new Set((mine.body as { items: { memberEmail: string }[] }).items.map((item) => item.memberEmail));
    expect([...emails]).toEqual(['editor@example.org']);
    const all = await request(t.app).get('/api/activity').set('Authorization', tokens.admin).expect(200);
    const allEmails = new Set((all.body as { items: { memberEmail: string }[] }).items.map((item) => item.memberEmail));
    expect(allEmails).toContain('editor@example.org');
    expect(allEmails).toContain('admin@example.org');
  });
});

describe('without ROLE_MAP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('makes every member admin, whatever the token says (the spec, unchanged)', async () => {
    const token = await bearer({ claims: { roles: ['team-viewers'] } });
    expect((await request(t.app).get('/api/me').set('Authorization', token)).body.role).toBe('admin');
    await request(t.app).get('/api/api-keys').set('Authorization', token).expect(200);
  });
});
