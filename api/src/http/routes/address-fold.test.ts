/**
 * One fold of an address (address_key, migration 0017) for every path, on the real PostgreSQL: a
 * member's suppressions, the unsubscribe link, SES events and soft-bounce streaks key the address as
 * sending, the suppressed-contacts count and the searches compare it, whatever the database's
 * locale would make of lower(). Greek (final sigma), Turkish (dotted capital I), German and mixed
 * scripts.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { dispatchRepository } from '../../services/sending/dispatch-repository.js';
import { sesEventRepository } from '../../services/ses-events/repository.js';
import { trackingRepository } from '../../services/tracking/repository.js';

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
const add = (text: string) => request(t.app).post('/api/suppressions').set('Authorization', auth).send({ text });

/** Creates the jobs of a new campaign on the audience, as a send does: the addresses it would mail. */
async function mailed(audienceId: number): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ id: number }>(`INSERT INTO campaigns (name, audience_id) VALUES ('Fold', $1) RETURNING id`, [
    audienceId,
  ]);
  const campaignId = rows[0]!.id;
  await t.db.database.transaction((tx) => dispatchRepository(t.db.database).createJobs(tx, campaignId, audienceId, { contacts: 'all' }));
  const jobs = await t.db.pool.query<{ email: string }>('SELECT email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id', [campaignId]);
  return jobs.rows.map((row) => row.email);
}

const suppressedCount = async (audienceId: number) =>
  (await get(`/api/audiences/${audienceId}/suppressed-contacts`).expect(200)).body.suppressedContacts as number;

describe('the address fold', () => {
  it("suppresses a member's non-ASCII addresses for the send, the count and the search, in any case", async () => {
    await t.db.pool.query('TRUNCATE suppressions');
    const audience = await seedAudience(t.db.pool, {
      headers: [],
      contacts: [
        { email: 'ΟΔΟΣ@uni.example' },
        { email: 'İX@uni.example' },
        { email: 'ÄBC@uni.example' },
        { email: 'Jürgen.ΣΟΦΙΑ@Straße.example' },
        { email: 'clean@uni.example' },
      ],
    });
    const res = await add('ΟΔΟΣ@uni.example\nİX@uni.example\nÄBC@uni.example\njürgen.σοφια@STRAßE.example\nJÜRGEN.ΣΟΦΙΑ@STRAßE.EXAMPLE\n');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 4, alreadySuppressed: 1, invalidLines: 0 });

    // The keys are the addresses as Unicode lower-cases them (JavaScript does the same), not as the locale would.
    const { rows } = await t.db.pool.query<{ email_lower: string }>('SELECT email_lower FROM suppressions');
    expect(rows.map((row) => row.email_lower).sort()).toEqual(
      ['ΟΔΟΣ@uni.example', 'İX@uni.example', 'ÄBC@uni.example', 'jürgen.σοφια@STRAßE.example'].map((email) => email.toLowerCase()).sort(),
    );

    expect(await suppressedCount(audience.id)).toBe(4);
    // Both shapes of the count (by suppression, by contact) agree.
    await t.db.pool.query('ANALYZE suppressions');
    await t.db.pool.query(`UPDATE pg_class SET reltuples = 1e9 WHERE oid = 'suppressions'::regclass`);
    expect(await suppressedCount(audience.id)).toBe(4);
    await t.db.pool.query('ANALYZE suppressions');

    expect(await mailed(audience.id)).toEqual(['clean@uni.example']);

    for (const term of ['ΟΔΟΣ', 'οδος', 'İX', 'ÄBC', 'äbc', 'ΣΟΦΙΑ@STRAßE']) {
      expect((await get(`/api/suppressions?email=${encodeURIComponent(term)}`).expect(200)).body.totalItems, term).toBe(1);
    }
    for (const term of ['ΟΔΟΣ', 'İX', 'äbc', 'ΣΟΦΙΑ@straße']) {
      const found = (await get(`/api/audiences/${audience.id}/contacts?email=${encodeURIComponent(term)}`).expect(200)).body;
      expect(found.meta.totalItems, term).toBe(1);
    }
    // The audience's list shows each suppressed contact with its reason (an addition), the rest as valid.
    const list = (await get(`/api/audiences/${audience.id}/contacts?limit=25`).expect(200)).body;
    expect(list.items.map((c: { suppressionReason: string | null }) => c.suppressionReason)).toEqual([
      'MEMBER',
      'MEMBER',
      'MEMBER',
      'MEMBER',
      null,
    ]);
    const searched = (await get(`/api/audiences/${audience.id}/contacts?email=clean`).expect(200)).body;
    expect(searched.items).toEqual([expect.objectContaining({ email: 'clean@uni.example', suppressionReason: null })]);
    const exported = (await get(`/api/suppressions/export?email=${encodeURIComponent('ΟΔΟΣ')}`).expect(200)).text;
    expect(exported.trim().split('\n')).toHaveLength(2);
  });

  it('keys an unsubscribe, an SES bounce or complaint and a run of soft bounces the same way', async () => {
    await t.db.pool.query('TRUNCATE suppressions');
    const sender = await seedAudience(t.db.pool, { headers: [], contacts: [{ email: 'ΟΔΟΣ@uni.example' }] });
    const { rows } = await t.db.pool.query<{ id: number }>(`INSERT INTO campaigns (name, audience_id) VALUES ('Sent', $1) RETURNING id`, [
      sender.id,
    ]);
    const campaignId = rows[0]!.id;
    const job = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status) VALUES ($1, $2, 'ΟΔΟΣ@uni.example', 'SENT_SUCCESS') RETURNING id`,
      [campaignId, sender.contactIds[0]],
    );
    expect((await trackingRepository(t.db.database).unsubscribe(job.rows[0]!.id)).found).toBe(true);

    const ses = sesEventRepository(t.db.database);
    await t.db.database.transaction((tx) => ses.suppress(tx, ['İX@UNI.example', 'i̇x@uni.example'], 'HARD_BOUNCE', campaignId));
    for (const message of ['m1', 'm2', 'm3'])
      await t.db.database.transaction((tx) => ses.countSoftBounces(tx, ['ÄBC@uni.example'], message, 3, campaignId));
    await t.db.database.transaction((tx) => ses.countSoftBounces(tx, ['MÜLLER@uni.example'], 'm4', 3, campaignId));
    await t.db.database.transaction((tx) => ses.resetSoftBounces(tx, ['müller@UNI.example']));
    expect((await t.db.pool.query('SELECT email_lower FROM soft_bounce_streaks')).rows).toEqual([]);

    // Another audience holds the same people, typed otherwise: none of them is mailed.
    const audience = await seedAudience(t.db.pool, {
      headers: [],
      contacts: [{ email: 'οδος@UNI.EXAMPLE' }, { email: 'İx@uni.example' }, { email: 'äbc@uni.example' }, { email: 'ok@uni.example' }],
    });
    expect(await suppressedCount(audience.id)).toBe(3);
    expect(await mailed(audience.id)).toEqual(['ok@uni.example']);
    const reasons = await t.db.pool.query<{ reason: string }>('SELECT reason FROM suppressions ORDER BY id');
    expect(reasons.rows.map((row) => row.reason)).toEqual(['UNSUBSCRIBE', 'HARD_BOUNCE', 'SOFT_BOUNCE']);
  });

  it('folds in the database whatever its locale or build: address_key names its collations', async () => {
    const { rows } = await t.db.pool.query<{ key: string; c: string }>(
      `SELECT address_key(e) AS key, lower(e COLLATE "C") AS c FROM unnest($1::text[]) WITH ORDINALITY AS a(e, n) ORDER BY n`,
      [['ΟΔΟΣ@UNI.EXAMPLE', 'İX@uni.example', 'ẞ@X.DE', 'Ǆ@x.de', 'MiXeD@Example.ORG', 'ΣΑΣ.Ab@uni.example']],
    );
    expect(rows.map((row) => row.key)).toEqual(
      ['ΟΔΟΣ@UNI.EXAMPLE', 'İX@uni.example', 'ẞ@X.DE', 'Ǆ@x.de', 'MiXeD@Example.ORG', 'ΣΑΣ.Ab@uni.example'].map((e) => e.toLowerCase()),
    );
    // The ASCII path is lower() of "C": the same as Unicode's for ASCII.
    expect(rows[4]!.key).toBe(rows[4]!.c);
  });
});
