/**
 * What the unsubscribe page says (issue 21): a second visit to an unsubscribe link, or a link of
 * another campaign to the same address, says the address is already unsubscribed instead of asking
 * again, while the RFC 8058 one-click POST keeps answering as it did. Through the whole API with
 * responses validated, on campaigns sent as far as their jobs (tracking.test.ts does the same).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { createTrackingTokens, type TrackingTokens } from '../../mail/tracking-tokens.js';

let t: TestApp;
let tokens: TrackingTokens;
/** Each address's job in the first campaign and in the second one. */
let first: Map<string, number>;
let second: Map<string, number>;

const api = () => request(t.app);
const ONE_CLICK = 'List-Unsubscribe=One-Click';
const FORM = '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">';
// A Greek capital sigma folds to a final or a medial sigma depending on who folds it: the page must
// find the row the unsubscribe wrote whatever the address's case and script.
const ADDRESSES = ['Ann@Example.org', 'bob@example.org', 'cat@example.org', 'dan@example.org', 'ΟΔΟΣ@uni.example'];

async function sentCampaign(auth: string, audienceId: number, templateId: number): Promise<Map<string, number>> {
  const { body } = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Unsubscribe page', templateId });
  const id = body.id as number;
  await api()
    .put(`/api/campaigns/${id}`)
    .set('Authorization', auth)
    .send({ name: 'Unsubscribe page', audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Hi' });
  expect((await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth)).status).toBe(202);
  await t.db.pool.query(`UPDATE campaign_jobs SET status = 'SENT_WAIT_ACK' WHERE campaign_id = $1`, [id]);
  const { rows } = await t.db.pool.query<{ id: number; email: string }>('SELECT id, email FROM campaign_jobs WHERE campaign_id = $1', [id]);
  return new Map(rows.map((row) => [row.email, Number(row.id)]));
}

beforeAll(async () => {
  t = await createTestApp();
  tokens = createTrackingTokens(t.config.trackingSecret);
  const auth = await bearer();
  const { id: audienceId } = await seedAudience(t.db.pool, { headers: [], contacts: ADDRESSES.map((email) => ({ email })) });
  const templateId = await seedTemplate(t.db.pool, { html: '<p>Hello</p>' });
  first = await sentCampaign(auth, audienceId, templateId);
  second = await sentCampaign(auth, audienceId, templateId);
});
afterAll(() => t?.close());

const link = (jobs: Map<string, number>, email: string) => `/unsubscribe/${tokens.unsubscribe(jobs.get(email)!)}`;
const visit = (url: string) => api().get(url);
const oneClick = (url: string) => api().post(url).type('form').send(ONE_CLICK);

describe('the unsubscribe page', () => {
  it('asks on a first visit, and says the address is already unsubscribed on the next ones', async () => {
    for (const email of ['Ann@Example.org', 'ΟΔΟΣ@uni.example']) {
      const url = link(first, email);
      const asked = await visit(url);
      expect(asked.status).toBe(200);
      expect(asked.text).toContain(FORM);
      expect(asked.text).not.toContain('already unsubscribed');

      expect((await oneClick(url)).text).toContain('You are unsubscribed');

      for (let i = 0; i < 2; i++) {
        const again = await visit(url);
        expect(again.status).toBe(200);
        expect(again.headers['content-type']).toMatch(/^text\/html/);
        expect(again.headers['cache-control']).toBe('no-store');
        expect(again.text).toContain('<title>You are already unsubscribed</title>');
        expect(again.text).toContain('This address does not receive emails from');
        expect(again.text).not.toContain('<form');
      }
      // Another campaign's link to the same address knows it too.
      expect((await visit(link(second, email))).text).toContain('You are already unsubscribed');
    }
  });

  it('keeps the RFC 8058 one-click POST working for an address already unsubscribed', async () => {
    const url = link(second, 'Ann@Example.org');
    const res = await oneClick(url);
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are unsubscribed');
    const multipart = await api().post(url).field('List-Unsubscribe', 'One-Click');
    expect(multipart.status).toBe(200);
    const { rows } = await t.db.pool.query(`SELECT reason FROM suppressions WHERE email_lower = 'ann@example.org'`);
    expect(rows).toEqual([{ reason: 'UNSUBSCRIBE' }]);
  });

  it('says an address that complained is already unsubscribed, and still asks one suppressed for another reason', async () => {
    await t.db.pool.query(
      `INSERT INTO suppressions (email_lower, reason, added_by_email) VALUES ('bob@example.org', 'COMPLAINT', NULL), ('cat@example.org', 'MEMBER', 'mia@example.org'), ('dan@example.org', 'HARD_BOUNCE', NULL)`,
    );
    expect((await visit(link(first, 'bob@example.org'))).text).toContain('You are already unsubscribed');
    // A member's addition or a bounce is not the person's wish: a member may take it off the list.
    for (const email of ['cat@example.org', 'dan@example.org']) {
      const res = await visit(link(first, email));
      expect(res.text).toContain(FORM);
      expect(res.text).not.toContain('already unsubscribed');
    }
    // Their own unsubscribe then outranks the member's or the bounce's reason: a member can no longer
    // take them off the list with the generic confirmation, and the next visit knows.
    for (const email of ['cat@example.org', 'dan@example.org']) {
      expect((await oneClick(link(first, email))).text).toContain('You are unsubscribed');
      expect((await visit(link(first, email))).text).toContain('You are already unsubscribed');
    }
    const { rows } = await t.db.pool.query(
      `SELECT email_lower, reason, added_by_email FROM suppressions WHERE email_lower IN ('bob@example.org', 'cat@example.org', 'dan@example.org') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { email_lower: 'bob@example.org', reason: 'COMPLAINT', added_by_email: null },
      { email_lower: 'cat@example.org', reason: 'UNSUBSCRIBE', added_by_email: null },
      { email_lower: 'dan@example.org', reason: 'UNSUBSCRIBE', added_by_email: null },
    ]);
  });

  it('answers the same 404 page for a link that is not valid, known address or not', async () => {
    const forged = tokens.open(first.get('Ann@Example.org')!);
    for (const url of [`/unsubscribe/${forged}`, `/unsubscribe/${tokens.unsubscribe(999_999)}`]) {
      const res = await visit(url);
      expect(res.status).toBe(404);
      expect(res.text).toContain('This link is not valid');
    }
  });
});
