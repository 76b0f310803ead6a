/**
 * The sending pipeline end to end: the send call, RabbitMQ (queues private to this file), the
 * 'campaign-send' consumer, PostgreSQL, and a local SES-compatible endpoint this test controls
 * (throttling, daily quota). Worker processes and a crash are in workers/send-processes.int.test.ts.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate, type SeedContact } from '../../../test/support/seed.js';
import { startSesEndpoint, type AcceptedMail, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { createTrackingTokens } from '../../mail/tracking-tokens.js';
import { campaignWorkers } from '../../workers/campaigns.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let templateId: number;

const TEMPLATE =
  '<html><head><title>News</title></head><body>' +
  '<p>Dear {{firstName}} of {{city}},</p><p>Your code: {{code}}</p>' +
  '<a href="https://example.org/offer?c=1&amp;d=2">Offer</a> <a href="https://example.org/events">Events</a>' +
  '</body></html>';

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 200, max24HourSend: 100_000 });
  t = await createTestApp({
    queue: 'rabbitmq',
    workers: [campaignWorkers],
    env: { SES_ENDPOINT: ses.endpoint, SES_CONFIGURATION_SET: 'mailroom-events', PUBLIC_URL: 'https://mail.example.org' },
  });
  auth = await bearer();
  templateId = await seedTemplate(t.db.pool, { html: TEMPLATE });
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` valid contacts `<prefix>-<n>@example.org`, each with its own values. */
function contacts(prefix: string, count: number): SeedContact[] {
  return Array.from({ length: count }, (_, n) => ({
    email: `${prefix}-${n}@example.org`,
    data: { firstName: `First${n}`, city: `City <${n}>`, code: `${prefix.toUpperCase()}${n}` },
  }));
}

async function campaignTo(audienceId: number, subject = 'News for {{firstName}}'): Promise<number> {
  const created = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Pipeline', templateId });
  const id = created.body.id as number;
  const saved = await api().put(`/api/campaigns/${id}`).set('Authorization', auth).send({
    name: 'Pipeline',
    audienceId,
    templateId,
    fromName: 'Example News',
    fromEmail: 'newsletter@example.org',
    subject,
    previewText: 'Hello {{firstName}}',
  });
  expect(saved.status).toBe(200);
  return id;
}

async function send(id: number, path = 'send'): Promise<void> {
  const res = await api().post(`/api/campaigns/${id}/${path}`).set('Authorization', auth);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
}

interface CampaignState {
  status: string;
  error_message: string | null;
  jobs_sent: number;
  jobs_failed: number;
  contact_count: number;
}

const state = async (id: number) =>
  (
    await t.db.pool.query<CampaignState>(
      'SELECT status, error_message, jobs_sent, jobs_failed, contact_count FROM campaigns WHERE id = $1',
      [id],
    )
  ).rows[0]!;

/** SENT, or ERROR with no job still being sent (batches in flight when it stopped have recorded theirs). */
async function settled(id: number, timeoutMs = 40_000): Promise<CampaignState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await state(id);
    if (now.status === 'SENT') return now;
    if (now.status === 'ERROR') {
      const sending = await t.db.pool.query(`SELECT 1 FROM campaign_jobs WHERE campaign_id = $1 AND status = 'SENDING'`, [id]);
      if (sending.rows.length === 0) return state(id);
    }
    if (Date.now() > deadline) throw new Error(`campaign ${id} still ${now.status}`);
    await sleep(50);
  }
}

const jobsOf = async (id: number) =>
  (
    await t.db.pool.query<{ id: number; email: string; status: string; ses_message_id: string | null; attempts: number }>(
      'SELECT id, email, status, ses_message_id, attempts FROM campaign_jobs WHERE campaign_id = $1 ORDER BY id',
      [id],
    )
  ).rows;

/** The campaign once paused at the daily quota with no job still being sent. */
async function pausedAtQuota(id: number, timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await t.db.pool.query<CampaignState & { quota_paused_until: Date | null }>(
      `SELECT status, error_message, jobs_sent, jobs_failed, contact_count, quota_paused_until FROM campaigns WHERE id = $1`,
      [id],
    );
    const sending = await t.db.pool.query(`SELECT 1 FROM campaign_jobs WHERE campaign_id = $1 AND status = 'SENDING'`, [id]);
    if (rows[0]!.quota_paused_until && sending.rows.length === 0) return rows[0]!;
    if (rows[0]!.status !== 'SENDING') throw new Error(`campaign ${id} ${rows[0]!.status}, not paused`);
    if (Date.now() > deadline) throw new Error(`campaign ${id} not paused`);
    await sleep(50);
  }
}

/** The shared pace back to MaxSendRate, so that a test that slowed it down does not slow the next. */
const fullPace = () => t.db.pool.query(`UPDATE send_rate SET slowdown = 1, ceiling = 1, slowed_at = '2000-01-01', refusals = 0`);

const mailsTo = (prefix: string): AcceptedMail[] => ses.mails.filter((mail) => mail.to.startsWith(`${prefix}-`));

/** Every recipient of `prefix` received exactly `times` mails (and nothing else went to them). */
function expectEachOnce(prefix: string, emails: string[]): void {
  const counts = new Map<string, number>();
  for (const mail of mailsTo(prefix)) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
  expect([...counts.keys()].sort()).toEqual([...emails].sort());
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
}

describe('the sending pipeline', () => {
  it('sends every valid, not suppressed contact exactly one mail with its own merge values, links and headers', async () => {
    const people = contacts('each', 40);
    const audience = await seedAudience(t.db.pool, {
      headers: ['firstName', 'city', 'code'],
      contacts: [...people, { email: 'broken', error: 'Invalid email address' }, { email: 'Gone@Example.org' }],
    });
    await t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('gone@example.org', 'COMPLAINT')`);
    const id = await campaignTo(audience.id);
    await send(id);
    expect(await settled(id)).toMatchObject({ status: 'SENT', error_message: null, jobs_sent: 40, jobs_failed: 0, contact_count: 40 });

    expectEachOnce(
      'each',
      people.map((p) => p.email),
    );
    expect(ses.mails.some((mail) => mail.to === 'Gone@Example.org' || mail.to === 'broken')).toBe(false);
    const jobs = await jobsOf(id);
    expect(jobs.every((job) => job.status === 'SENT_WAIT_ACK' && job.ses_message_id?.startsWith('local-') && job.attempts === 1)).toBe(
      true,
    );

    const tokens = createTrackingTokens(t.config.trackingSecret);
    const links = (
      await t.db.pool.query('SELECT id, href FROM campaign_links WHERE campaign_id = $1 AND NOT hidden ORDER BY position', [id])
    ).rows;
    for (const [n, person] of people.entries()) {
      const mail = mailsTo('each').find((m) => m.to === person.email)!;
      const job = jobs.find((j) => j.email === person.email)!;
      expect(mail.from).toBe('"Example News" <newsletter@example.org>');
      expect(mail.subject).toBe(`News for First${n}`);
      expect(mail.configurationSet).toBe('mailroom-events');
      expect(mail.tags).toEqual({ campaign_id: String(id), job_id: String(job.id) });
      expect(mail.html).toContain(`<p>Dear First${n} of City &lt;${n}&gt;,</p><p>Your code: EACH${n}</p>`);
      expect(mail.html).toContain(`>Hello First${n}</div>`);
      expect(mail.html).toContain(
        `<a data-link-id="${links[0].id}" href="https://mail.example.org/t/c/${tokens.click(job.id, links[0].id)}">Offer</a>`,
      );
      expect(mail.html).toContain(`<img src="https://mail.example.org/t/o/${tokens.open(job.id)}"`);
      const unsubscribe = `https://mail.example.org/unsubscribe/${tokens.unsubscribe(job.id)}`;
      expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
      expect(mail.text).toContain(`Dear First${n} of City <${n}>,`);
      expect(mail.text).toContain(`Unsubscribe: ${unsubscribe}`);
    }

    // The links in a mail lead where the template pointed, and are recorded for that contact.
    const first = mailsTo('each')[0]!;
    const clickPath = /href="https:\/\/mail\.example\.org(\/t\/c\/[^"]+)">Offer/.exec(first.html)![1]!;
    const click = await api().get(clickPath);
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe('https://example.org/offer?c=1&d=2');
    await t.deps.services.tracking.flush();
    expect(
      (await api().get('/api/campaigns?name=Pipeline').set('Authorization', auth)).body.data.items.find((c: { id: number }) => c.id === id),
    ).toMatchObject({ status: 'SENT', jobsSent: 40, contactCount: 40, uniqueClicks: 1, uniqueOpens: 1 });
  });

  it("builds the test mail as the campaign's mail to the same contact, but for the test mark and the tracking", async () => {
    // mail/campaign-mail.ts is the one path of both: what a tester receives is what the contact gets.
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: contacts('same', 1) });
    const before = ses.mails.length;
    const tested = await api()
      .post('/api/campaigns/send-test-email')
      .set('Authorization', auth)
      .send({
        emails: ['tester@example.org'],
        fromEmail: 'newsletter@example.org',
        fromName: 'Example News',
        subject: 'News for {{firstName}}',
        previewText: 'Hello {{firstName}}',
        templateId,
        audienceId: audience.id,
      });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    const testMail = ses.mails.slice(before).find((mail) => mail.to === 'tester@example.org')!;
    const id = await campaignTo(audience.id);
    await send(id);
    expect((await settled(id)).status).toBe('SENT');
    const [campaignMail] = mailsTo('same');
    const [job] = await jobsOf(id);

    expect(testMail.subject).toBe(`[Test] ${campaignMail!.subject}`);
    expect(testMail.from).toBe(campaignMail!.from);
    expect(testMail.configurationSet).toBe(campaignMail!.configurationSet);
    expect([testMail.headers, testMail.tags]).toEqual([{}, {}]);
    // The campaign's html without its tracking (the hidden link, the tracked hrefs, the unsubscribe
    // line and the pixel) is the test mail's, byte for byte; so is the text without the unsubscribe line.
    const tokens = createTrackingTokens(t.config.trackingSecret);
    const links = (
      await t.db.pool.query<{ id: number; href: string }>('SELECT id, href FROM campaign_links WHERE campaign_id = $1 AND NOT hidden', [id])
    ).rows;
    let untracked = campaignMail!.html.replace(/<a [^>]*data-hidden-link[^>]*><\/a>/, '');
    for (const link of links)
      untracked = untracked.replace(
        ` data-link-id="${link.id}" href="https://mail.example.org/t/c/${tokens.click(job!.id, link.id)}"`,
        ` href="${link.href.replaceAll('&', '&amp;')}"`,
      );
    untracked = untracked.replace(/<div style="text-align:center[^"]*">If you no longer wish.*?<\/div><img [^>]*\/>/, '');
    expect(untracked).not.toBe(campaignMail!.html);
    expect(testMail.html).toBe(untracked);
    const unsubscribe = `https://mail.example.org/unsubscribe/${tokens.unsubscribe(job!.id)}`;
    expect(campaignMail!.text).toBe(`${testMail.text}\n\n--\nUnsubscribe: ${unsubscribe}\n`);
  });

  it('sends nothing twice when batches are delivered again or twice at once', async () => {
    const people = contacts('again', 30);
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    const id = await campaignTo(audience.id);
    await send(id);
    // While the first delivery is being sent, every job id is delivered again, twice.
    const ids = (await jobsOf(id)).map((job) => job.id);
    await Promise.all([
      t.deps.messageQueue.publish('campaign-send', { campaignId: id, jobIds: ids }),
      t.deps.messageQueue.publish('campaign-send', { campaignId: id, jobIds: ids }),
    ]);
    expect((await settled(id)).status).toBe('SENT');
    // And once more after the end.
    await t.deps.messageQueue.publish('campaign-send', { campaignId: id, jobIds: ids });
    await sleep(1500);
    expectEachOnce(
      'again',
      people.map((p) => p.email),
    );
    expect((await state(id)).jobs_sent).toBe(30);
  });

  it('slows down when SES answers 429, and drops nothing, counting no refusal as an attempt', async () => {
    const people = contacts('slow', 60);
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    // GetAccount says 200 a second; SES really takes 20.
    ses.options.enforcedRate = 20;
    try {
      const id = await campaignTo(audience.id);
      const throttledBefore = ses.throttled;
      await send(id);
      expect(await settled(id, 60_000)).toMatchObject({ status: 'SENT', jobs_sent: 60, jobs_failed: 0 });
      expectEachOnce(
        'slow',
        people.map((p) => p.email),
      );
      const refusals = ses.throttled - throttledBefore;
      expect(refusals).toBeGreaterThan(0);
      // Without slowing down, 200 a second against 20 would be refused about 9 times in 10 (some 540 refusals).
      // Two rounds at most: the 40 mails after the first 20 leave within 0.3 s, before any answer
      // comes back, and their retry a second later meets the window once more (56 to 60 here).
      expect(refusals).toBeLessThan(90);
      // Refused mails were called again, yet a refusal for the rate is no attempt.
      expect([...ses.calls.entries()].filter(([to, n]) => to.startsWith('slow-') && n > 1).length).toBeGreaterThan(0);
      expect((await jobsOf(id)).every((job) => job.attempts === 1)).toBe(true);
    } finally {
      ses.options.enforcedRate = undefined;
      await fullPace();
    }
  });

  it('adapts when SES grants less than it advertises from the middle of a send: every mail once, none failed', async () => {
    const people = contacts('adapt', 240);
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    try {
      const id = await campaignTo(audience.id);
      const before = ses.acceptedTotal();
      const throttledBefore = ses.throttled;
      await send(id);
      // Another sender starts sharing the account: SES now grants 40 a second of the 200 it advertises.
      while (ses.acceptedTotal() - before < 40) await sleep(10);
      ses.options.trueRate = 40;
      expect(await settled(id, 60_000)).toMatchObject({ status: 'SENT', jobs_sent: 240, jobs_failed: 0 });
      expectEachOnce(
        'adapt',
        people.map((p) => p.email),
      );
      // Fewer refusals than mails (111 here); at 186 a second against 40, about 4 calls in 5 would be refused (some 900).
      expect(ses.throttled - throttledBefore).toBeGreaterThan(0);
      expect(ses.throttled - throttledBefore).toBeLessThan(240);
      expect((await jobsOf(id)).every((job) => job.status === 'SENT_WAIT_ACK' && job.attempts === 1)).toBe(true);
      // The shared pace came down to what SES grants: 40 of 186 (93 % of 200) is 0.22.
      const { rows } = await t.db.pool.query<{ ceiling: number }>('SELECT ceiling FROM send_rate');
      expect(rows[0]!.ceiling).toBeLessThan(0.6);
    } finally {
      ses.options.trueRate = undefined;
      await fullPace();
    }
  });

  it('pauses at the daily quota, says until when, sends nothing meanwhile and resumes by itself once the 24 hours allow', async () => {
    const people = contacts('quota', 50);
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    ses.options.max24HourSend = ses.acceptedTotal() + 30;
    ses.options.enforceDailyQuota = true;
    try {
      const id = await campaignTo(audience.id);
      await send(id);
      const paused = await pausedAtQuota(id);
      expect(paused).toMatchObject({ status: 'SENDING', error_message: null, jobs_sent: 30, jobs_failed: 0 });
      expect(mailsTo('quota')).toHaveLength(30);
      // When the oldest mail in SES's 24 hours has left them, to the minute (not the end of its hour): the first this file sent.
      const { rows: oldest } = await t.db.pool.query<{ first: Date }>(
        `SELECT min(sent_at) AS first FROM campaign_jobs WHERE sent_at > now() - interval '24 hours'`,
      );
      const frees = oldest[0]!.first.getTime() + 24 * 3_600_000;
      expect(paused.quota_paused_until!.getTime()).toBeGreaterThan(frees);
      expect(paused.quota_paused_until!.getTime()).toBeLessThanOrEqual(frees + 60_000);
      expect(paused.quota_paused_until!.getUTCSeconds()).toBe(0);
      const listed = await api().get('/api/campaigns?name=Pipeline&limit=100').set('Authorization', auth);
      expect(listed.body.data.items.find((c: { id: number }) => c.id === id)).toMatchObject({
        status: 'SENDING',
        errorMessage: null,
        quotaPausedUntil: paused.quota_paused_until!.toISOString(),
      });
      const report = await api().get(`/api/campaigns/${id}`).set('Authorization', auth);
      expect(report.body.quotaPausedUntil).toBe(paused.quota_paused_until!.toISOString());
      const jobs = await jobsOf(id);
      // Not sent, not failed, and the quota is no attempt.
      expect(jobs.filter((job) => job.status === 'QUEUED' && job.attempts === 0)).toHaveLength(20);
      expect(jobs.filter((job) => job.status === 'SENT_WAIT_ACK')).toHaveLength(30);

      // Paused, nothing is claimed, whatever delivers its jobs (the idle sweep leaves it too).
      ses.options.max24HourSend = ses.acceptedTotal() + 1000;
      await t.deps.messageQueue.publish('campaign-send', { campaignId: id, jobIds: jobs.map((job) => job.id) });
      await t.deps.services.sending.sweep();
      await sleep(1500);
      expect(mailsTo('quota')).toHaveLength(30);
      expect((await state(id)).status).toBe('SENDING');

      // The time comes (the clock moved on): the sweep takes the pause off and the rest goes, once each.
      await t.db.pool.query(`UPDATE campaigns SET quota_paused_until = now() - interval '1 second' WHERE id = $1`, [id]);
      const swept = await t.deps.services.sending.sweep();
      expect(swept.republished).toBe(20);
      expect(await settled(id)).toMatchObject({ status: 'SENT', error_message: null, jobs_sent: 50 });
      expectEachOnce(
        'quota',
        people.map((p) => p.email),
      );
      const again = await api().get(`/api/campaigns/${id}`).set('Authorization', auth);
      expect(again.body.quotaPausedUntil).toBeNull();
    } finally {
      ses.options.enforceDailyQuota = false;
      ses.options.max24HourSend = 100_000;
      await sleep(1100);
    }
  });

  it("pauses as well when SES itself says the daily quota is used up, and a member's stop cancels the pause; continue sends the rest", async () => {
    const people = contacts('stop', 30);
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    // SES refuses although its account read said there was room (another sender of the account used it).
    let refused = 0;
    ses.options.intercept = ({ to }) => {
      if (!to.startsWith('stop-') || ses.countFor(to) > 0 || ses.mails.filter((m) => m.to.startsWith('stop-')).length < 10)
        return undefined;
      refused++;
      return { status: 400, error: 'ThrottlingException', message: 'Daily message quota exceeded.' };
    };
    try {
      const id = await campaignTo(audience.id);
      await send(id);
      const paused = await pausedAtQuota(id);
      expect(paused).toMatchObject({ status: 'SENDING', jobs_sent: 10, jobs_failed: 0 });
      expect(refused).toBeGreaterThan(0);
      expect((await jobsOf(id)).filter((job) => job.status === 'QUEUED').every((job) => job.attempts === 0)).toBe(true);

      const stopped = await api().post(`/api/campaigns/${id}/stop`).set('Authorization', auth);
      expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
      expect(stopped.body).toMatchObject({ id, status: 'ERROR', quotaPausedUntil: null });
      expect(stopped.body.errorMessage).toMatch(/^Sending was stopped by .+@.+\. Continue sends to the contacts not sent to yet\.$/);
      // Only a sending campaign stops.
      expect((await api().post(`/api/campaigns/${id}/stop`).set('Authorization', auth)).status).toBe(409);
      const logged = await t.db.pool.query(`SELECT 1 FROM activity WHERE kind = 'stop' AND object_type = 'campaign' AND object_id = $1`, [
        id,
      ]);
      expect(logged.rows).toHaveLength(1);

      ses.options.intercept = undefined;
      await send(id, 'continue');
      expect(await settled(id)).toMatchObject({ status: 'SENT', error_message: null, jobs_sent: 30 });
      expectEachOnce(
        'stop',
        people.map((p) => p.email),
      );
    } finally {
      ses.options.intercept = undefined;
    }
  });

  it('never sends a campaign whose subject or sender name holds a line break, and flattens line breaks in values', async () => {
    const people = contacts('header', 3);
    people[0]!.data!.firstName = 'Eve\r\nBcc: victim@example.org';
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    const before = ses.calls.size;

    // The contract refuses such a subject; one that reached the database anyway is refused by the send call.
    const refused = await campaignTo(audience.id);
    await t.db.pool.query(`UPDATE campaigns SET subject = E'Hi\\r\\nBcc: victim@example.org' WHERE id = $1`, [refused]);
    expect((await api().post(`/api/campaigns/${refused}/send`).set('Authorization', auth)).status).toBe(400);

    // Sent as it should be: Eve's value holds a line break.
    const sent = await campaignTo(audience.id);
    await send(sent);
    expect((await settled(sent)).status).toBe('SENT');

    // A snapshot altered after the send call: the worker refuses it before calling SES.
    const altered = await campaignTo(audience.id);
    await t.db.pool.query(
      `UPDATE campaigns SET status = 'SENDING', html = $2, from_name = E'News\\r\\nBcc: victim@example.org' WHERE id = $1`,
      [altered, TEMPLATE],
    );
    const job = await t.db.pool.query<{ id: number }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email) VALUES ($1, $2, 'header-x@example.org') RETURNING id`,
      [altered, audience.contactIds[1]],
    );
    await t.deps.messageQueue.publish('campaign-send', { campaignId: altered, jobIds: [job.rows[0]!.id] });
    expect(await settled(altered)).toMatchObject({ status: 'ERROR', error_message: 'The sender name must be on one line', jobs_sent: 0 });
    expect((await jobsOf(altered))[0]!.status).toBe('QUEUED');

    // The sent one: Eve's subject is on one line, and no header came from her value.
    const eve = mailsTo('header').find((mail) => mail.to === 'header-0@example.org')!;
    expect(eve.subject).toBe('News for Eve Bcc: victim@example.org');
    expect(Object.keys(eve.headers)).toEqual(['List-Unsubscribe', 'List-Unsubscribe-Post']);
    expect(ses.calls.has('victim@example.org')).toBe(false);
    expect(ses.calls.size).toBe(before + 3);
  });

  it('skips whoever leaves while the campaign is sending: no mail to them, and the counts say so (issue 25)', async () => {
    const people = contacts('leave', 150);
    const audience = await seedAudience(t.db.pool, { headers: ['firstName', 'city', 'code'], contacts: people });
    // The last 50 (never in the first claim: a worker claims at most SEND_CONCURRENCY, 50, at once) leave while the
    // first mails are with SES: 49 switch the audience off in the preference centre, one unsubscribes from everything.
    const leavers = people.slice(100).map((p) => p.email);
    let leaving: Promise<unknown> | undefined;
    ses.options.intercept = async () => {
      leaving ??= Promise.all([
        t.db.pool.query('UPDATE contacts SET unsubscribed_at = now() WHERE audience_id = $1 AND email = ANY($2)', [
          audience.id,
          leavers.slice(1),
        ]),
        t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES (address_key($1), 'UNSUBSCRIBE')`, [leavers[0]]),
      ]);
      await leaving;
      return undefined;
    };
    try {
      const id = await campaignTo(audience.id);
      await send(id);
      expect(await settled(id)).toMatchObject({ status: 'SENT', jobs_sent: 100, jobs_failed: 0, contact_count: 100 });
      expectEachOnce(
        'leave',
        people.slice(0, 100).map((p) => p.email),
      );
      expect((await jobsOf(id)).map((job) => job.email).filter((email) => leavers.includes(email))).toEqual([]);
      const counts = await t.db.pool.query<{ status: string; jobs: string }>(
        'SELECT status, sum(jobs)::text AS jobs FROM campaign_job_counts WHERE campaign_id = $1 GROUP BY status HAVING sum(jobs) <> 0',
        [id],
      );
      expect(counts.rows).toEqual([{ status: 'SENT_WAIT_ACK', jobs: '100' }]);
      const notSent = await api().get(`/api/reports/${id}/email-performance?sendStatus=NOT_SENT&limit=100`).set('Authorization', auth);
      expect(notSent.body.items).toHaveLength(50);
      const rows = notSent.body.items as { email: string; leftAudience?: boolean; suppressionReason: string | null }[];
      expect(rows.find((row) => row.email === leavers[0])).toMatchObject({ suppressionReason: 'UNSUBSCRIBE' });
      expect(
        rows
          .filter((row) => row.leftAudience === true)
          .map((row) => row.email)
          .sort(),
      ).toEqual(leavers.slice(1).sort());
    } finally {
      ses.options.intercept = undefined;
    }
  });
});
