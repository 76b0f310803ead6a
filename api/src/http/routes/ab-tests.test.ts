/**
 * A/B tests (issue 28) through the whole API and the real sending pipeline (RabbitMQ, the 'campaign-send'
 * consumer and the A/B test decision of workers/campaigns.ts, PostgreSQL, a local SES-compatible endpoint):
 * the contract's and the service's checks; the test share split evenly at random, the same seed giving the
 * same split; each variant's mail; the winner judged on people's opens through the real open pixel and its
 * classifier (Apple's privacy proxy opens count for nothing); the rest sent the winner once, whoever decides
 * twice, and across a worker that died mid-decision and a new one.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { createTrackingTokens, type TrackingTokens } from '../../mail/tracking-tokens.js';
import {
  DEFAULT_VARIANT_MISSING,
  NO_AB_TEST,
  NO_SUCH_VARIANT,
  NOT_TESTING,
  ONLY_DRAFTS_TESTED,
  VARIANTS_SAME,
  VARIANT_CHANGES_NOTHING,
  VARIANT_WITHOUT_CAMPAIGN,
} from '../../services/campaigns/ab-test-service.js';
import { AB_TEST_WAITING } from '../../services/sending/producer.js';
import { campaignWorkers } from '../../workers/campaigns.js';
import { startWorkers, type Workers } from '../../workers/index.js';

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let templateId: number;
let otherTemplateId: number;
let tokens: TrackingTokens;
/** The worker of this file's process; the restart test stops it and starts another. */
let worker: Workers | undefined;

const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 500, max24HourSend: 1_000_000 });
  t = await createTestApp({
    queue: 'rabbitmq',
    env: { SES_ENDPOINT: ses.endpoint, AUTHORIZED_SENDER_EMAILS: 'newsletter@example.org', PUBLIC_URL: 'https://mail.example.org' },
  });
  worker = await startWorkers(t.deps, [campaignWorkers]);
  auth = await bearer();
  tokens = createTrackingTokens(t.config.trackingSecret);
  templateId = await seedTemplate(t.db.pool, { html: '<p>Hello</p><a href="https://example.org/a">A</a>' });
  otherTemplateId = await seedTemplate(t.db.pool, { html: '<p>Other layout</p><a href="https://example.org/b">B</a>' });
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await ses?.close();
});

const api = () => request(t.app);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rows = async <T>(sql: string, params: unknown[] = []) => (await t.db.pool.query(sql, params)).rows as T[];

async function audienceOf(prefix: string, count: number): Promise<number> {
  const contacts = Array.from({ length: count }, (_, n) => ({ email: `${prefix}-${n}@example.org`, data: {} }));
  return (await seedAudience(t.db.pool, { headers: [], contacts })).id;
}

async function draft(name: string, audienceId: number): Promise<number> {
  const id = (await api().post('/api/campaigns').set('Authorization', auth).send({ name, templateId })).body.id as number;
  const saved = await api()
    .put(`/api/campaigns/${id}`)
    .set('Authorization', auth)
    .send({ name, audienceId, templateId, fromName: 'News', fromEmail: 'newsletter@example.org', subject: 'Autumn' });
  expect(saved.status).toBe(200);
  return id;
}

const subjects = (...s: string[]) => s.map((subject) => ({ subject }));
const saveTest = (id: number, body: object) => api().put(`/api/campaigns/${id}/ab-test`).set('Authorization', auth).send(body);
const abTest = async (id: number) => {
  const res = await api().get(`/api/campaigns/${id}/ab-test`).set('Authorization', auth);
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Waits until no job of the campaign is queued or sending. */
async function settled(id: number): Promise<void> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const [busy] = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1 AND status IN ('QUEUED', 'SENDING')`,
      [id],
    );
    const [jobs] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1', [id]);
    if (busy!.n === 0 && jobs!.n > 0) return;
    if (Date.now() > deadline) throw new Error(`campaign ${id} still sending`);
    await sleep(50);
  }
}

async function send(id: number): Promise<void> {
  const res = await api().post(`/api/campaigns/${id}/send`).set('Authorization', auth);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await settled(id);
}

const status = async (id: number) => (await rows<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id]))[0]!.status;
const variantsOf = async (id: number) =>
  new Map(
    (await rows<{ contact_id: number; variant: number }>('SELECT contact_id, variant FROM campaign_jobs WHERE campaign_id = $1', [id])).map(
      (row) => [row.contact_id, row.variant],
    ),
  );
const perVariant = async (id: number) =>
  (
    await rows<{ variant: number; n: number }>(
      'SELECT variant, count(*)::int AS n FROM campaign_jobs WHERE campaign_id = $1 GROUP BY variant ORDER BY variant',
      [id],
    )
  ).map((row) => row.n);

/** Ends the campaign's wait now, as if its hours had passed. */
const endWait = (id: number) =>
  t.db.pool.query(`UPDATE campaign_ab_tests SET ends_at = now() - interval '1 second' WHERE campaign_id = $1`, [id]);

/** Opens of the given jobs through the open pixel: a person's (Safari from an ordinary address) or Apple's privacy proxy's. */
async function open(jobIds: number[], by: 'person' | 'apple-proxy'): Promise<void> {
  for (const [n, job] of jobIds.entries())
    await api()
      .get(`/t/o/${tokens.open(job)}`)
      .set('User-Agent', SAFARI)
      .set('X-Forwarded-For', by === 'person' ? `198.51.100.${(n % 200) + 1}` : `17.58.1.${(n % 200) + 1}`);
  await t.deps.services.tracking.flush();
}

const jobsOfVariant = async (id: number, variant: number) =>
  (await rows<{ id: number }>('SELECT id FROM campaign_jobs WHERE campaign_id = $1 AND variant = $2 ORDER BY id', [id, variant])).map(
    (row) => row.id,
  );

describe('an A/B test in the editor', () => {
  it('is null until made, saved on a draft with 2 to 4 variants, refused out of bounds, removed', async () => {
    const id = await draft('Editor', await audienceOf('ed', 3));
    expect(await abTest(id)).toBeNull();
    const body = { testShare: 20, waitHours: 4, measure: 'PEOPLE_OPENS', defaultVariant: 1, variants: subjects('Hello', 'Hi there') };
    const saved = await saveTest(id, body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({
      testShare: 20,
      waitHours: 4,
      measure: 'PEOPLE_OPENS',
      defaultVariant: 1,
      phase: 'DRAFT',
      winner: null,
      current: null,
      variants: [
        { subject: 'Hello', previewText: null, fromName: null, templateId: null },
        { subject: 'Hi there', templateId: null },
      ],
    });
    // The contract's bounds.
    for (const wrong of [
      { ...body, variants: subjects('Only one') },
      { ...body, variants: subjects('1', '2', '3', '4', '5') },
      { ...body, testShare: 9 },
      { ...body, testShare: 51 },
      { ...body, waitHours: 0 },
      { ...body, waitHours: 73 },
      { ...body, measure: 'RAW_OPENS' },
      { ...body, variants: subjects('Hello', 'Hi\r\nBcc: x@example.com') },
    ])
      expect((await saveTest(id, wrong)).status).toBe(400);
    // The service's.
    const refused = async (wrong: object, message: string) => {
      const res = await saveTest(id, wrong);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    };
    await refused({ ...body, defaultVariant: 2 }, DEFAULT_VARIANT_MISSING);
    await refused({ ...body, variants: [{ subject: 'Hello' }, {}] }, VARIANT_CHANGES_NOTHING(1));
    await refused({ ...body, variants: subjects('Same', 'Same') }, VARIANTS_SAME);
    expect((await saveTest(id, { ...body, variants: [{ templateId: 999_999 }, { templateId }] })).status).toBe(404);
    // Four variants of different kinds, then removed.
    const four = await saveTest(id, {
      ...body,
      variants: [{ subject: 'A' }, { previewText: 'Peek' }, { fromName: 'The team' }, { templateId: otherTemplateId }],
    });
    expect(four.status, JSON.stringify(four.body)).toBe(200);
    expect(four.body.data.variants).toHaveLength(4);
    expect((await api().delete(`/api/campaigns/${id}/ab-test`).set('Authorization', auth)).status).toBe(204);
    expect(await abTest(id)).toBeNull();
    expect((await api().get('/api/campaigns/999999/ab-test').set('Authorization', auth)).status).toBe(404);
  });
});

describe('the test phase', () => {
  it('splits the test share evenly at random among the variants, each mailed its own, and keeps the rest waiting', async () => {
    const audienceId = await audienceOf('split', 101);
    const id = await draft('Split', audienceId);
    const made = await saveTest(id, {
      testShare: 50,
      waitHours: 1,
      measure: 'PEOPLE_CLICKS',
      defaultVariant: 0,
      variants: [{ subject: 'Subject A' }, { fromName: 'Sender B' }, { templateId: otherTemplateId, previewText: 'Preview C' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await send(id);
    // ceil(101 x 50 %) = 51 recipients, 17 a variant; the other 50 wait: no job yet, and the campaign stays SENDING.
    expect(await perVariant(id)).toEqual([17, 17, 17]);
    expect(await status(id)).toBe('SENDING');
    const test = await abTest(id);
    expect(test).toMatchObject({ phase: 'TESTING', winner: null });
    expect(new Date(test.endsAt).getTime() - new Date(test.startedAt).getTime()).toBe(3_600_000);
    expect(test.figures.map((f: { sent: number }) => f.sent)).toEqual([17, 17, 17]);
    // Each recipient got its variant's mail, and only that one.
    const jobs = await rows<{ email: string; variant: number }>('SELECT email, variant FROM campaign_jobs WHERE campaign_id = $1', [id]);
    for (const job of jobs) {
      const mails = ses.mails.filter((mail) => mail.to === job.email);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(job.variant === 0 ? 'Subject A' : 'Autumn');
      expect(mail.from).toContain(job.variant === 1 ? 'Sender B' : 'News');
      expect(mail.html.includes('Other layout')).toBe(job.variant === 2);
      expect(mail.html.includes('Preview C')).toBe(job.variant === 2);
    }
    // Continue-like dispatches leave the rest waiting; one contact by hand is refused with the reason.
    const outside = await rows<{ id: number }>(
      'SELECT id FROM contacts c WHERE audience_id = $1 AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $2 AND j.contact_id = c.id) LIMIT 1',
      [audienceId, id],
    );
    const one = await t.deps.services.sending
      .dispatch(id, { from: ['SENDING'], conflict: 'x', newJobs: { contacts: { contactId: outside[0]!.id } } })
      .catch((error: Error) => error.message);
    expect(one).toBe(AB_TEST_WAITING);
    expect(await perVariant(id)).toEqual([17, 17, 17]);
    // Edits are over once sent.
    const edit = await saveTest(id, {
      testShare: 10,
      waitHours: 1,
      measure: 'PEOPLE_OPENS',
      defaultVariant: 0,
      variants: subjects('x', 'y'),
    });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe(ONLY_DRAFTS_TESTED);
  });

  it('draws the same split from the same seed, and another from another seed', async () => {
    const audienceId = await audienceOf('seed', 60);
    const ids = [await draft('Seed 1', audienceId), await draft('Seed 2', audienceId), await draft('Seed 3', audienceId)];
    for (const id of ids)
      expect(
        (await saveTest(id, { testShare: 30, waitHours: 1, measure: 'PEOPLE_OPENS', defaultVariant: 0, variants: subjects('a', 'b') }))
          .status,
      ).toBe(200);
    // The first two share a seed; the third has another.
    await t.db.pool.query(
      'UPDATE campaign_ab_tests SET seed = CASE WHEN campaign_id = $2 THEN 2 ELSE 1 END WHERE campaign_id = ANY($1::bigint[])',
      [ids, ids[2]],
    );
    for (const id of ids) await send(id);
    const [first, second, third] = await Promise.all(ids.map(variantsOf));
    expect(first!.size).toBe(18);
    expect([...second!.entries()].sort()).toEqual([...first!.entries()].sort());
    expect([...third!.entries()].sort()).not.toEqual([...first!.entries()].sort());
    expect(await perVariant(ids[0]!)).toEqual([9, 9]);
  });
});

describe('the winner', () => {
  /** A 200-recipient campaign with two subject variants, its 40 % test share sent (40 a variant). */
  async function tested(prefix: string, defaultVariant = 0): Promise<number> {
    const id = await draft(prefix, await audienceOf(prefix, 200));
    const made = await saveTest(id, { testShare: 40, waitHours: 2, measure: 'PEOPLE_OPENS', defaultVariant, variants: subjects('A', 'B') });
    expect(made.status).toBe(200);
    await send(id);
    expect(await perVariant(id)).toEqual([40, 40]);
    return id;
  }

  /** Every recipient of the audience mailed exactly once, and the campaign SENT. */
  async function sentToAllOnce(id: number, prefix: string): Promise<void> {
    await settled(id);
    const deadline = Date.now() + 20_000;
    while ((await status(id)) !== 'SENT' && Date.now() < deadline) await sleep(50);
    expect(await status(id)).toBe('SENT');
    for (let n = 0; n < 200; n++) expect(ses.countFor(`${prefix}-${n}@example.org`), `${prefix}-${n}`).toBe(1);
  }

  it("is judged on people's opens: Apple's privacy proxy makes A win on raw opens, people make B win; the rest gets B once", async () => {
    const id = await tested('people');
    const a = await jobsOfVariant(id, 0);
    const b = await jobsOfVariant(id, 1);
    // A: 36 machine opens (Apple's proxy fetching on delivery) and 3 people; B: 14 people.
    await open(a.slice(0, 36), 'apple-proxy');
    await open(a.slice(0, 3), 'person');
    await open(b.slice(0, 14), 'person');
    const before = await abTest(id);
    expect(before.figures).toEqual([
      { variant: 0, recipients: 40, sent: 40, openedHuman: 3, openedMachine: 33, clickedHuman: 0, clickedMachine: 0 },
      { variant: 1, recipients: 40, sent: 40, openedHuman: 14, openedMachine: 0, clickedHuman: 0, clickedMachine: 0 },
    ]);
    // On raw opens A (36) would beat B (14) by far; on people B leads, at over 99 % confidence.
    expect(before.current).toMatchObject({ rule: 'SIGNIFICANT', leader: 1 });
    expect(before.current.confidence).toBeGreaterThan(0.99);

    // Not yet due: nothing decided.
    expect(await t.deps.services.abTests.decideDue()).toBe(0);
    await endWait(id);
    // Two workers deciding at once: one decision, one send of the rest.
    const decided = await Promise.all([t.deps.services.abTests.decideDue(), t.deps.services.abTests.decideDue()]);
    expect(decided[0]! + decided[1]!).toBe(1);
    const after = await abTest(id);
    expect(after).toMatchObject({ phase: 'DECIDED', winner: 1, decidedBy: 'AUTOMATIC', verdict: { rule: 'SIGNIFICANT', leader: 1 } });
    expect(await perVariant(id)).toEqual([40, 160]);
    await sentToAllOnce(id, 'people');
    // The rest got B's subject.
    const rest = ses.mails.filter((mail) => mail.to.startsWith('people-') && mail.subject === 'B');
    expect(rest).toHaveLength(160);

    // Decided once: a member's pick, or the periodic decision again, changes nothing.
    const again = await api().post(`/api/campaigns/${id}/ab-test/winner`).set('Authorization', auth).send({ variant: 0 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(NOT_TESTING);
    expect(await t.deps.services.abTests.decideDue()).toBe(0);
    expect(await perVariant(id)).toEqual([40, 160]);
  });

  it('goes to the default when no variant wins at 95 %, or there is no data, and says so', async () => {
    const close = await tested('close', 1);
    await open((await jobsOfVariant(close, 0)).slice(0, 6), 'person');
    await open((await jobsOfVariant(close, 1)).slice(0, 4), 'person');
    await endWait(close);
    const none = await tested('none', 0);
    // Only machines opened: no data about people.
    await open((await jobsOfVariant(none, 1)).slice(0, 30), 'apple-proxy');
    await endWait(none);
    expect(await t.deps.services.abTests.decideDue()).toBe(2);
    const closeTest = await abTest(close);
    expect(closeTest).toMatchObject({ winner: 1, verdict: { rule: 'NOT_SIGNIFICANT', leader: 0 } });
    expect(closeTest.verdict.confidence).toBeLessThan(0.95);
    expect(await abTest(none)).toMatchObject({ winner: 0, verdict: { rule: 'NO_DATA', confidence: null, leader: null } });
    await sentToAllOnce(close, 'close');
    await sentToAllOnce(none, 'none');
  });

  it('may be picked by a member before the wait ends; the pick is in the activity log', async () => {
    const id = await tested('pick');
    const picked = await api().post(`/api/campaigns/${id}/ab-test/winner`).set('Authorization', auth).send({ variant: 0 });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body.data).toMatchObject({ phase: 'DECIDED', winner: 0, decidedBy: 'MEMBER', verdict: { rule: 'MEMBER' } });
    expect((await api().post(`/api/campaigns/${id}/ab-test/winner`).set('Authorization', auth).send({ variant: 1 })).status).toBe(409);
    await sentToAllOnce(id, 'pick');
    const [entry] = await rows<{ kind: string; details: { variant: number } }>(
      `SELECT kind, details FROM activity WHERE object_id = $1 AND kind = 'ab-test-winner'`,
      [id],
    );
    expect(entry).toMatchObject({ kind: 'ab-test-winner', details: { variant: 0 } });
    // A campaign without a test, and a variant the test lacks.
    const plain = await draft('Plain', await audienceOf('plain', 1));
    expect((await api().post(`/api/campaigns/${plain}/ab-test/winner`).set('Authorization', auth).send({ variant: 0 })).status).toBe(409);
  });

  it('is sent to the rest across a worker that died mid-decision: nothing half done, then sent once by the next worker', async () => {
    const id = await tested('restart');
    await open((await jobsOfVariant(id, 0)).slice(0, 12), 'person');
    await worker!.close();
    worker = undefined;
    await endWait(id);
    // The dying worker: its decision's statement fails half-way through the rest's jobs (the process ends there).
    await t.db.pool.query(`CREATE FUNCTION ab_test_dies() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id % 7 = 0 THEN RAISE EXCEPTION 'worker died'; END IF; RETURN NEW; END $$`);
    await t.db.pool.query(
      `CREATE TRIGGER ab_test_dies BEFORE INSERT ON campaign_jobs FOR EACH ROW WHEN (NEW.campaign_id = ${id}) EXECUTE FUNCTION ab_test_dies()`,
    );
    await expect(t.deps.services.abTests.decideDue()).rejects.toThrow('worker died');
    expect(await abTest(id)).toMatchObject({ phase: 'TESTING', winner: null, decidedAt: null });
    expect(await perVariant(id)).toEqual([40, 40]);
    await t.db.pool.query('DROP TRIGGER ab_test_dies ON campaign_jobs; DROP FUNCTION ab_test_dies()');
    // A new worker: its decision runs at start, sends the rest A once.
    worker = await startWorkers(t.deps, [campaignWorkers]);
    const deadline = Date.now() + 20_000;
    while ((await abTest(id)).phase !== 'DECIDED' && Date.now() < deadline) await sleep(100);
    expect(await abTest(id)).toMatchObject({ winner: 0, decidedBy: 'AUTOMATIC', verdict: { rule: 'SIGNIFICANT' } });
    await sentToAllOnce(id, 'restart');
    expect(await perVariant(id)).toEqual([160, 40]);
  });
});

describe('the test mail of a variant', () => {
  const testMail = (body: object) =>
    api()
      .post('/api/campaigns/send-test-email')
      .set('Authorization', auth)
      .send({
        emails: ['tester@example.org'],
        fromEmail: 'newsletter@example.org',
        fromName: 'News',
        subject: 'Autumn',
        templateId,
        ...body,
      });
  const lastTo = (to: string) => ses.mails.filter((mail) => mail.to === to).at(-1)!;

  it("is the chosen variant as saved (its subject, sender name, preview text or template), checked against the campaign's test", async () => {
    const id = await draft('Test mail', await audienceOf('tm', 2));
    const made = await saveTest(id, {
      testShare: 20,
      waitHours: 1,
      measure: 'PEOPLE_OPENS',
      defaultVariant: 0,
      variants: [{ subject: 'Subject A' }, { fromName: 'Sender B', templateId: otherTemplateId, previewText: 'Peek B' }],
    });
    expect(made.status).toBe(200);

    const a = await testMail({ campaignId: id, variant: 0 });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const mailA = lastTo('tester@example.org');
    expect(mailA.subject).toBe('[Test, variant A] Subject A');
    expect(mailA.from).toContain('News');
    expect(mailA.html).toContain('Hello');

    const b = await testMail({ campaignId: id, variant: 1 });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    const mailB = lastTo('tester@example.org');
    expect(mailB.subject).toBe('[Test, variant B] Autumn');
    expect(mailB.from).toContain('Sender B');
    expect(mailB.html).toContain('Other layout');
    expect(mailB.html).toContain('Peek B');

    // Without a variant, the mail as the editor gave it.
    expect((await testMail({ campaignId: id })).status).toBe(200);
    expect(lastTo('tester@example.org').subject).toBe('[Test] Autumn');

    // A variant the test lacks, one without its campaign, a campaign without a test, a campaign that is not.
    const refused = async (body: object, code: number, message?: string) => {
      const res = await testMail(body);
      expect(res.status, JSON.stringify(res.body)).toBe(code);
      if (message) expect(res.body.message).toBe(message);
    };
    await refused({ campaignId: id, variant: 2 }, 400, NO_SUCH_VARIANT);
    await refused({ campaignId: id, variant: 4 }, 400);
    await refused({ variant: 0 }, 400, VARIANT_WITHOUT_CAMPAIGN);
    const plain = await draft('No test', await audienceOf('tm-plain', 1));
    await refused({ campaignId: plain, variant: 0 }, 400, NO_AB_TEST);
    await refused({ campaignId: 999_999, variant: 0 }, 404);
  });
});

describe('a copy of a campaign with an A/B test', () => {
  it('keeps the variants, share, wait, measure and default as a draft, with nothing of how the test went', async () => {
    const id = await draft('Copied', await audienceOf('copy', 40));
    const variants = [{ subject: 'Subject A' }, { fromName: 'Sender B' }, { templateId: otherTemplateId, previewText: 'Peek C' }];
    expect((await saveTest(id, { testShare: 50, waitHours: 6, measure: 'PEOPLE_CLICKS', defaultVariant: 2, variants })).status).toBe(200);
    await send(id);
    const picked = await api().post(`/api/campaigns/${id}/ab-test/winner`).set('Authorization', auth).send({ variant: 1 });
    expect(picked.status).toBe(200);

    const copied = await api().post(`/api/campaigns/${id}/replicate`).set('Authorization', auth);
    expect(copied.status, JSON.stringify(copied.body)).toBe(201);
    const copy = copied.body.id as number;
    const test = await abTest(copy);
    expect(test).toMatchObject({
      testShare: 50,
      waitHours: 6,
      measure: 'PEOPLE_CLICKS',
      defaultVariant: 2,
      phase: 'DRAFT',
      startedAt: null,
      endsAt: null,
      winner: null,
      decidedAt: null,
      decidedBy: null,
      verdict: null,
      current: null,
      variants: [
        { subject: 'Subject A', previewText: null, fromName: null, templateId: null },
        { subject: null, fromName: 'Sender B', templateId: null },
        { subject: null, previewText: 'Peek C', templateId: otherTemplateId },
      ],
    });
    expect(test.figures.map((f: { recipients: number }) => f.recipients)).toEqual([0, 0, 0]);
    // No snapshot of the original's template variant; a seed of its own.
    const snapshots = await rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM campaign_variants WHERE campaign_id = $1 AND html IS NOT NULL',
      [copy],
    );
    expect(snapshots[0]!.n).toBe(0);
    // A draft again: its test can be changed, and the original's stays as it was.
    expect(
      (await saveTest(copy, { testShare: 10, waitHours: 1, measure: 'PEOPLE_OPENS', defaultVariant: 0, variants: subjects('x', 'y') }))
        .status,
    ).toBe(200);
    expect(await abTest(id)).toMatchObject({ phase: 'DECIDED', winner: 1, variants: [{ subject: 'Subject A' }, {}, {}] });
    // A campaign without a test is copied without one.
    const plain = await draft('Plain copy', await audienceOf('copy-plain', 1));
    const plainCopy = (await api().post(`/api/campaigns/${plain}/replicate`).set('Authorization', auth)).body.id as number;
    expect(await abTest(plainCopy)).toBeNull();
  });
});

describe("a variant's click map", () => {
  it("shows the links of the mail the variant's recipients got, with their clicks only, never another variant's", async () => {
    const id = await draft('Click map', await audienceOf('clicks', 30));
    // A and B share the campaign's template (link /a); C has its own (link /b).
    const variants = [{ subject: 'Subject A' }, { subject: 'Subject B' }, { templateId: otherTemplateId }];
    expect((await saveTest(id, { testShare: 50, waitHours: 1, measure: 'PEOPLE_CLICKS', defaultVariant: 0, variants })).status).toBe(200);
    await send(id);
    expect(await perVariant(id)).toEqual([5, 5, 5]);
    // Sent an hour ago: a click now is a person's, not one too soon after the send.
    await t.db.pool.query(`UPDATE campaign_jobs SET sent_at = now() - interval '1 hour' WHERE campaign_id = $1`, [id]);
    const linkOf = async (href: string) =>
      (await rows<{ id: number }>('SELECT id FROM campaign_links WHERE campaign_id = $1 AND href = $2 AND NOT hidden', [id, href]))[0]!.id;
    const a = await linkOf('https://example.org/a');
    const b = await linkOf('https://example.org/b');
    const click = async (job: number, link: number, n: number) => {
      const res = await api()
        .get(`/t/c/${tokens.click(job, link)}`)
        .set('User-Agent', SAFARI)
        .set('X-Forwarded-For', `198.51.100.${n}`);
      expect(res.status).toBe(302);
    };
    const [ja, jb, jc] = [await jobsOfVariant(id, 0), await jobsOfVariant(id, 1), await jobsOfVariant(id, 2)];
    // A: two people click /a once; B: one person clicks /a twice; C: three people click /b.
    await click(ja[0]!, a, 1);
    await click(ja[1]!, a, 2);
    await click(jb[0]!, a, 3);
    await click(jb[0]!, a, 3);
    for (const [n, job] of jc.slice(0, 3).entries()) await click(job, b, 10 + n);
    await t.deps.services.tracking.flush();

    const variantMap = async (variant: number) => {
      const res = await api().get(`/api/campaigns/${id}/ab-test/variants/${variant}/clicks`).set('Authorization', auth);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { html: string | null; links: { href: string; clicks: number; uniqueClicks: number; humanClicks: number }[] };
    };
    const figures = (links: { href: string; clicks: number; uniqueClicks: number; humanClicks: number }[]) =>
      links.map(({ href, clicks, uniqueClicks, humanClicks }) => ({ href, clicks, uniqueClicks, humanClicks }));
    const mapA = await variantMap(0);
    expect(figures(mapA.links)).toEqual([{ href: 'https://example.org/a', clicks: 2, uniqueClicks: 2, humanClicks: 2 }]);
    expect(mapA.html).toContain('Hello');
    const mapB = await variantMap(1);
    expect(figures(mapB.links)).toEqual([{ href: 'https://example.org/a', clicks: 2, uniqueClicks: 1, humanClicks: 2 }]);
    const mapC = await variantMap(2);
    expect(figures(mapC.links)).toEqual([{ href: 'https://example.org/b', clicks: 3, uniqueClicks: 3, humanClicks: 3 }]);
    expect(mapC.html).toContain('Other layout');
    expect(mapC.html).toContain(`data-link-id="${b}"`);
    expect(mapC.html).not.toContain(`data-link-id="${a}"`);
    // The campaign's own click map holds its own links only: C's stay in C's.
    const own = await api().get(`/api/reports/${id}/clicks`).set('Authorization', auth);
    expect(own.body.map((link: { href: string; clicks: number }) => [link.href, link.clicks])).toEqual([['https://example.org/a', 4]]);
    // A variant the test lacks; a campaign without a test.
    expect((await api().get(`/api/campaigns/${id}/ab-test/variants/3/clicks`).set('Authorization', auth)).status).toBe(404);
    const plain = await draft('No map', await audienceOf('clicks-plain', 1));
    expect((await api().get(`/api/campaigns/${plain}/ab-test/variants/0/clicks`).set('Authorization', auth)).status).toBe(404);
  });

  it("keeps the kept counts when only one variant has the campaign's links", async () => {
    const id = await draft('One shared', await audienceOf('one-shared', 20));
    const variants = [{ subject: 'Subject A' }, { templateId: otherTemplateId }];
    expect((await saveTest(id, { testShare: 20, waitHours: 1, measure: 'PEOPLE_CLICKS', defaultVariant: 0, variants })).status).toBe(200);
    await send(id);
    const [job] = await jobsOfVariant(id, 0);
    const [a] = (
      await rows<{ id: number }>(`SELECT id FROM campaign_links WHERE campaign_id = $1 AND href = 'https://example.org/a'`, [id])
    ).map((row) => row.id);
    await api()
      .get(`/t/c/${tokens.click(job!, a!)}`)
      .set('User-Agent', SAFARI)
      .set('X-Forwarded-For', '198.51.100.7');
    await t.deps.services.tracking.flush();
    const res = await api().get(`/api/campaigns/${id}/ab-test/variants/0/clicks`).set('Authorization', auth);
    expect(res.body.links.map((link: { clicks: number }) => link.clicks)).toEqual([1]);
    const other = await api().get(`/api/campaigns/${id}/ab-test/variants/1/clicks`).set('Authorization', auth);
    expect(other.body.links.map((link: { href: string; clicks: number }) => [link.href, link.clicks])).toEqual([
      ['https://example.org/b', 0],
    ]);
  });
});
