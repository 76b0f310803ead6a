/**
 * The suppressions calls (an addition to the spec) on the real PostgreSQL: keyset pages newest first
 * with totals kept by triggers, exact address searches, reason filters, a member's additions with
 * every invalid line reported, recorded removals (a complaint's needing the second confirmation),
 * and the CSV export made inert.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
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
const add = (text: string) => request(t.app).post('/api/suppressions').set('Authorization', auth).send({ text });
const remove = (id: number, query = '') => request(t.app).delete(`/api/suppressions/${id}${query}`).set('Authorization', auth);

async function suppress(reason: string, emails: string[], campaignId: number | null = null) {
  await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason, campaign_id) SELECT unnest($1::text[]), $2, $3`, [
    emails,
    reason,
    campaignId,
  ]);
}
const emailsOf = (body: { items: { email: string }[] }) => body.items.map((item) => item.email);

describe('the suppressions list', () => {
  it('pages newest first by keyset, with totals per reason, the campaign each came from, and exact searches', async () => {
    await t.db.pool.query('TRUNCATE suppressions');
    const { rows } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaigns (name, status) VALUES ('Autumn news', 'SENT') RETURNING id`,
    );
    const campaignId = rows[0]!.id;
    const addresses = Array.from({ length: 25 }, (_, i) => `person${String(i).padStart(2, '0')}@example.org`);
    await suppress('HARD_BOUNCE', addresses.slice(0, 10), campaignId);
    await suppress('UNSUBSCRIBE', addresses.slice(10, 20), campaignId);
    await suppress('COMPLAINT', addresses.slice(20), campaignId);
    const newestFirst = [...addresses].reverse();

    const first = (await get('/api/suppressions?limit=10').expect(200)).body;
    expect(emailsOf(first)).toEqual(newestFirst.slice(0, 10));
    expect(first).toMatchObject({ totalItems: 25, hasNewer: false, hasOlder: true, offset: 0 });
    expect(first.items[0]).toMatchObject({ reason: 'COMPLAINT', campaignId, campaignName: 'Autumn news', addedBy: null });
    const next = (await get(`/api/suppressions?limit=10&after=${first.items[9].id}`).expect(200)).body;
    expect(emailsOf(next)).toEqual(newestFirst.slice(10, 20));
    expect(next).toMatchObject({ hasNewer: true, hasOlder: true });
    const back = (await get(`/api/suppressions?limit=10&before=${next.items[0].id}`).expect(200)).body;
    expect(emailsOf(back)).toEqual(newestFirst.slice(0, 10));
    const last = (await get('/api/suppressions?limit=10&end=true').expect(200)).body;
    expect(emailsOf(last)).toEqual(newestFirst.slice(15));
    expect(last).toMatchObject({ hasNewer: true, hasOlder: false, offset: 15 });

    const bounced = (await get('/api/suppressions?limit=4&reason=HARD_BOUNCE').expect(200)).body;
    expect(bounced).toMatchObject({ totalItems: 10, hasOlder: true });
    expect(emailsOf(bounced)).toEqual(newestFirst.slice(15, 19));

    // A substring, any case; its total is exact, its pages keyset too.
    const search = (await get('/api/suppressions?limit=3&email=SON1').expect(200)).body;
    expect(search).toMatchObject({ totalItems: 10, offset: 0, hasOlder: true, hasNewer: false });
    expect(emailsOf(search)).toEqual(['person19@example.org', 'person18@example.org', 'person17@example.org']);
    const searchEnd = (await get('/api/suppressions?limit=3&email=son1&end=true').expect(200)).body;
    expect(emailsOf(searchEnd)).toEqual(['person12@example.org', 'person11@example.org', 'person10@example.org']);
    expect(searchEnd).toMatchObject({ offset: 7, hasOlder: false, hasNewer: true });
    const searchNext = (await get(`/api/suppressions?limit=3&email=son1&after=${search.items[2].id}`).expect(200)).body;
    expect(emailsOf(searchNext)).toEqual(['person16@example.org', 'person15@example.org', 'person14@example.org']);
    expect(searchNext.offset).toBe(3);
    expect((await get('/api/suppressions?email=son2&reason=COMPLAINT').expect(200)).body.totalItems).toBe(5);
    // A change is seen by the next search (the index is versioned by the trigger-kept counts).
    await suppress('UNSUBSCRIBE', ['person1-late@example.org']);
    expect((await get('/api/suppressions?limit=3&email=son1').expect(200)).body.totalItems).toBe(11);
    expect((await get('/api/suppressions').expect(200)).body.totalItems).toBe(26);
    // LIKE wildcards are searched for literally.
    expect((await get('/api/suppressions?email=%25').expect(200)).body.totalItems).toBe(0);
  });

  it('is behind the bearer token', async () => {
    await request(t.app).get('/api/suppressions').expect(401);
    await request(t.app).post('/api/suppressions').send({ text: 'a@example.org' }).expect(401);
    await request(t.app).delete('/api/suppressions/1').expect(401);
    await request(t.app).get('/api/suppressions/export').expect(401);
  });
});

describe("adding addresses (a member's do-not-mail list)", () => {
  it('adds the valid addresses of a CSV with the reason MEMBER and reports every other line', async () => {
    await t.db.pool.query('TRUNCATE suppressions');
    await suppress('COMPLAINT', ['known@example.org']);
    const res = await add(
      'Name,Email\nAnn,Ann@Example.org\nBob,not-an-address\n\nCarl,\nKnown,KNOWN@example.org\nAnn again,ann@example.org\n',
    ).expect(200);
    expect(res.body).toEqual({
      added: 1,
      alreadySuppressed: 2,
      invalidLines: 2,
      invalid: [
        { line: 3, value: 'not-an-address', message: 'Invalid email address' },
        { line: 5, value: 'Carl,', message: 'Missing email address' },
      ],
    });
    const { rows } = await t.db.pool.query('SELECT email_lower, reason, added_by_email, campaign_id FROM suppressions ORDER BY id');
    expect(rows).toEqual([
      { email_lower: 'known@example.org', reason: 'COMPLAINT', added_by_email: null, campaign_id: null },
      { email_lower: 'ann@example.org', reason: 'MEMBER', added_by_email: expect.stringContaining('@'), campaign_id: null },
    ]);
    // Pasted addresses, one a line, no header.
    expect((await add('zoe@example.org\nyan@example.org').expect(200)).body).toMatchObject({ added: 2, invalidLines: 0 });
    const counts = await t.db.pool.query(
      `SELECT reason, suppressions::int AS n FROM suppression_counts WHERE suppressions > 0 ORDER BY reason`,
    );
    expect(counts.rows).toEqual([
      { reason: 'COMPLAINT', n: 1 },
      { reason: 'MEMBER', n: 3 },
    ]);
  });

  it('records each address a member suppresses in the consent ledger, once, and none already suppressed', async () => {
    await t.db.pool.query('TRUNCATE suppressions');
    await suppress('COMPLAINT', ['ledger.known@example.org']);
    const before = (await t.db.pool.query(`SELECT max(id) AS id FROM consent_ledger`)).rows[0].id ?? 0;
    await add('Ledger.Ann@Example.org\nledger.ann@example.org\nledger.known@example.org\nnot-an-address').expect(200);
    const { rows } = await t.db.pool.query(
      `SELECT event, audience_id, email, member_email, detail FROM consent_ledger WHERE id > $1 ORDER BY id`,
      [before],
    );
    expect(rows).toEqual([
      {
        event: 'SUPPRESSED',
        audience_id: null,
        email: 'Ledger.Ann@Example.org',
        member_email: expect.stringContaining('@'),
        detail: { reason: 'MANUAL' },
      },
    ]);
    // Nothing new, nothing recorded.
    await add('ledger.ann@example.org').expect(200);
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM consent_ledger WHERE id > $1`, [before])).rows[0].n).toBe(1);
  });

  it('refuses an empty text and a quote left open, adding nothing', async () => {
    await add('').expect(400);
    const before = (await get('/api/suppressions').expect(200)).body.totalItems;
    const res = await add('fine@example.org\n"open@example.org\n').expect(400);
    expect(res.body.message).toMatch(/quote/);
    expect((await get('/api/suppressions').expect(200)).body.totalItems).toBe(before);
  });
});

describe('removing an address', () => {
  it('removes it, records who removed what, and asks twice for a complaint', async () => {
    await t.db.pool.query('TRUNCATE suppressions, suppression_removals');
    await suppress('HARD_BOUNCE', ['bounced@example.org']);
    await suppress('COMPLAINT', ['angry@example.org']);
    const items = (await get('/api/suppressions').expect(200)).body.items as { id: number; email: string }[];
    const idOf = (email: string) => items.find((item) => item.email === email)!.id;

    await remove(idOf('bounced@example.org')).expect(204);
    await remove(idOf('bounced@example.org')).expect(404);
    const refused = await remove(idOf('angry@example.org')).expect(409);
    expect(refused.body.message).toMatch(/Confirm again/);
    expect((await get('/api/suppressions').expect(200)).body.totalItems).toBe(1);
    await remove(idOf('angry@example.org'), '?confirmComplaint=true').expect(204);
    expect((await get('/api/suppressions').expect(200)).body).toMatchObject({ totalItems: 0, items: [] });

    const { rows } = await t.db.pool.query('SELECT email_lower, reason, removed_by_email FROM suppression_removals ORDER BY id');
    expect(rows).toEqual([
      { email_lower: 'bounced@example.org', reason: 'HARD_BOUNCE', removed_by_email: expect.stringContaining('@') },
      { email_lower: 'angry@example.org', reason: 'COMPLAINT', removed_by_email: expect.stringContaining('@') },
    ]);
    // Each removal is in the consent ledger, the refused one not: subscribed again, in every audience, by the member.
    const ledger = await t.db.pool.query(
      `SELECT event, audience_id, email, member_email, detail FROM consent_ledger
        WHERE event = 'RESUBSCRIBED' AND address_key IN ('bounced@example.org', 'angry@example.org') ORDER BY id`,
    );
    expect(ledger.rows).toEqual([
      {
        event: 'RESUBSCRIBED',
        audience_id: null,
        email: 'bounced@example.org',
        member_email: expect.stringContaining('@'),
        detail: { reason: 'HARD_BOUNCE' },
      },
      {
        event: 'RESUBSCRIBED',
        audience_id: null,
        email: 'angry@example.org',
        member_email: expect.stringContaining('@'),
        detail: { reason: 'COMPLAINT' },
      },
    ]);
  });

  it('asks twice for an unsubscribe, with its own confirmation: the person asked not to be mailed', async () => {
    await t.db.pool.query('TRUNCATE suppressions, suppression_removals');
    await suppress('UNSUBSCRIBE', ['quit@example.org']);
    const [quit] = (await get('/api/suppressions').expect(200)).body.items as { id: number }[];

    for (const query of ['', '?confirmUnsubscribe=false', '?confirmComplaint=true']) {
      const refused = await remove(quit!.id, query).expect(409);
      expect(refused.body.message).toBe(
        'This person unsubscribed: they asked not to receive your mail. Remove the address only if they have since asked to receive it again, and confirm that they did.',
      );
    }
    expect((await get('/api/suppressions').expect(200)).body.totalItems).toBe(1);
    expect((await t.db.pool.query('SELECT 1 FROM suppression_removals')).rows).toEqual([]);

    await remove(quit!.id, '?confirmUnsubscribe=true').expect(204);
    expect((await get('/api/suppressions').expect(200)).body.totalItems).toBe(0);
    const { rows } = await t.db.pool.query('SELECT email_lower, reason FROM suppression_removals');
    expect(rows).toEqual([{ email_lower: 'quit@example.org', reason: 'UNSUBSCRIBE' }]);
  });
});

describe('the export', () => {
  it('writes every suppression as CSV, newest first, every cell quoted and formulas made inert, with the filters', async () => {
    await t.db.pool.query('TRUNCATE suppressions');
    const { rows } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaigns (name, status) VALUES ('=HYPERLINK("x")', 'SENT') RETURNING id`,
    );
    await suppress('HARD_BOUNCE', ['first@example.org'], rows[0]!.id);
    await suppress('UNSUBSCRIBE', ['-second@example.org']);
    const res = await get('/api/suppressions/export').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="suppressions\.csv"/);
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe('"email","reason","date","campaign id","campaign","added by"');
    expect(lines[1]).toMatch(/^"'-second@example\.org","unsubscribed","\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",,,$/);
    expect(lines[2]).toMatch(new RegExp(`^"first@example.org","hard bounce","[^"]+","${rows[0]!.id}","'=HYPERLINK\\(""x""\\)",$`));
    expect((await get('/api/suppressions/export?reason=HARD_BOUNCE').expect(200)).text.trim().split('\n')).toHaveLength(2);
    expect((await get('/api/suppressions/export?email=second').expect(200)).text).not.toContain('first@');
  });
});
