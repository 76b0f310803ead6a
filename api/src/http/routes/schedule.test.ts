/**
 * Scheduled sending through the whole API (an addition to the spec): schedule refuses a past time
 * and runs Send's pre-send checks; a scheduled campaign is frozen (no edit, rename, send or delete:
 * 409) until unschedule makes it a DRAFT again. No worker runs here: nothing starts by itself (the
 * sweep is tested in services/campaigns/schedule-sweep.test.ts).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeededAudience } from '../../../test/support/seed.js';
import { bearer } from '../../../test/support/tokens.js';
import { INPUT_SUBJECT } from '../../services/campaigns/campaign-service.js';
import { SCHEDULED_FROZEN } from '../../services/campaigns/rules.js';
import {
  ONLY_DRAFTS_SCHEDULED,
  ONLY_SCHEDULED_UNSCHEDULED,
  SCHEDULE_IN_PAST,
  SCHEDULE_TOO_FAR,
} from '../../services/campaigns/scheduling-service.js';

let t: TestApp;
let auth: string;
let audience: SeededAudience;
let templateId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { AUTHORIZED_SENDER_EMAILS: 'news@example.org' } });
  auth = await bearer();
  audience = await seedAudience(t.db.pool, {
    name: 'Members',
    headers: ['firstName'],
    contacts: [
      { email: 'ann@example.org', data: { firstName: 'Ann' } },
      { email: 'bob@example.org', data: { firstName: 'Bob' } },
    ],
  });
  templateId = await seedTemplate(t.db.pool, { name: 'Newsletter', html: '<p>Hello {{firstName}}</p>' });
});
afterAll(async () => {
  await t?.close();
});

const api = () => request(t.app);
const post = (path: string, body?: object) => api().post(path).set('Authorization', auth).send(body);
const put = (path: string, body: object) => api().put(path).set('Authorization', auth).send(body);
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

async function draft(fields: Record<string, unknown> = {}): Promise<number> {
  const created = await post('/api/campaigns', { name: 'Later', templateId });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const saved = await put(`/api/campaigns/${id}`, {
    name: 'Later',
    audienceId: audience.id,
    templateId,
    fromName: 'Example News',
    fromEmail: 'news@example.org',
    subject: 'Hi {{firstName}}',
    ...fields,
  });
  expect(saved.status).toBe(200);
  return id;
}

const row = async (id: number) =>
  (await t.db.pool.query('SELECT status, scheduled_at, delivery_date, updated_by_email FROM campaigns WHERE id = $1', [id])).rows[0];
const jobCount = async (id: number) =>
  (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', [id])).rows[0]!.n;

describe('schedule', () => {
  it('needs a token', async () => {
    expect(
      (
        await api()
          .post('/api/campaigns/1/schedule')
          .send({ at: inMinutes(5) })
      ).status,
    ).toBe(401);
    expect((await api().post('/api/campaigns/1/unschedule')).status).toBe(401);
  });

  it('schedules a ready draft: SCHEDULED with the time, nothing created or sent', async () => {
    const id = await draft();
    const at = inMinutes(30);
    const res = await post(`/api/campaigns/${id}/schedule`, { at });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'SCHEDULED', scheduledAt: at, deliveryDate: null });
    expect((await row(id)).scheduled_at.toISOString()).toBe(at);
    expect(await jobCount(id)).toBe(0);
    const listed = await api().get('/api/campaigns').set('Authorization', auth);
    expect(listed.body.data.items.find((item: { id: number }) => item.id === id)).toMatchObject({ status: 'SCHEDULED', scheduledAt: at });
  });

  it('takes a time with an offset as the instant it names', async () => {
    const id = await draft();
    const utc = new Date(Date.now() + 3 * 3600_000);
    utc.setUTCMilliseconds(0);
    // The same instant written in UTC+02:00.
    const local = new Date(utc.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const res = await post(`/api/campaigns/${id}/schedule`, { at: local });
    expect(res.status).toBe(200);
    expect(res.body.scheduledAt).toBe(utc.toISOString());
  });

  it('refuses a time in the past, or now, with a clear message (400), and leaves the draft as it was', async () => {
    const id = await draft();
    for (const at of [new Date(Date.now() - 60_000).toISOString(), '2001-01-01T00:00:00Z']) {
      const res = await post(`/api/campaigns/${id}/schedule`, { at });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(SCHEDULE_IN_PAST);
    }
    expect(await row(id)).toMatchObject({ status: 'DRAFT', scheduled_at: null });
  });

  it('refuses a time more than a year ahead, and a body that is not a date-time (400)', async () => {
    const id = await draft();
    const far = await post(`/api/campaigns/${id}/schedule`, { at: inMinutes(60 * 24 * 400) });
    expect(far.status).toBe(400);
    expect(far.body.message).toBe(SCHEDULE_TOO_FAR);
    for (const body of [{}, { at: 'tomorrow' }, { at: 12 }, { at: inMinutes(5), extra: 1 }]) {
      expect((await post(`/api/campaigns/${id}/schedule`, body)).status).toBe(400);
    }
    expect((await row(id)).status).toBe('DRAFT');
  });

  it("runs Send's pre-send checks with their messages (400)", async () => {
    const id = await draft({ subject: null });
    const res = await post(`/api/campaigns/${id}/schedule`, { at: inMinutes(10) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(INPUT_SUBJECT);
    expect((await row(id)).status).toBe('DRAFT');
  });

  it('answers 404 for an unknown campaign', async () => {
    expect((await post('/api/campaigns/999999/schedule', { at: inMinutes(10) })).status).toBe(404);
    expect((await post('/api/campaigns/999999/unschedule')).status).toBe(404);
  });
});

describe('a scheduled campaign is frozen until unscheduled', () => {
  it('refuses edit, rename, send, delete and a second schedule (409), then unschedule returns it to DRAFT', async () => {
    const id = await draft();
    const at = inMinutes(60);
    expect((await post(`/api/campaigns/${id}/schedule`, { at })).status).toBe(200);

    const edit = await put(`/api/campaigns/${id}`, { name: 'Later', subject: 'Changed' });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe(SCHEDULED_FROZEN);
    expect((await put(`/api/campaigns/${id}`, { name: 'Renamed' })).status).toBe(409);
    const send = await post(`/api/campaigns/${id}/send`);
    expect(send.status).toBe(409);
    expect(send.body.message).toBe(SCHEDULED_FROZEN);
    const removed = await api().delete(`/api/campaigns/${id}`).set('Authorization', auth);
    expect(removed.status).toBe(409);
    expect(removed.body.message).toBe(SCHEDULED_FROZEN);
    expect((await post(`/api/campaigns/${id}/schedule`, { at: inMinutes(90) })).status).toBe(409);
    expect(await row(id)).toMatchObject({ status: 'SCHEDULED' });
    expect((await row(id)).scheduled_at.toISOString()).toBe(at);
    expect(await jobCount(id)).toBe(0);

    const back = await post(`/api/campaigns/${id}/unschedule`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ id, status: 'DRAFT', scheduledAt: null, name: 'Later' });
    // A draft again: edited and deleted as any draft.
    expect((await put(`/api/campaigns/${id}`, { name: 'Later', subject: 'Changed' })).status).toBe(200);
    const again = await post(`/api/campaigns/${id}/unschedule`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ONLY_SCHEDULED_UNSCHEDULED);
    expect((await api().delete(`/api/campaigns/${id}`).set('Authorization', auth)).status).toBe(204);
  });

  it('answers a successful unschedule with the draft, whatever DELETEs race it (25 races)', async () => {
    // A DELETE waiting for the row lock deletes the draft the moment unschedule commits: the answer
    // must come from unschedule's own transaction, not from a read after it.
    const outcomes: string[] = [];
    for (let race = 0; race < 25; race++) {
      const id = await draft();
      expect((await post(`/api/campaigns/${id}/schedule`, { at: inMinutes(60) })).status).toBe(200);
      const deletes = () => api().delete(`/api/campaigns/${id}`).set('Authorization', auth);
      const [back, ...removed] = await Promise.all([post(`/api/campaigns/${id}/unschedule`), deletes(), deletes(), deletes()]);
      expect({ status: back.status, body: back.body }).toMatchObject({ status: 200, body: { id, status: 'DRAFT', scheduledAt: null } });
      // Each DELETE came before the unschedule (409, still scheduled), after it (204) or after another DELETE (404).
      for (const res of removed) expect([204, 404, 409], JSON.stringify(res.body)).toContain(res.status);
      const unscheduled = await t.db.pool.query(
        `SELECT count(*)::int AS n FROM activity WHERE kind = 'unschedule' AND object_type = 'campaign' AND object_id = $1`,
        [id],
      );
      expect(unscheduled.rows[0].n).toBe(1);
      outcomes.push(removed.some((res) => res.status === 204) ? 'deleted' : 'kept');
    }
    // The race was run: at least one DELETE waited for the unschedule and then deleted the draft.
    expect(outcomes).toContain('deleted');
  }, 180_000);

  it('answers a successful unschedule with the draft when a delete queued behind it wins the next read (10 races)', async () => {
    // The tight form of the race above: the delete waits in the row's lock queue right behind the
    // unschedule and runs in the server the moment it commits, before any read the API makes after.
    const waiting = async (n: number, id: number) => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        const { rows } = await t.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0]!.n >= n) return;
      }
      throw new Error(`${n} waiters for campaign ${id} not seen`);
    };
    for (let race = 0; race < 10; race++) {
      const id = await draft();
      expect((await post(`/api/campaigns/${id}/schedule`, { at: inMinutes(60) })).status).toBe(200);
      const holder = await t.db.pool.connect();
      const deleter = await t.db.pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE', [id]);
        const back = post(`/api/campaigns/${id}/unschedule`).then((res) => res); // sent now, not when awaited
        await waiting(1, id);
        // Each statement of a DO block reads afresh: the lock first, then the draft it has become.
        const removed = deleter.query(
          `DO $$ BEGIN PERFORM 1 FROM campaigns WHERE id = ${id} FOR UPDATE; DELETE FROM campaigns WHERE id = ${id} AND status = 'DRAFT'; END $$`,
        );
        await waiting(2, id);
        await holder.query('COMMIT');
        const [res] = await Promise.all([back, removed]);
        expect({ status: res.status, body: res.body }).toMatchObject({ status: 200, body: { id, status: 'DRAFT', scheduledAt: null } });
        expect((await t.db.pool.query('SELECT 1 FROM campaigns WHERE id = $1', [id])).rowCount).toBe(0);
      } finally {
        holder.release();
        deleter.release();
      }
    }
  }, 180_000);

  it('schedules only drafts: a sending campaign is 409, and cannot be unscheduled', async () => {
    const id = await draft();
    await t.db.pool.query("UPDATE campaigns SET status = 'SENDING' WHERE id = $1", [id]);
    const res = await post(`/api/campaigns/${id}/schedule`, { at: inMinutes(10) });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(ONLY_DRAFTS_SCHEDULED);
    expect((await post(`/api/campaigns/${id}/unschedule`)).status).toBe(409);
  });
});
