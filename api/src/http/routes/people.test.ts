/**
 * One person across audiences (issue 24) through the whole API (auth, OpenAPI validation with
 * responses checked, the error handler) on the real PostgreSQL: the search (exact, any case, every
 * live audience), the access export (everything held, as one JSON file), and the erasure: a report's
 * every figure unchanged after it, no column of any table holding the address or the person's fields,
 * the audiences' numbering still dense, a later import of the address flagged and never sent to.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person, PersonErasure, PersonExport } from '@mailroom/api-client';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { PERSON, PERSON_NAME, placesHolding, seedPerson, type SeededPerson } from '../../../test/support/people.js';
import { bearer } from '../../../test/support/tokens.js';
import { dispatchRepository } from '../../services/sending/dispatch-repository.js';
import { ERASED_STAYS } from '../../services/suppressions/suppression-service.js';
import { startWorkers, type Workers } from '../../workers/index.js';
import { audienceWorkers } from '../../workers/audiences.js';

let t: TestApp;
let auth: string;
let workers: Workers | undefined;
let importDir: string;
let seeded: SeededPerson;

beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'mailroom-people-'));
  t = await createTestApp({ env: { IMPORT_DIR: importDir } });
  auth = await bearer();
  seeded = await seedPerson(t.db.pool, 'mia@example.org');
});
afterAll(async () => {
  await workers?.close();
  await t?.close();
  await rm(importDir, { recursive: true, force: true });
});

const get = (path: string) => request(t.app).get(path).set('Authorization', auth);
const find = async (email: string) => {
  const res = await get(`/api/people?email=${encodeURIComponent(email)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Person;
};
const erase = (email: string) => request(t.app).post('/api/people/erase').set('Authorization', auth).send({ email });
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every figure a campaign's report shows: its calls' answers, and its table's rows and totals but the texts naming the address. */
async function reportFigures(campaignId: number) {
  const figures: Record<string, unknown> = {};
  for (const call of ['overview-stat', 'overview', 'timeline', 'domains', 'clicks']) {
    const res = await get(`/api/reports/${campaignId}/${call}`);
    expect(res.status, `${call}: ${JSON.stringify(res.body)}`).toBe(200);
    figures[call] = call === 'overview-stat' ? { ...res.body, campaign: { ...res.body.campaign, numberOfContacts: undefined } } : res.body;
  }
  for (const filter of [
    '',
    'opened=true',
    'clicked=true',
    'humanOpened=true',
    'humanClicked=false',
    'sendStatus=SENT_SUCCESS',
    'sendStatus=NOT_SENT',
    'bounceStatus=SOFT',
  ]) {
    const res = await get(`/api/reports/${campaignId}/email-performance?limit=100&${filter}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.items.map(({ email: _, bounceMessage: __, ...row }: { email: string; bounceMessage: string | null }) => row);
    figures[`rows ${filter}`] = { meta: res.body.meta, rows };
  }
  return figures;
}

describe('finding a person', () => {
  it('needs a token and an address; answers empty lists for an address held nowhere', async () => {
    expect((await request(t.app).get(`/api/people?email=${PERSON}`)).status).toBe(401);
    expect((await get('/api/people')).status).toBe(400);
    expect((await get('/api/people?email=%20')).status).toBe(400);
    expect(await find('nobody@example.net')).toEqual({
      email: 'nobody@example.net',
      erasedAt: null,
      audiences: [],
      mails: [],
      totalMails: 0,
      opens: { people: 0, machines: 0 },
      clicks: { people: 0, machines: 0 },
      suppression: null,
      consent: [],
    });
  });

  it('finds the address exactly, in any case, in every live audience, with its mails, hits, suppression and imports', async () => {
    const person = await find('  Zoe.Quill@EXAMPLE.net ');
    expect(person.email).toBe(PERSON);
    expect(person.erasedAt).toBeNull();
    // Both contacts of the first audience (the valid one and its duplicate), the second's, not the deleted audience's.
    expect(person.audiences.map((a) => [a.audienceId, a.email, a.errorMessage])).toEqual([
      [seeded.audiences.first, PERSON, null],
      [seeded.audiences.first, 'Zoe.Quill@Example.NET', 'Duplicate email address in this audience'],
      [seeded.audiences.second, 'ZOE.QUILL@example.net', null],
    ]);
    expect(person.audiences[2]).toMatchObject({
      audienceName: 'Events',
      data: { Name: PERSON_NAME, City: 'Quillport' },
      importedBy: 'mia@example.org',
    });
    expect(person.totalMails).toBe(2);
    expect(person.mails.map((m) => [m.campaignName, m.status, m.bounceType])).toEqual([
      ['Event invitation', 'SENT_WAIT_ACK', 'SOFT'],
      ['Spring news', 'SENT_SUCCESS', null],
    ]);
    // A proxy's open is a machine's; the person's own open and click are people's.
    expect(person.mails[1]).toMatchObject({
      opens: { people: 1, machines: 1 },
      clicks: { people: 1, machines: 0 },
      subject: 'News for you',
    });
    expect(person.opens).toEqual({ people: 1, machines: 1 });
    expect(person.clicks).toEqual({ people: 1, machines: 0 });
    expect(person.suppression).toMatchObject({ reason: 'UNSUBSCRIBE', campaignId: seeded.campaigns.first, campaignName: 'Spring news' });
    expect(person.consent.map((c) => [c.kind, c.audienceId, c.by])).toEqual([
      ['import', seeded.audiences.first, 'mia@example.org'],
      ['import', seeded.audiences.second, 'mia@example.org'],
    ]);
    // Part of an address is not the address: the search is exact.
    expect((await find('zoe.quill@example')).audiences).toEqual([]);
  });

  it('folds letters beyond ASCII as every comparison does (address_key)', async () => {
    const { id } = {
      id: (
        await t.db.pool.query<{ id: number }>(
          `INSERT INTO audiences (name, source, number_of_contacts) VALUES ('Umlauts', 'CSV', 1) RETURNING id`,
        )
      ).rows[0]!.id,
    };
    await t.db.pool.query(`INSERT INTO contacts (audience_id, seq, valid_seq, email) VALUES ($1, 1, 1, 'ÅSA.ÖBERG@Bücher.DE')`, [id]);
    const person = await find('åsa.öberg@bücher.de');
    expect(person.audiences.map((a) => a.email)).toEqual(['ÅSA.ÖBERG@Bücher.DE']);
    expect(person.consent[0]).toMatchObject({ audienceName: 'Umlauts', by: null });
  });
});

describe("a person's data, exported", () => {
  it('is one JSON download of everything held, recorded in the activity log', async () => {
    const res = await get(`/api/people/export?email=${encodeURIComponent('ZOE.QUILL@example.net')}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="person-\d{4}-\d{2}-\d{2}\.json"/);
    expect(res.headers['content-disposition']).not.toContain('quill');
    const body = res.body as PersonExport;
    expect(body.email).toBe(PERSON);
    expect(body.audiences.map((a) => a.data.Name)).toEqual([PERSON_NAME, PERSON_NAME, PERSON_NAME]);
    expect(body.mails).toHaveLength(2);
    expect(body.mails[0]).toMatchObject({
      email: 'ZOE.QUILL@example.net',
      bounceMessage: '452 4.2.2 <ZOE.QUILL@example.net>: mailbox full',
    });
    expect(body.mails[1]).toMatchObject({
      fromEmail: 'news@example.org',
      humanOpenedAt: expect.any(String),
      humanClickedAt: expect.any(String),
    });
    expect(body.hits.map((h) => [h.kind, h.byPerson, h.machineReason, h.clientIp, h.userAgent])).toEqual([
      ['OPEN', false, 'apple-privacy-proxy', '17.58.0.9', 'Mozilla/5.0'],
      ['OPEN', true, null, '203.0.113.77', 'Thunderbird/128.0'],
      ['CLICK', true, null, '203.0.113.77', 'Firefox/130.0'],
    ]);
    expect(body.hits[2]!.link).toBe('https://example.org/spring');
    expect(body.suppression).toMatchObject({ reason: 'UNSUBSCRIBE' });
    expect(body.suppressionRemovals).toEqual([expect.objectContaining({ reason: 'MEMBER', removedBy: 'mia@example.org' })]);
    expect(body.consent).toHaveLength(2);
    // This export among them: recorded before the rows are read.
    expect(body.activity.map((a) => a.kind)).toEqual(['unsubscribe', 'suppression-remove', 'export']);

    const { rows } = await t.db.pool.query(
      `SELECT member_email, object_type, object_name, details FROM activity WHERE kind = 'export' AND object_type = 'person'`,
    );
    expect(rows).toEqual([{ member_email: 'mia@example.org', object_type: 'person', object_name: PERSON, details: { what: 'person' } }]);
  });
});

describe('erasing a person', () => {
  it('changes no figure of any report, leaves the address and its fields in no table, and keeps the audiences dense', async () => {
    const before = [await reportFigures(seeded.campaigns.first), await reportFigures(seeded.campaigns.second)];
    // What sign-ups hold of the person: a waiting sign-up with a value, its mail's record, and the consent ledger.
    const { rows: forms } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO signup_forms (audience_id, slug, name, success_message, mail_subject, mail_text, from_name, from_email)
       VALUES ($1, 'news-x', 'News', 'Thanks', 'Confirm', 'Confirm: {{link}}', 'Org', 'news@example.org') RETURNING id`,
      [seeded.audiences.first],
    );
    await t.db.pool.query(
      `INSERT INTO pending_signups (form_id, audience_id, email, data, consent_version, client_address, user_agent, expires_at)
       VALUES ($1, $2, 'zoe.quill@example.net', '{"city": "Quillport"}', 1, '203.0.113.77', 'Quillfeather/1.0', now() + interval '7 days')`,
      [forms[0]!.id, seeded.audiences.first],
    );
    await t.db.pool.query(`INSERT INTO signup_mails (audience_id, address_key) VALUES ($1, address_key('Zoe.Quill@example.net'))`, [
      seeded.audiences.first,
    ]);
    await t.db.pool.query(
      `INSERT INTO consent_ledger (audience_id, address_key, email, event, form_id, form_name, consent_version, wording, client_address, user_agent)
       VALUES ($1, address_key('zoe.quill@example.net'), 'zoe.quill@example.net', 'SUBSCRIBED', $2, 'News', 1, 'Yes, mail me', '203.0.113.77', 'Quillfeather/1.0')`,
      [seeded.audiences.first, forms[0]!.id],
    );
    const res = await erase(' ZOE.Quill@example.NET ');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const erased = res.body as PersonErasure;
    const erasedKey = `erased:${sha256(PERSON)}@example.net`;
    expect(erased).toMatchObject({ erasedKey, contacts: 4, audiences: 3, mails: 2, hits: 3 });
    // The recipient's unsubscribe, the removal's name, the export's search, the export of the person.
    expect(erased.activityEntries).toBe(4);

    expect([await reportFigures(seeded.campaigns.first), await reportFigures(seeded.campaigns.second)]).toEqual(before);
    expect(await placesHolding(t.db.pool, PERSON)).toEqual([]);
    expect(await placesHolding(t.db.pool, 'Quillfeather')).toEqual([]);
    expect(await placesHolding(t.db.pool, 'Quillport')).toEqual([]);
    // SES's text names the key where it named the address.
    const { rows: bounced } = await t.db.pool.query(`SELECT bounce_message FROM campaign_jobs WHERE id = $1`, [seeded.jobs[1]]);
    expect(bounced).toEqual([{ bounce_message: `452 4.2.2 <${erasedKey}>: mailbox full` }]);
    // The hits stay, without what pointed at the person's device.
    expect(await placesHolding(t.db.pool, '203.0.113.77')).toEqual([]);
    // The ledger keeps what was agreed to, under the key, and says it was erased; the limits' record names the key.
    const { rows: ledger } = await t.db.pool.query(`SELECT email, event, wording FROM consent_ledger ORDER BY id`);
    expect(ledger).toEqual([
      { email: erasedKey, event: 'SUBSCRIBED', wording: 'Yes, mail me' },
      // One for each audience the person was on: the two live ones and the deleted one.
      ...Array.from({ length: 3 }, () => expect.objectContaining({ email: erasedKey, event: 'ERASED' })),
    ]);
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM pending_signups`)).rows).toEqual([{ n: 0 }]);
    expect((await t.db.pool.query(`SELECT address_key FROM signup_mails`)).rows).toEqual([{ address_key: erasedKey }]);

    // The first audience lost two contacts of seven, its numbers stay dense: every page is whole.
    const audience = (await get(`/api/audiences/${seeded.audiences.first}`).expect(200)).body;
    expect(audience).toMatchObject({ numberOfContacts: 5, numberOfContactsWithErrors: 1 });
    const all = (await get(`/api/audiences/${seeded.audiences.first}/contacts?limit=2&page=1`).expect(200)).body;
    const pages = [
      all,
      ...(await Promise.all(
        [2, 3].map(async (page) => (await get(`/api/audiences/${seeded.audiences.first}/contacts?limit=2&page=${page}`)).body),
      )),
    ];
    expect(pages.flatMap((p) => p.items.map((c: { email: string }) => c.email)).sort()).toEqual(
      ['amy@example.org', 'bea@example.org', 'cid@example.org', 'dee@example.org', 'not an address'].sort(),
    );
    const valid = (await get(`/api/audiences/${seeded.audiences.first}/contacts?limit=10&hasError=false`)).body;
    expect(valid.items).toHaveLength(4);
    const invalid = (await get(`/api/audiences/${seeded.audiences.first}/contacts?limit=10&hasError=true`)).body;
    expect(invalid.items.map((c: { email: string }) => c.email)).toEqual(['not an address']);

    // On the suppression list: the key, reason ERASED, the date and who erased it; the unsubscribe still counted.
    const list = (await get('/api/suppressions?reason=ERASED').expect(200)).body;
    expect(list.items).toEqual([
      expect.objectContaining({ email: erasedKey, reason: 'ERASED', addedBy: 'mia@example.org', createdAt: erased.erasedAt }),
    ]);
    const { rows: entry } = await t.db.pool.query(`SELECT member_email, object_name, details FROM activity WHERE kind = 'erase'`);
    expect(entry).toEqual([
      {
        member_email: 'mia@example.org',
        object_name: erasedKey,
        details: { contacts: 4, audiences: 3, mails: 2, hits: 3, activityEntries: 4 },
      },
    ]);

    // Found again: only that it was erased, and when.
    const after = await find(PERSON);
    expect(after).toMatchObject({ erasedAt: erased.erasedAt, audiences: [], mails: [], totalMails: 0, suppression: null });
    // Erased again: nothing left to erase, the first date stays.
    const again = (await erase(PERSON).expect(200)).body as PersonErasure;
    expect(again).toMatchObject({ erasedKey, erasedAt: erased.erasedAt, contacts: 0, mails: 0 });
  });

  it('cannot be undone by a member: the erased key stays on the suppression list', async () => {
    const { rows } = await t.db.pool.query<{ id: number }>(`SELECT id FROM suppressions WHERE reason = 'ERASED'`);
    const res = await request(t.app)
      .delete(`/api/suppressions/${rows[0]!.id}?confirmUnsubscribe=true&confirmComplaint=true`)
      .set('Authorization', auth);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(ERASED_STAYS);
    // Nor is it stored again by a member's addition: the key suppresses it already.
    const added = (
      await request(t.app).post('/api/suppressions').set('Authorization', auth).send({ text: 'Zoe.Quill@example.net' }).expect(200)
    ).body;
    expect(added).toMatchObject({ added: 0, alreadySuppressed: 1 });
    expect(await placesHolding(t.db.pool, PERSON)).toEqual([]);
  });

  it('flags a later import of the address with the date of the erasure, and a send skips it', async () => {
    workers ??= await startWorkers(t.deps, [audienceWorkers]);
    const { body: created } = await request(t.app)
      .post('/api/audiences')
      .set('Authorization', auth)
      .send({ name: 'Imported again' })
      .expect(201);
    await request(t.app)
      .post(`/api/audiences/${created.id}/import/file?type=csv`)
      .set('Authorization', auth)
      .attach('file', Buffer.from('email,Name\ngus@example.org,Gus\nZoe.Quill@Example.net,Zoe\nhal@example.org,Hal\n'), 'again.csv')
      .expect(202);
    for (let i = 0; ; i++) {
      if (!(await get(`/api/audiences/${created.id}`)).body.isImporting) break;
      if (i > 400) throw new Error('the import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const contacts = (await get(`/api/audiences/${created.id}/contacts?limit=10`).expect(200)).body.items;
    const { rows: erasedRow } = await t.db.pool.query<{ created_at: Date }>(`SELECT created_at FROM suppressions WHERE reason = 'ERASED'`);
    // Only the erased address carries erasedAt; every other contact reads as before.
    expect(contacts).toEqual([
      expect.objectContaining({ email: 'gus@example.org', suppressionReason: null }),
      expect.objectContaining({
        email: 'Zoe.Quill@Example.net',
        suppressionReason: 'ERASED',
        erasedAt: erasedRow[0]!.created_at.toISOString(),
      }),
      expect.objectContaining({ email: 'hal@example.org', suppressionReason: null }),
    ]);
    expect(contacts.filter((c: object) => 'erasedAt' in c)).toHaveLength(1);
    expect((await get(`/api/audiences/${created.id}/suppressed-contacts`).expect(200)).body.suppressedContacts).toBe(1);

    // The send's own statement: every valid contact but the erased one gets a mail.
    const { rows: campaign } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaigns (name, status, audience_id) VALUES ('After', 'SENDING', $1) RETURNING id`,
      [created.id],
    );
    const jobs = await t.deps.db.transaction((tx) =>
      dispatchRepository(t.deps.db).createJobs(tx, campaign[0]!.id, created.id, { contacts: 'all' }),
    );
    expect(jobs.count).toBe(2);
    const { rows: mailed } = await t.db.pool.query(`SELECT email FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id`, [campaign[0]!.id]);
    expect(mailed).toEqual([{ email: 'gus@example.org' }, { email: 'hal@example.org' }]);
  });
});
