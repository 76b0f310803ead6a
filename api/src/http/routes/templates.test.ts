/**
 * The template calls through the whole API (OpenAPI validation with responses checked, auth, error
 * handler) against PostgreSQL.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { bearer } from '../../../test/support/tokens.js';

let t: TestApp;
let auth: string;
let otherMember: string;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
  otherMember = await bearer({ email: 'otto.other@example.org' });
});
afterAll(() => t?.close());

const api = () => request(t.app);
const get = (path: string, as = auth) => api().get(path).set('Authorization', as);
const put = (path: string, body: unknown, as = auth) =>
  api()
    .put(path)
    .set('Authorization', as)
    .send(body as object);

async function createTemplate(name: string, as = auth): Promise<number> {
  const res = await api().post('/api/templates').set('Authorization', as).send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const DESIGN = { counters: { u_row: 1 }, body: { rows: [{ cells: [1], values: { text: 'Hello {{fullName}}' } }] } };
const PREVIEW = `data:image/jpeg;base64,${Buffer.from('a small jpeg').toString('base64')}`;

describe('templates', () => {
  it('needs a member token on every call', async () => {
    const id = await createTemplate('Auth');
    const calls = [
      api().get('/api/templates'),
      api().post('/api/templates').send({ name: 'x' }),
      api().get(`/api/templates/${id}`),
      api().put(`/api/templates/${id}`).send({ name: 'x' }),
      api().delete(`/api/templates/${id}`),
      api().post(`/api/templates/${id}/replicate`),
    ];
    for (const call of calls) expect((await call).status).toBe(401);
    const outsider = await bearer({ email: 'otto@outsider.test' });
    expect((await get('/api/templates', outsider)).status).toBe(403);
  });

  it('creates a template with a trimmed name, stamped with the member', async () => {
    const id = await createTemplate('  My template  ');
    const res = await get(`/api/templates/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      name: 'My template',
      design: null,
      html: null,
      plainText: null,
      preview: null,
      updatedAt: expect.any(String),
      updatedByEmail: 'mia@example.org',
    });
  });

  it('refuses blank, missing, wrong-typed, multi-line, NUL-carrying or over-long names, and extra fields', async () => {
    const post = (body: unknown) =>
      api()
        .post('/api/templates')
        .set('Authorization', auth)
        .send(body as object);
    const blank = await post({ name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: 'Fill your template name' });
    for (const body of [
      {},
      { name: '' },
      { name: 42 },
      { name: 'a\nb' },
      { name: 'x'.repeat(201) },
      { name: 'x', updatedByEmail: 'x@y' },
    ]) {
      expect((await post(body)).status).toBe(400);
    }
    expect((await post({ name: 'nul\u0000byte' })).status).toBe(400);
    expect(
      (await api().post('/api/templates').set('Authorization', auth).set('Content-Type', 'application/json').send('{"name":')).status,
    ).toBe(400);
  });

  it('lists summaries (no design or html), most recently edited first, paged and filtered by name', async () => {
    const search = `Spring_${Date.now()}`;
    const a = await createTemplate(`${search} appeal`);
    const b = await createTemplate(`${search} newsletter`);
    const c = await createTemplate(`${search.toUpperCase()} gala`);
    await put(`/api/templates/${a}`, { name: `${search} appeal`, design: DESIGN, html: '<p>a</p>', preview: PREVIEW });

    const first = await get(`/api/templates?page=1&limit=2&name=${search.toLowerCase()}`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((item: { id: number }) => item.id)).toEqual([a, c]);
    expect(first.body.meta).toEqual({ currentPage: 1, itemCount: 2, itemsPerPage: 2, totalItems: 3, totalPages: 2 });
    expect(first.body.items[0]).toEqual({
      id: a,
      name: `${search} appeal`,
      preview: PREVIEW,
      updatedAt: expect.any(String),
      updatedByEmail: 'mia@example.org',
    });
    const second = await get(`/api/templates?page=2&limit=2&name=${search}`);
    expect(second.body.items.map((item: { id: number }) => item.id)).toEqual([b]);

    // Wildcards are literal; the defaults are page 1 and 10 a page.
    expect((await get(`/api/templates?name=${encodeURIComponent('%')}`)).body.items).toEqual([]);
    expect((await get(`/api/templates?name=${encodeURIComponent('Spring_9')}`)).body.items).toEqual([]);
    const all = await get('/api/templates');
    expect(all.body.meta).toMatchObject({ currentPage: 1, itemsPerPage: 10 });
  });

  it('answers 400 for out-of-range paging and over-long filters', async () => {
    for (const query of ['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=101', 'limit=1.5', `name=${'x'.repeat(201)}`]) {
      expect((await get(`/api/templates?${query}`)).status, query).toBe(400);
    }
    expect((await get('/api/templates?page=99999999999999999999')).status).toBeLessThan(500);
    expect((await get('/api/templates?page=100000&limit=100')).body.items).toEqual([]);
  });

  it('saves name, design, html, plain text and preview; who and when come from the member, not the body', async () => {
    const id = await createTemplate('Newsletter');
    const before = (await get(`/api/templates/${id}`)).body;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const saved = await put(
      `/api/templates/${id}`,
      { name: ' Newsletter May ', design: DESIGN, html: '<p>Hello {{fullName}}</p>', plainText: 'Hello {{fullName}}', preview: PREVIEW },
      otherMember,
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      id,
      name: 'Newsletter May',
      design: DESIGN,
      html: '<p>Hello {{fullName}}</p>',
      plainText: 'Hello {{fullName}}',
      preview: PREVIEW,
      updatedAt: expect.any(String),
      updatedByEmail: 'otto.other@example.org',
    });
    expect(Date.parse(saved.body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await get(`/api/templates/${id}`)).body).toEqual(saved.body);

    const forged = await put(`/api/templates/${id}`, { name: 'x', updatedByEmail: 'boss@example.org', updatedAt: '2000-01-01T00:00:00Z' });
    expect(forged.status).toBe(400);
  });

  it('renames with the name only, keeping the design; null clears a field', async () => {
    const id = await createTemplate('Gala');
    await put(`/api/templates/${id}`, { name: 'Gala', design: DESIGN, html: '<p>x</p>', plainText: 'x', preview: PREVIEW });
    const renamed = await put(`/api/templates/${id}`, { name: '  Gala 2025 ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Gala 2025', design: DESIGN, html: '<p>x</p>', plainText: 'x', preview: PREVIEW });
    const cleared = await put(`/api/templates/${id}`, { name: 'Gala 2025', preview: null, plainText: null });
    expect(cleared.body).toMatchObject({ design: DESIGN, html: '<p>x</p>', plainText: null, preview: null });
    expect((await put(`/api/templates/${id}`, { name: ' ' })).body).toEqual({ message: 'Fill your template name' });
    expect((await put(`/api/templates/${id}`, { design: DESIGN })).status).toBe(400);
    expect((await put(`/api/templates/${id}`, { name: 'a\u0000b' })).status).toBe(400);
  });

  it('refuses hostile save bodies with a 4xx', async () => {
    const id = await createTemplate('Hostile');
    const bad: [string, unknown][] = [
      ['preview at an address', { name: 'x', preview: 'https://tracker.example/pixel.gif' }],
      ['preview that is not an image', { name: 'x', preview: 'data:text/html;base64,PHNjcmlwdD4=' }],
      ['preview over the bound', { name: 'x', preview: `data:image/jpeg;base64,${'A'.repeat(100_000)}` }],
      ['preview with a NUL', { name: 'x', preview: 'data:image/png;base64,AA\u0000A' }],
      ['design that is a list', { name: 'x', design: [1, 2] }],
      ['design that is text', { name: 'x', design: 'nope' }],
      ['html of the wrong type', { name: 'x', html: 12 }],
      ['html over the bound', { name: 'x', html: 'x'.repeat(2_000_001) }],
      ['plain text over the bound', { name: 'x', plainText: 'x'.repeat(1_000_001) }],
    ];
    for (const [label, body] of bad) {
      const res = await put(`/api/templates/${id}`, body);
      expect(res.status, label).toBe(400);
      expect(res.body.message, label).toEqual(expect.any(String));
    }
    const nulInHtml = await put(`/api/templates/${id}`, { name: 'x', html: 'a\u0000b' });
    expect(nulInHtml.status).toBe(400);
    const nulInDesign = await put(`/api/templates/${id}`, { name: 'x', design: { text: 'a\u0000b' } });
    expect(nulInDesign.status).toBe(400);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5000; i++) deep = { d: deep };
    expect((await put(`/api/templates/${id}`, { name: 'x', design: deep })).status).toBe(400);
    let deepList: unknown = [];
    for (let i = 0; i < 3000; i++) deepList = [deepList];
    expect((await put(`/api/templates/${id}`, { name: 'x', design: { rows: deepList } })).body).toEqual({
      message: 'The design is nested too deeply',
    });
    // Untouched by all of the above.
    expect((await get(`/api/templates/${id}`)).body).toMatchObject({ name: 'Hostile', design: null, html: null });
  });

  it('takes a save body of a few MB on the template PUT only', async () => {
    const id = await createTemplate('Big');
    const bigDesign = { rows: Array.from({ length: 3000 }, (_, i) => ({ id: i, text: 'x'.repeat(1000) })) };
    const big = await put(`/api/templates/${id}`, { name: 'Big', design: bigDesign, html: 'y'.repeat(1_500_000) });
    expect(big.status).toBe(200);
    expect(big.body.design.rows).toHaveLength(3000);
    const tooBig = await put(`/api/templates/${id}`, { name: 'Big', design: { blob: 'z'.repeat(6 * 1024 * 1024) } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ message: 'Request body too large' });
    // Every other JSON body keeps the small default.
    const bigCreate = await api()
      .post('/api/templates')
      .set('Authorization', auth)
      .send({ name: 'x', padding: 'p'.repeat(200_000) });
    expect(bigCreate.status).toBe(413);
  });

  it('answers 404 for unknown templates and 400 for malformed ids', async () => {
    for (const path of ['999999']) {
      expect((await get(`/api/templates/${path}`)).status).toBe(404);
      expect((await put(`/api/templates/${path}`, { name: 'x' })).status).toBe(404);
      expect((await api().delete(`/api/templates/${path}`).set('Authorization', auth)).status).toBe(404);
      expect((await api().post(`/api/templates/${path}/replicate`).set('Authorization', auth)).status).toBe(404);
    }
    for (const path of ['0', '-1', 'abc', '1.5']) {
      expect((await get(`/api/templates/${path}`)).status, path).toBe(400);
    }
    // Beyond PostgreSQL's bigint: no such template, never a 500.
    for (const path of ['9223372036854775808', '99999999999999999999999']) {
      const status = (await get(`/api/templates/${path}`)).status;
      expect(status === 400 || status === 404, `${path}: ${status}`).toBe(true);
      const removed = (await api().delete(`/api/templates/${path}`).set('Authorization', auth)).status;
      expect(removed === 400 || removed === 404, `${path}: ${removed}`).toBe(true);
    }
  });

  it('replicates: the copy says so in its name, carries the design, html and preview, and is stamped anew', async () => {
    const id = await createTemplate('Welcome');
    await put(`/api/templates/${id}`, { name: 'Welcome', design: DESIGN, html: '<p>w</p>', plainText: 'w', preview: PREVIEW });
    const res = await api().post(`/api/templates/${id}/replicate`).set('Authorization', otherMember);
    expect(res.status).toBe(201);
    const copyId = res.body.id as number;
    expect(copyId).not.toBe(id);
    expect((await get(`/api/templates/${copyId}`)).body).toEqual({
      id: copyId,
      name: 'Welcome (copy)',
      design: DESIGN,
      html: '<p>w</p>',
      plainText: 'w',
      preview: PREVIEW,
      updatedAt: expect.any(String),
      updatedByEmail: 'otto.other@example.org',
    });
    // The original is untouched, and a copy of a long name stays within the name bound.
    expect((await get(`/api/templates/${id}`)).body.updatedByEmail).toBe('mia@example.org');
    const long = await createTemplate('L'.repeat(200));
    const longCopy = (await api().post(`/api/templates/${long}/replicate`).set('Authorization', auth)).body.id as number;
    const name = (await get(`/api/templates/${longCopy}`)).body.name as string;
    expect(name).toHaveLength(200);
    expect(name.endsWith(' (copy)')).toBe(true);
    expect((await put(`/api/templates/${longCopy}`, { name })).status).toBe(200);
  });

  it('deletes a template; campaigns sent from it keep their html and their reports', async () => {
    const id = await createTemplate('Sent once');
    await put(`/api/templates/${id}`, { name: 'Sent once', design: DESIGN, html: '<p>template html</p>' });
    const { rows } = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaigns (name, status, template_id, html, subject, jobs_sent, contact_count)
       VALUES ('Spring', 'SENT', $1, '<p>sent html</p>', 'Hi', 1, 1) RETURNING id`,
      [id],
    );
    const campaignId = rows[0]!.id;
    await t.db.pool.query(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status) VALUES ($1, 1, 'a@example.org', 'SENT_SUCCESS')`,
      [campaignId],
    );

    const res = await api().delete(`/api/templates/${id}`).set('Authorization', auth);
    expect(res.status).toBe(204);
    expect((await get(`/api/templates/${id}`)).status).toBe(404);
    expect((await api().delete(`/api/templates/${id}`).set('Authorization', auth)).status).toBe(404);

    const campaign = await t.db.pool.query('SELECT status, template_id, html FROM campaigns WHERE id = $1', [campaignId]);
    expect(campaign.rows[0]).toEqual({ status: 'SENT', template_id: null, html: '<p>sent html</p>' });
    const jobs = await t.db.pool.query('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', [campaignId]);
    expect(jobs.rows[0]).toEqual({ n: 1 });
  });
});
