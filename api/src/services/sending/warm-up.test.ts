/**
 * The warm-up plan (issue 28): its days and volumes, and a campaign held to the day's volume that
 * continues by itself the next day, with a clock the test moves (the limiter's and the sweep's).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedGeneratedAudience, seedTemplate } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { campaignWorkers } from '../../workers/campaigns.js';
import { warmUpDay, warmUpToday, warmUpVolume, type WarmUpPlan } from './warm-up.js';

const DAY_MS = 86_400_000;

describe('the warm-up plan', () => {
  const plan: WarmUpPlan = { start: 500, factor: 1.5, startDate: '2026-03-01' };

  it('counts UTC days from the start date, the days before it as the first', () => {
    expect(warmUpDay(plan, Date.parse('2026-02-20T12:00:00Z'))).toBe(0);
    expect(warmUpDay(plan, Date.parse('2026-03-01T00:00:00Z'))).toBe(0);
    expect(warmUpDay(plan, Date.parse('2026-03-01T23:59:59Z'))).toBe(0);
    expect(warmUpDay(plan, Date.parse('2026-03-02T00:00:00Z'))).toBe(1);
    expect(warmUpDay(plan, Date.parse('2026-03-11T08:00:00Z'))).toBe(10);
  });

  it('grows the volume by the factor each day, whole mails, and stops mattering far out', () => {
    expect([0, 1, 2, 3].map((day) => warmUpVolume(plan, day))).toEqual([500, 750, 1125, 1687]);
    expect(warmUpVolume({ ...plan, factor: 1 }, 30)).toBe(500);
    expect(warmUpVolume(plan, 10_000)).toBe(1e12);
  });

  it('says the date the mails count under, and when the next day begins', () => {
    expect(warmUpToday(plan, Date.parse('2026-03-02T17:45:12Z'))).toEqual({
      day: 1,
      date: '2026-03-02',
      volume: 750,
      nextDayAt: new Date('2026-03-03T00:00:00Z'),
    });
  });
});

describe('a campaign under the warm-up plan', () => {
  let t: TestApp;
  let ses: SesEndpoint;
  let auth: string;
  /** The clock of the warm-up's days: real time moved by `offsetMs`. */
  let offsetMs = 0;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    ses = await startSesEndpoint({ maxSendRate: 100, max24HourSend: -1 });
    t = await createTestApp({
      workers: [campaignWorkers],
      env: { SES_ENDPOINT: ses.endpoint, WARMUP_START: '5', WARMUP_FACTOR: '2', WARMUP_START_DATE: today },
      deps: { clock: () => Date.now() + offsetMs },
    });
    auth = await bearer();
  });
  afterAll(async () => {
    await t?.close();
    await ses?.close();
  });

  const api = () => request(t.app);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const sentTo = () => ses.mails.filter((mail) => mail.to.endsWith('@warm.example.org'));

  async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  /** Day one's volume is 5 and day two's 10: 5 go on day one, the other 7 on day two. */
  const CONTACTS = 12;

  it("sends no more than the day's volume, says so with the time it resumes, and continues the next day by itself", async () => {
    const templateId = await seedTemplate(t.db.pool, { html: '<p>Hello {{firstName}}</p>' });
    const { id: audienceId } = await seedGeneratedAudience(t.db.pool, CONTACTS, 'warm.example.org');
    const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Warm', templateId });
    const id = created.body.id as number;
    const saved = await api()
      .put(`/api/campaigns/${id}`)
      .set('Authorization', auth)
      .send({ name: 'Warm', audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Hi' });
    expect(saved.status).toBe(200);
    expect((await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth)).status).toBe(202);

    // Day one: 5 mails, then a pause until the next UTC midnight (by the plan's clock), said by the list and the report.
    const tomorrow = new Date(Math.floor(Date.now() / DAY_MS + 1) * DAY_MS).toISOString();
    const paused = await until('the warm-up pause', async () => {
      const res = await api().get(`/api/campaigns/${id}`).set('Authorization', auth);
      return res.body.quotaPausedUntil ? res.body : undefined;
    });
    expect(paused).toMatchObject({ status: 'SENDING', pausedFor: 'WARM_UP', quotaPausedUntil: tomorrow, errorMessage: null });
    const listed = await api().get('/api/campaigns?name=Warm').set('Authorization', auth);
    expect(listed.body.data.items.find((c: { id: number }) => c.id === id)).toMatchObject({
      pausedFor: 'WARM_UP',
      quotaPausedUntil: tomorrow,
    });
    // Once no mail is in flight: exactly the day's 5, however busy the machine (a slot its worker missed goes back to the
    // day it was reserved in, and the day's answer waits for the slots still in the worker's hands).
    await until('no mail in flight', async () => {
      const { rows } = await t.db.pool.query(`SELECT 1 FROM campaign_jobs WHERE campaign_id = $1 AND status = 'SENDING' LIMIT 1`, [id]);
      return rows.length === 0 ? true : undefined;
    });
    const dayOne = sentTo().length;
    expect(dayOne).toBe(5);
    // Held: not failed, no attempt counted.
    const { rows: held } = await t.db.pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM campaign_jobs WHERE campaign_id = $1',
      [id],
    );
    expect(held.filter((job) => job.status === 'QUEUED' && job.attempts === 0)).toHaveLength(CONTACTS - dayOne);

    // Still today: the sweep leaves it paused.
    expect((await t.deps.services.sending.sweep()).republished).toBe(0);
    await sleep(300);
    expect(sentTo()).toHaveLength(dayOne);

    // The next day (by the moved clock): 10 allowed, the rest go without anyone asking, each once.
    offsetMs = Date.parse(tomorrow) - Date.now() + 1000;
    const swept = await t.deps.services.sending.sweep();
    expect(swept.republished).toBe(CONTACTS - dayOne);
    await until('the campaign to be sent', async () => {
      const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id]);
      return rows[0]!.status === 'SENT' ? true : undefined;
    });
    expect(sentTo()).toHaveLength(CONTACTS);
    expect(new Set(sentTo().map((mail) => mail.to)).size).toBe(CONTACTS);
    const after = await api().get(`/api/campaigns/${id}`).set('Authorization', auth);
    expect(after.body).toMatchObject({ status: 'SENT', quotaPausedUntil: null, pausedFor: null });
    // The second day's count: the 7 sent, and slots reserved but not used yet (given back with the next reservation), within its 10.
    const { rows: rate } = await t.db.pool.query<{ warm_up_sent: number; warm_up_date: string }>(
      'SELECT warm_up_sent::int, warm_up_date::text FROM send_rate',
    );
    expect(rate[0]!.warm_up_date).toBe(tomorrow.slice(0, 10));
    expect(rate[0]!.warm_up_sent).toBeGreaterThanOrEqual(7);
    expect(rate[0]!.warm_up_sent).toBeLessThanOrEqual(10);
  }, 60_000);
});
