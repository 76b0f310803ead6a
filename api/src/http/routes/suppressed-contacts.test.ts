/**
 * GET /api/audiences/{id}/suppressed-contacts: how many of an audience's valid contacts a send skips
 * because their address is suppressed, in all and per reason, on the real PostgreSQL. The count walks
 * the smaller side (suppressions or the audience's contacts, see suppressions/repository.ts): both
 * shapes must give the same figures.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, type SeedContact } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';

let t: TestApp;
let auth: string;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string) => request(t.app).get(path).set('Authorization', auth);

async function suppress(reason: 'UNSUBSCRIBE' | 'HARD_BOUNCE' | 'COMPLAINT', ...emails: string[]) {
  await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) SELECT unnest($1::text[]), $2`, [
    emails.map((email) => email.toLowerCase()),
    reason,
  ]);
}

/** The planner's estimate of the suppressions, which picks the side the count walks. */
const analyze = () => t.db.pool.query('ANALYZE suppressions');

describe('suppressed contacts of an audience', () => {
  it('counts the valid contacts whose address is suppressed, per reason, whatever the case of the address', async () => {
    const people: SeedContact[] = [
      { email: 'Ann@Example.org' },
      { email: 'bob@example.org' },
      { email: 'carl@example.org' },
      { email: 'dora@example.org' },
      { email: 'eve@example.org' },
      // Invalid contacts are never sent to: not counted as suppressed, even when their address is.
      { email: 'fred@example.org', error: 'Duplicate email address in this audience' },
    ];
    const audience = await seedAudience(t.db.pool, { headers: [], contacts: people });
    // Another audience with the same addresses: its contacts are not this audience's.
    const other = await seedAudience(t.db.pool, { headers: [], contacts: [{ email: 'ann@example.org' }, { email: 'zoe@example.org' }] });
    await suppress('UNSUBSCRIBE', 'ann@example.org', 'BOB@example.org');
    await suppress('HARD_BOUNCE', 'carl@example.org', 'fred@example.org');
    await suppress('COMPLAINT', 'dora@example.org', 'nobody@example.org');

    const expected = { suppressedContacts: 4, unsubscribed: 2, hardBounced: 1, complained: 1 };
    // Few suppressions known to the planner (never analyzed): the count walks the suppressions.
    const res = await get(`/api/audiences/${audience.id}/suppressed-contacts`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expected });
    expect((await get(`/api/audiences/${other.id}/suppressed-contacts`)).body).toEqual({
      suppressedContacts: 1,
      unsubscribed: 1,
      hardBounced: 0,
      complained: 0,
    });

    // More suppressions than the audience's valid contacts: the count walks the contacts, same figures.
    await suppress('HARD_BOUNCE', ...Array.from({ length: 50 }, (_, i) => `gone${i}@example.org`));
    await analyze();
    expect((await get(`/api/audiences/${audience.id}/suppressed-contacts`)).body).toEqual(expected);
  });

  it('counts a contact that left the audience in the preference centre as unsubscribed, once even when suppressed too', async () => {
    const audience = await seedAudience(t.db.pool, {
      headers: [],
      contacts: [{ email: 'gil@example.org' }, { email: 'hal@example.org' }, { email: 'ida@example.org' }],
    });
    // The same address left in another audience: not this one's.
    const other = await seedAudience(t.db.pool, { headers: [], contacts: [{ email: 'ida@example.org' }] });
    await t.db.pool.query(
      `UPDATE contacts SET unsubscribed_at = now() WHERE audience_id = $1 AND email IN ('gil@example.org', 'hal@example.org')`,
      [audience.id],
    );
    await t.db.pool.query(`UPDATE contacts SET unsubscribed_at = now() WHERE audience_id = $1`, [other.id]);
    await suppress('COMPLAINT', 'hal@example.org');
    expect((await get(`/api/audiences/${audience.id}/suppressed-contacts`)).body).toEqual({
      suppressedContacts: 2,
      unsubscribed: 1,
      hardBounced: 0,
      complained: 1,
    });
  });

  it('counts nothing for an audience without suppressed contacts, and answers 404 for an unknown or deleted one', async () => {
    const clean = await seedAudience(t.db.pool, { headers: [], contacts: [{ email: 'clean@example.org' }] });
    expect((await get(`/api/audiences/${clean.id}/suppressed-contacts`)).body).toEqual({
      suppressedContacts: 0,
      unsubscribed: 0,
      hardBounced: 0,
      complained: 0,
    });
    expect((await get('/api/audiences/999999/suppressed-contacts')).status).toBe(404);
    await t.db.pool.query('UPDATE audiences SET deleted_at = now() WHERE id = $1', [clean.id]);
    expect((await get(`/api/audiences/${clean.id}/suppressed-contacts`)).status).toBe(404);
    expect((await request(t.app).get(`/api/audiences/${clean.id}/suppressed-contacts`)).status).toBe(401);
  });
});
