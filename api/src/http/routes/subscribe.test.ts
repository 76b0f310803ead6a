/**
 * Sign-up forms and double opt-in (issue 25), through the whole API with responses validated: the hosted
 * page and its policy, a submission with the proof-of-work solved as the browser's widget solves it, every
 * refusal (hostile input, a missing or replayed challenge, the limits, CORS), the same answer for a known
 * and an unknown address, the confirmation link (GET asks, POST confirms once, expired and used links), the
 * pending person whom no campaign reaches, and the consent ledger that nobody can edit.
 */
import type { Challenge } from 'altcha-lib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { solvedPayload } from '../../../test/support/altcha.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedAudience, seedTemplate } from '../../../test/support/seed.js';
import { startSesEndpoint, type SesEndpoint } from '../../../test/support/ses-endpoint.js';
import { bearer } from '../../../test/support/tokens.js';
import { confirmTokens } from '../../services/subscriptions/confirm-token.js';
import {
  CHALLENGE_FAILED,
  CHALLENGE_MISSING,
  CHALLENGE_REPLAYED,
  TOO_MANY_FOR_ADDRESS,
  TOO_MANY_FROM_CLIENT,
  TOO_MANY_UNSOLVED,
  WORDING_CHANGED,
} from '../../services/subscriptions/signup-service.js';
import { NO_CONSENT } from '../../services/subscriptions/submission.js';
import { signupWorkers } from '../../workers/signups.js';

const SENDER = 'news@example.org';
const SITE = 'https://www.example.org';
const EXISTING = ['ann@example.org', 'bob@example.org'];

let t: TestApp;
let ses: SesEndpoint;
let auth: string;
let audienceId: number;
/** A form with confirmation, and one without. */
let slug: string;
let formId: number;
let directSlug: string;

const api = () => request(t.app);
let nextClient = 1;
/** Every test posts from its own client address (TRUST_PROXY's default believes a loopback proxy), so the per-client limits stay apart. */
const newClient = () => {
  const n = nextClient++;
  return `198.51.${100 + (n >> 8)}.${n & 255}`;
};
const count = async (sql: string, params: unknown[] = []) => Number((await t.db.pool.query<{ n: string }>(sql, params)).rows[0]!.n);
const stored = async () => ({
  pending: await count('SELECT count(*) AS n FROM pending_signups'),
  challenges: await count('SELECT count(*) AS n FROM signup_used_challenges'),
  contacts: await count('SELECT count(*) AS n FROM contacts WHERE audience_id = $1', [audienceId]),
  ledger: await count('SELECT count(*) AS n FROM consent_ledger'),
  mails: await count('SELECT count(*) AS n FROM signup_mails'),
});

/** Solves the form's challenge as the widget does, and answers the widget's payload. */
async function solved(formSlug: string): Promise<string> {
  const { body } = await api().get(`/subscribe/${formSlug}/challenge`).expect(200);
  return solvedPayload(body as Challenge);
}

const postJson = (formSlug: string, body: Record<string, unknown>, client = newClient()) =>
  api().post(`/subscribe/${formSlug}`).set('Accept', 'application/json').set('X-Forwarded-For', client).send(body);
const postForm = (formSlug: string, body: Record<string, string>, client = newClient()) =>
  api().post(`/subscribe/${formSlug}`).set('X-Forwarded-For', client).type('form').send(body);

/** Waits until the worker has dealt with every confirmation mail asked for (none still queued or being sent). */
const mailsSettled = () =>
  vi.waitFor(async () => expect(await count(`SELECT count(*) AS n FROM signup_mails WHERE outcome IN ('queued', 'sending')`)).toBe(0), {
    timeout: 10_000,
    interval: 20,
  });

const linkIn = (mail: { text: string }) => {
  const match = /\/subscribe\/confirm\/([A-Za-z0-9._~-]+)/.exec(mail.text);
  expect(match).not.toBeNull();
  return `/subscribe/confirm/${match![1]}`;
};

beforeAll(async () => {
  ses = await startSesEndpoint({ maxSendRate: 100, max24HourSend: 1000 });
  // The confirmation mails go through the queue to the sign-up worker, as in production.
  t = await createTestApp({
    workers: [signupWorkers],
    env: {
      AUTHORIZED_SENDER_EMAILS: SENDER,
      SES_ENDPOINT: ses.endpoint,
      SIGNUP_UNSOLVED_POSTS_PER_HOUR: '2',
      ORG_NAME: 'Friends of Trees',
    },
  });
  auth = await bearer();
  ({ id: audienceId } = await seedAudience(t.db.pool, {
    headers: ['fullName', 'plan'],
    contacts: EXISTING.map((email) => ({ email, data: { fullName: email } })),
  }));
  await t.db.pool.query(
    `INSERT INTO audience_fields (audience_id, key, label, type, options, position) VALUES
       ($1, 'fullName', 'Full name', 'TEXT', NULL, 1), ($1, 'plan', 'Plan', 'CHOICE', '["Free","Pro"]'::jsonb, 2)`,
    [audienceId],
  );
  const form = await api()
    .post(`/api/audiences/${audienceId}/forms`)
    .set('Authorization', auth)
    .send({
      name: 'Tree news <weekly>',
      consentWording: 'I agree to receive the tree news by email.',
      fields: [
        { key: 'fullName', required: true },
        { key: 'plan', required: false },
      ],
      allowedOrigins: [SITE],
    })
    .expect(201);
  ({ slug, id: formId } = form.body as { slug: string; id: number });
  const direct = await api()
    .post(`/api/audiences/${audienceId}/forms`)
    .set('Authorization', auth)
    .send({ name: 'Direct', consentWording: 'Yes, mail me.', confirmationRequired: false })
    .expect(201);
  directSlug = (direct.body as { slug: string }).slug;
});
afterAll(async () => {
  await t?.close();
  await ses?.close();
});

describe('sign-up forms (member calls)', () => {
  it('makes a form with defaults and an unguessable slug, and lists it', async () => {
    expect(slug).toMatch(/^tree-news-weekly-[a-z2-7]{16}$/);
    const { body } = await api().get(`/api/forms/${formId}`).set('Authorization', auth).expect(200);
    expect(body).toMatchObject({
      confirmationRequired: true,
      consentVersion: 1,
      fromEmail: SENDER,
      fromName: 'Friends of Trees',
      mailSubject: 'Please confirm your subscription',
      hostedUrl: `${t.config.publicUrl}/subscribe/${slug}`,
    });
    expect(body.mailText).toContain('{{confirmUrl}}');
    const list = await api().get(`/api/audiences/${audienceId}/forms`).set('Authorization', auth).expect(200);
    expect(list.body.items.map((form: { slug: string }) => form.slug)).toEqual([slug, directSlug]);
  });

  it('refuses fields the audience lacks, origins that are not origins, a page of thanks elsewhere, an unknown sender', async () => {
    const make = (input: Record<string, unknown>) =>
      api()
        .post(`/api/audiences/${audienceId}/forms`)
        .set('Authorization', auth)
        .send({ name: 'X', consentWording: 'Yes', ...input });
    expect((await make({ fields: [{ key: 'shoeSize', required: false }] })).body.message).toBe('The audience has no field "shoeSize".');
    expect((await make({ allowedOrigins: ['https://www.example.org/form'] })).status).toBe(400);
    expect((await make({ allowedOrigins: [SITE], successUrl: 'https://evil.example/thanks' })).body.message).toContain('allowed origins');
    expect((await make({ fromEmail: 'someone@else.example' })).body.message).toContain('authorized');
    expect((await make({ name: 'Two\nlines' })).status).toBe(400);
    expect((await api().get('/api/audiences/999999/forms').set('Authorization', auth)).status).toBe(404);
    expect((await api().get('/api/forms/999999').set('Authorization', auth)).status).toBe(404);
    expect((await api().get(`/api/audiences/${audienceId}/forms`)).status).toBe(401);
  });

  it('records the making, change and deletion of a form in the activity log, by the member, with what a person sees changed', async () => {
    const activity = async () =>
      (
        await t.db.pool.query(
          `SELECT kind, member_email, object_type, object_id, details FROM activity WHERE kind LIKE 'form-%' ORDER BY id DESC LIMIT 1`,
        )
      ).rows[0];
    const made = await api()
      .post(`/api/audiences/${audienceId}/forms`)
      .set('Authorization', auth)
      .send({ name: 'Logged form', consentWording: 'Yes, please.' })
      .expect(201);
    const id = made.body.id as number;
    expect(await activity()).toMatchObject({
      kind: 'form-create',
      object_type: 'audience',
      object_id: audienceId,
      details: { formId: id, name: 'Logged form' },
    });
    expect((await activity()).member_email).toMatch(/@/);
    await api()
      .put(`/api/forms/${id}`)
      .set('Authorization', auth)
      .send({ name: 'Logged form, renamed', consentWording: 'Yes, monthly.' })
      .expect(200);
    expect(await activity()).toMatchObject({
      kind: 'form-change',
      details: { formId: id, name: 'Logged form, renamed', from: 'Logged form', changed: ['name', 'consentWording'] },
    });
    await api().delete(`/api/forms/${id}`).set('Authorization', auth).expect(204);
    expect(await activity()).toMatchObject({ kind: 'form-delete', details: { formId: id, name: 'Logged form, renamed' } });
    // A form that is not there: 404, and nothing recorded.
    await api().delete(`/api/forms/${id}`).set('Authorization', auth).expect(404);
    expect((await activity()).kind).toBe('form-delete');
    expect(Number((await t.db.pool.query(`SELECT count(*) AS n FROM activity WHERE kind = 'form-delete'`)).rows[0].n)).toBe(1);
  });

  it('rewrites unused consent wording, and keeps a used one as its version while the new one becomes the next', async () => {
    const edit = (consentWording: string) =>
      api()
        .put(`/api/forms/${formId}`)
        .set('Authorization', auth)
        .send({ name: 'Tree news <weekly>', consentWording, fields: [{ key: 'fullName', required: true }], allowedOrigins: [SITE] });
    // No sign-up names version 1 yet: a change rewrites it in place.
    expect(await count('SELECT count(*) AS n FROM pending_signups WHERE form_id = $1', [formId])).toBe(0);
    expect((await edit('A draft wording.')).body).toMatchObject({ consentVersion: 1, consentWording: 'A draft wording.' });
    expect((await edit('I agree to receive the tree news by email.')).body.consentVersion).toBe(1);
    expect(await count('SELECT count(*) AS n FROM signup_form_wordings WHERE form_id = $1', [formId])).toBe(1);

    await postJson(slug, { email: 'wording@example.org', fullName: 'W', consent: 'yes', altcha: await solved(slug) }).expect(200);
    const version = (await api().get(`/api/forms/${formId}`).set('Authorization', auth)).body.consentVersion as number;
    const changed = await edit('I agree to receive the tree news, monthly.');
    expect(changed.status).toBe(200);
    expect(changed.body.consentVersion).toBe(version + 1);
    const { rows } = await t.db.pool.query('SELECT version, wording FROM signup_form_wordings WHERE form_id = $1 ORDER BY version', [
      formId,
    ]);
    expect(rows.at(-2)).toMatchObject({ version, wording: 'I agree to receive the tree news by email.' });
    expect(rows.at(-1)).toMatchObject({ version: version + 1, wording: 'I agree to receive the tree news, monthly.' });
    const pending = await t.db.pool.query(`SELECT consent_version FROM pending_signups WHERE email = 'wording@example.org'`);
    expect(pending.rows[0].consent_version).toBe(version);

    // The page sends the version it shows; one opened before the change records the words it showed.
    expect((await api().get(`/subscribe/${slug}`)).text).toContain(`name="consent" type="checkbox" value="${version + 1}"`);
    await postJson(slug, { email: 'old-page@example.org', fullName: 'W', consent: String(version), altcha: await solved(slug) }).expect(
      200,
    );
    const older = await t.db.pool.query(`SELECT consent_version FROM pending_signups WHERE email = 'old-page@example.org'`);
    expect(older.rows[0].consent_version).toBe(version);
    // A version the form never had: refused, nothing kept.
    const future = await postJson(slug, {
      email: 'future@example.org',
      fullName: 'W',
      consent: String(version + 2),
      altcha: await solved(slug),
    });
    expect([future.status, future.body.message]).toEqual([400, WORDING_CHANGED]);
    expect(await count(`SELECT count(*) AS n FROM pending_signups WHERE email = 'future@example.org'`, [])).toBe(0);
    // Put the plan back for the tests below.
    await api()
      .put(`/api/forms/${formId}`)
      .set('Authorization', auth)
      .send({
        name: 'Tree news <weekly>',
        consentWording: 'I agree to receive the tree news, monthly.',
        fields: [
          { key: 'fullName', required: true },
          { key: 'plan', required: false },
        ],
        allowedOrigins: [SITE],
      })
      .expect(200);
  });
});

describe('the hosted page', () => {
  it('is server-rendered HTML under a strict policy, with the fields, the consent and the widget', async () => {
    const page = await api().get(`/subscribe/${slug}`).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.text).not.toContain('style=');
    expect(page.text).toContain('<title>Tree news &#60;weekly&#62;</title>');
    expect(page.text).toContain('name="fullName"');
    expect(page.text).toContain('<option>Pro</option>');
    expect(page.text).toContain('name="consent"');
    expect(page.text).toContain(`<altcha-widget challenge="/subscribe/${slug}/challenge"`);
    expect(page.text).toContain('Friends of Trees');
    expect((await api().get('/subscribe/no-such-form-aaaaaaaaaaaaaaaa')).status).toBe(404);
  });

  it('serves its stylesheet and scripts from the API', async () => {
    for (const [file, type] of [
      ['page.css', 'text/css'],
      ['altcha.css', 'text/css'],
      ['altcha.js', 'text/javascript'],
      ['signup.js', 'text/javascript'],
      ['sha-worker.js', 'text/javascript'],
      ['embed.js', 'text/javascript'],
    ]) {
      const answer = await api().get(`/subscribe/static/${file}`).set('Origin', 'https://any-site.example').expect(200);
      expect(answer.headers['content-type']).toContain(type!);
      // A pasted form's widget loads them from the organisation's site: a module script needs CORS, a worker's
      // importScripts and a stylesheet need the resource policy.
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
    const embed = await api().get('/subscribe/static/embed.js').expect(200);
    expect(embed.text).toContain("import './altcha.js'");
    expect(embed.text).toContain("new URL('sha-worker.js', import.meta.url)");
    expect((await api().get('/subscribe/static/other.js')).status).toBe(400);
  });
});

describe('a submission', () => {
  it('stores a pending sign-up (no contact, no count) and sends one confirmation mail', async () => {
    const before = await stored();
    const mailsBefore = ses.mails.length;
    const answer = await postJson(slug, {
      email: 'New@Example.org',
      fullName: 'New Person',
      plan: 'pro',
      consent: 'yes',
      altcha: await solved(slug),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toContain('Check your inbox');
    const after = await stored();
    expect(after).toMatchObject({ pending: before.pending + 1, contacts: before.contacts, ledger: before.ledger, mails: before.mails + 1 });
    const { rows } = await t.db.pool.query(`SELECT data, client_address FROM pending_signups WHERE email = 'New@Example.org'`);
    expect(rows[0]).toMatchObject({ data: { fullName: 'New Person', plan: 'Pro' } });
    expect((await t.db.pool.query('SELECT number_of_contacts FROM audiences WHERE id = $1', [audienceId])).rows[0].number_of_contacts).toBe(
      2,
    );
    await mailsSettled();
    expect(ses.mails.length).toBe(mailsBefore + 1);
    const mail = ses.mails.at(-1)!;
    expect(mail).toMatchObject({ to: 'New@Example.org', subject: 'Please confirm your subscription' });
    expect(mail.from).toContain(SENDER);
    expect(mail.text).toContain(`${t.config.publicUrl}/subscribe/confirm/`);
    const recorded = await t.db.pool.query(`SELECT outcome, message_id FROM signup_mails ORDER BY id DESC LIMIT 1`);
    expect(recorded.rows[0].outcome).toBe('sent');
    expect(recorded.rows[0].message_id).toBe(mail.messageId);
  });

  it('answers a known address exactly as an unknown one', async () => {
    const known = await postJson(slug, { email: EXISTING[0], fullName: 'Ann', consent: 'yes', altcha: await solved(slug) });
    const unknown = await postJson(slug, { email: 'stranger@example.org', fullName: 'S', consent: 'yes', altcha: await solved(slug) });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    const page = (email: string) => postForm(slug, { email, fullName: 'X', consent: 'yes' });
    const [a, b] = [await page(EXISTING[1]!), await page('other-stranger@example.org')];
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
  });

  it('sends at most one confirmation mail an hour to an address, answering the same', async () => {
    const email = 'twice@example.org';
    const first = await postJson(slug, { email, fullName: 'T', consent: 'yes', altcha: await solved(slug) });
    const before = await stored();
    const second = await postJson(slug, { email: email.toUpperCase(), fullName: 'T', consent: 'yes', altcha: await solved(slug) });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    await mailsSettled();
    expect(ses.countFor(email) + ses.countFor(email.toUpperCase())).toBe(1);
    expect(await stored()).toMatchObject({ pending: before.pending, mails: before.mails });
  });

  it('keeps every rule for sign-ups that arrive together and are written in one batch', async () => {
    const email = 'burst@example.org';
    const before = await stored();
    const shared = await solved(slug);
    const payloads = await Promise.all(Array.from({ length: 4 }, () => solved(slug)));
    const answers = await Promise.all([
      // The same address three times, as a person who clicks again.
      ...[email, email.toUpperCase(), 'Burst@Example.org'].map((address, i) =>
        postJson(slug, { email: address, fullName: 'B', consent: 'yes', altcha: payloads[i] }),
      ),
      // One solution sent twice: one of the two is a replay.
      postJson(slug, { email: 'burst-a@example.org', fullName: 'B', consent: 'yes', altcha: shared }),
      postJson(slug, { email: 'burst-b@example.org', fullName: 'B', consent: 'yes', altcha: shared }),
      postJson(slug, { email: 'burst-c@example.org', fullName: 'B', consent: 'yes', altcha: payloads[3] }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.message).toBe(CHALLENGE_REPLAYED);
    await mailsSettled();
    expect(ses.countFor(email) + ses.countFor(email.toUpperCase()) + ses.countFor('Burst@Example.org')).toBe(1);
    expect(await stored()).toMatchObject({ pending: before.pending + 3, mails: before.mails + 3, challenges: before.challenges + 5 });
  });

  it('allows three mails a day: the older ones no longer count after an hour, the day still does', async () => {
    const email = 'daily@example.org';
    for (let i = 0; i < 4; i++) {
      await postJson(slug, { email, fullName: 'D', consent: 'yes', altcha: await solved(slug) }).expect(200);
      // As if an hour had passed since each mail.
      await t.db.pool.query(`UPDATE signup_mails SET created_at = created_at - interval '61 minutes' WHERE address_key = $1`, [email]);
    }
    await mailsSettled();
    expect(ses.countFor(email)).toBe(3);
  });

  it('refuses a sixth sign-up for one address within the hour', async () => {
    const email = 'often@example.org';
    for (let i = 0; i < 5; i++) await postJson(slug, { email, fullName: 'O', consent: 'yes', altcha: await solved(slug) }).expect(200);
    const refused = await postJson(slug, { email, fullName: 'O', consent: 'yes', altcha: await solved(slug) });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(TOO_MANY_FOR_ADDRESS);
  });

  it('takes a few posts without the proof-of-work from one client (no JavaScript), then asks for it', async () => {
    const client = newClient();
    for (let i = 0; i < 2; i++) await postForm(slug, { email: `nojs${i}@example.org`, fullName: 'N', consent: 'yes' }, client).expect(200);
    const before = await stored();
    const refused = await postForm(slug, { email: 'nojs9@example.org', fullName: 'N', consent: 'yes' }, client);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain(TOO_MANY_UNSOLVED);
    expect(refused.text).toContain(`href="/subscribe/${slug}"`);
    expect(await stored()).toEqual(before);
    // With the solution it goes through.
    await postForm(slug, { email: 'nojs9@example.org', fullName: 'N', consent: 'yes', altcha: await solved(slug) }, client).expect(200);
  });

  it('refuses a JSON call without the proof-of-work, a replayed one, a forged one, and one of another form', async () => {
    const before = await stored();
    const missing = await postJson(slug, { email: 'a1@example.org', fullName: 'A', consent: 'yes' });
    expect([missing.status, missing.body.message]).toEqual([400, CHALLENGE_MISSING]);
    const payload = await solved(slug);
    await postJson(slug, { email: 'a2@example.org', fullName: 'A', consent: 'yes', altcha: payload }).expect(200);
    const afterOne = await stored();
    const replayed = await postJson(slug, { email: 'a3@example.org', fullName: 'A', consent: 'yes', altcha: payload });
    expect([replayed.status, replayed.body.message]).toEqual([400, CHALLENGE_REPLAYED]);
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString()) as { challenge: Challenge; solution: { derivedKey: string } };
    const key = decoded.solution.derivedKey;
    decoded.solution.derivedKey = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
    const forged = await postJson(slug, {
      email: 'a4@example.org',
      fullName: 'A',
      consent: 'yes',
      altcha: Buffer.from(JSON.stringify(decoded)).toString('base64'),
    });
    expect([forged.status, forged.body.message]).toEqual([400, CHALLENGE_FAILED]);
    const otherForm = await postJson(slug, { email: 'a5@example.org', fullName: 'A', consent: 'yes', altcha: await solved(directSlug) });
    expect([otherForm.status, otherForm.body.message]).toEqual([400, CHALLENGE_FAILED]);
    expect((await postJson(slug, { email: 'a6@example.org', fullName: 'A', consent: 'yes', altcha: 'not base64 json' })).status).toBe(400);
    expect(afterOne).toMatchObject({ pending: before.pending + 1, challenges: before.challenges + 1 });
    expect(await stored()).toEqual(afterOne);
  });

  it('refuses hostile input with a clear message on the page, and stores nothing', async () => {
    const before = await stored();
    const valid = { email: 'hostile@example.org', fullName: 'H', consent: 'yes' };
    const cases: [Record<string, string>, number, string][] = [
      [{ ...valid, fullName: 'Eve\r\nBcc: victim@example.org' }, 400, 'Full name must be on one line.'],
      [{ ...valid, email: 'eve@example.org\nBcc: x@example.org' }, 400, 'email must be on one line.'],
      [{ ...valid, fullName: 'x'.repeat(10_000) }, 400, 'Full name is too long'],
      [{ ...valid, fullName: 'nul\u0000byte' }, 400, 'Full name holds a NUL character.'],
      [{ ...valid, isAdmin: 'true' }, 400, 'This form has no field &#34;isAdmin&#34;.'],
      [{ ...valid, plan: 'Platinum' }, 400, 'is not one of'],
      [{ ...valid, email: 'not-an-address' }, 400, 'Invalid email address'],
      [{ email: 'hostile@example.org', consent: 'yes' }, 400, 'Full name is required.'],
      [{ ...valid, consent: '' }, 400, NO_CONSENT],
    ];
    for (const [body, status, message] of cases) {
      const answer = await postForm(slug, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.text).toContain(message);
    }
    const wrongType = await api()
      .post(`/subscribe/${slug}`)
      .set('X-Forwarded-For', newClient())
      .type('text/plain')
      .send('email=x@example.org');
    expect(wrongType.status).toBe(415);
    expect(wrongType.text).toContain('<h1>Your sign-up was not sent</h1>');
    const huge = await postForm(slug, { ...valid, fullName: 'y'.repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(huge.headers['content-type']).toMatch(/^text\/html/);
    const notText = await postJson(slug, { ...valid, fullName: { nested: true } });
    expect(notText.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('answers a filled honeypot as a person, and keeps nothing', async () => {
    const before = await stored();
    const person = await postForm(slug, { email: 'p@example.org', fullName: 'P', consent: 'yes' });
    const robot = await postForm(slug, { email: 'robot@example.org', fullName: 'R', consent: 'yes', website: 'http://spam.example' });
    expect(robot.status).toBe(person.status);
    expect(robot.text).toBe(person.text);
    expect((await stored()).pending).toBe(before.pending + 1);
    expect(await count(`SELECT count(*) AS n FROM pending_signups WHERE email = 'robot@example.org'`)).toBe(0);
  });

  it('joins a form without confirmation at once, numbered densely, with its consent recorded', async () => {
    const before = await stored();
    await postJson(directSlug, { email: 'direct@example.org', consent: 'yes', altcha: await solved(directSlug) }).expect(200);
    expect(await stored()).toMatchObject({ contacts: before.contacts + 1, ledger: before.ledger + 1, pending: before.pending });
    const { rows } = await t.db.pool.query(
      `SELECT c.seq, c.valid_seq, a.number_of_contacts FROM contacts c JOIN audiences a ON a.id = c.audience_id WHERE c.email = 'direct@example.org'`,
    );
    expect(rows[0].seq).toBe(rows[0].number_of_contacts);
    expect(rows[0].valid_seq).toBe(rows[0].number_of_contacts);
    const ledger = await t.db.pool.query(
      `SELECT event, form_name, wording, client_address FROM consent_ledger WHERE email = 'direct@example.org'`,
    );
    expect(ledger.rows).toEqual([
      { event: 'SUBSCRIBED', form_name: 'Direct', wording: 'Yes, mail me.', client_address: expect.any(String) },
    ]);
  });
});

describe('the confirmation link', () => {
  it('asks on GET, confirms on POST once, and then says the link was used', async () => {
    const email = 'confirm-me@example.org';
    await postJson(slug, { email, fullName: 'Confirm Me', consent: 'yes', altcha: await solved(slug) }, '203.0.113.7').expect(200);
    await mailsSettled();
    const link = linkIn(ses.mails.findLast((mail) => mail.to === email)!);
    const contacts = await count('SELECT count(*) AS n FROM contacts WHERE audience_id = $1', [audienceId]);

    for (let i = 0; i < 2; i++) {
      const page = await api().get(link).expect(200);
      expect(page.text).toContain('<button type="submit">Confirm</button>');
      expect(page.text).toContain('Tree news &#60;weekly&#62;');
    }
    expect(await count('SELECT count(*) AS n FROM contacts WHERE audience_id = $1', [audienceId])).toBe(contacts);

    const done = await api().post(link).set('X-Forwarded-For', '203.0.113.8').type('form').send('confirm=yes');
    expect(done.status).toBe(200);
    expect(done.text).toContain('You are subscribed');
    const { rows } = await t.db.pool.query(
      `SELECT c.seq, c.valid_seq, c.data, a.number_of_contacts FROM contacts c JOIN audiences a ON a.id = c.audience_id WHERE c.email = $1`,
      [email],
    );
    expect(rows[0]).toMatchObject({ seq: contacts + 1, number_of_contacts: contacts + 1, data: { fullName: 'Confirm Me' } });
    const ledger = await t.db.pool.query(
      `SELECT event, form_id, consent_version, wording, client_address FROM consent_ledger WHERE email = $1 ORDER BY id`,
      [email],
    );
    expect(ledger.rows.map((row) => [row.event, row.client_address])).toEqual([
      ['SUBSCRIBED', '203.0.113.7'],
      ['CONFIRMED', '203.0.113.8'],
    ]);
    expect(ledger.rows[0].wording).toBe('I agree to receive the tree news, monthly.');
    expect(await count('SELECT count(*) AS n FROM pending_signups WHERE email = $1', [email])).toBe(0);
    // The drawer and the person's page say the contact signed up through the form, not that a member imported it.
    const { rows: added } = await t.db.pool.query<{ id: string }>('SELECT id FROM contacts WHERE email = $1', [email]);
    const drawer = await api().get(`/api/audiences/${audienceId}/contacts/${added[0]!.id}`).set('Authorization', auth).expect(200);
    expect(drawer.body.consent).toEqual([expect.objectContaining({ kind: 'form', by: 'Tree news <weekly>', audienceId })]);
    const person = await api().get('/api/people').query({ email: 'Confirm-Me@example.org' }).set('Authorization', auth).expect(200);
    expect(person.body.audiences).toEqual([expect.objectContaining({ addedHow: 'form', importedBy: 'Tree news <weekly>' })]);

    const again = await api().post(link).type('form').send('confirm=yes');
    expect(again.status).toBe(410);
    expect(again.text).toContain('This link was already used');
    expect((await api().get(link)).status).toBe(410);
    expect(await count('SELECT count(*) AS n FROM contacts WHERE email = $1', [email])).toBe(1);
  });

  it('fits a waiting sign-up to the fields as they are when it is confirmed', async () => {
    // Submitted while 'plan' offered 'Gold' and a field 'nickname' existed; both changed before the link was used.
    const email = 'waited@example.org';
    const expiresAt = new Date(Date.now() + 60_000);
    const { rows } = await t.db.pool.query<{ id: string }>(
      `INSERT INTO pending_signups (form_id, audience_id, email, data, consent_version, expires_at)
       VALUES ($1, $2, $3, '{"fullName": "Wai", "plan": "Gold", "nickname": "W"}'::jsonb, 1, $4) RETURNING id`,
      [formId, audienceId, email, expiresAt],
    );
    const tokens = confirmTokens(t.config.trackingSecret);
    await api()
      .post(`/subscribe/confirm/${tokens.sign(Number(rows[0]!.id), expiresAt)}`)
      .type('form')
      .send('confirm=yes')
      .expect(200);
    const contact = await t.db.pool.query('SELECT data FROM contacts WHERE audience_id = $1 AND email = $2', [audienceId, email]);
    expect(contact.rows).toEqual([{ data: { fullName: 'Wai' } }]);
  });

  it('says when a link expired or is not valid', async () => {
    const tokens = confirmTokens(t.config.trackingSecret);
    const expired = await api().get(`/subscribe/confirm/${tokens.sign(1, new Date(Date.now() - 1000))}`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This link has expired');
    expect(
      (
        await api()
          .post(`/subscribe/confirm/${tokens.sign(1, new Date(Date.now() - 1000))}`)
          .type('form')
          .send('')
      ).status,
    ).toBe(410);
    const forged = `${tokens.sign(1, new Date(Date.now() + 60_000)).slice(0, -3)}abc`;
    expect((await api().get(`/subscribe/confirm/${forged}`)).status).toBe(404);
    expect((await api().get('/subscribe/confirm/not-a-token')).status).toBe(404);
  });

  it('is swept with its pending sign-up once it expires', async () => {
    await t.db.pool.query(`UPDATE pending_signups SET expires_at = now() - interval '1 second' WHERE email = 'stranger@example.org'`);
    const removed = await t.deps.services.signups.sweep();
    expect(removed.pending).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM pending_signups WHERE email = 'stranger@example.org'`)).toBe(0);
  });
});

describe('a pending person', () => {
  it('is reached by no campaign', async () => {
    const email = 'pending-only@example.org';
    await postJson(slug, { email, fullName: 'P', consent: 'yes', altcha: await solved(slug) }).expect(200);
    const templateId = await seedTemplate(t.db.pool, { html: '<p>Hello</p>' });
    const { body } = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'To the audience', templateId });
    await api()
      .put(`/api/campaigns/${body.id}`)
      .set('Authorization', auth)
      .send({ name: 'To the audience', audienceId, templateId, fromName: 'News', fromEmail: SENDER, subject: 'Hi' })
      .expect(200);
    await api().post(`/api/campaigns/${body.id}/send`).set('Authorization', auth).expect(202);
    const jobs = await t.db.pool.query<{ email: string }>('SELECT email FROM campaign_jobs WHERE campaign_id = $1', [body.id]);
    const contacts = await count('SELECT count(*) AS n FROM contacts WHERE audience_id = $1 AND error_message IS NULL', [audienceId]);
    expect(jobs.rows.length).toBe(contacts);
    expect(jobs.rows.map((row) => row.email)).not.toContain(email);
  });
});

describe('the consent ledger', () => {
  it('refuses every change and removal', async () => {
    expect(await count('SELECT count(*) AS n FROM consent_ledger')).toBeGreaterThan(0);
    await expect(t.db.pool.query(`UPDATE consent_ledger SET wording = 'something else'`)).rejects.toThrow(/append-only/);
    await expect(t.db.pool.query(`DELETE FROM consent_ledger`)).rejects.toThrow(/append-only/);
    await expect(t.db.pool.query(`TRUNCATE consent_ledger`)).rejects.toThrow(/append-only/);
  });
});

describe('other sites', () => {
  it('gets CORS only for the allowed origins, and cannot post from another', async () => {
    const allowed = await api().options(`/subscribe/${slug}`).set('Origin', SITE).set('Access-Control-Request-Method', 'POST');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(SITE);
    expect(allowed.headers['access-control-allow-headers']).toContain('Content-Type');
    const other = await api()
      .options(`/subscribe/${slug}`)
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(other.status).toBe(403);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const challenge = await api().get(`/subscribe/${slug}/challenge`).set('Origin', SITE).expect(200);
    expect(challenge.headers['access-control-allow-origin']).toBe(SITE);
    const call = await postJson(slug, { email: 'cors@example.org', fullName: 'C', consent: 'yes', altcha: await solved(slug) }).set(
      'Origin',
      SITE,
    );
    expect(call.status).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBe(SITE);

    const before = await stored();
    const elsewhere = await postForm(slug, { email: 'csrf@example.org', fullName: 'C', consent: 'yes' }).set(
      'Origin',
      'https://evil.example',
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    expect(await stored()).toEqual(before);
    // The API's own page posts from the API's origin.
    await postForm(slug, { email: 'own@example.org', fullName: 'O', consent: 'yes' })
      .set('Origin', new URL(t.config.publicUrl).origin)
      .expect(200);
  });

  it('goes to the page of thanks on the organisation site after a form post', async () => {
    const { body } = await api()
      .post(`/api/audiences/${audienceId}/forms`)
      .set('Authorization', auth)
      .send({ name: 'With thanks', consentWording: 'Yes', allowedOrigins: [SITE], successUrl: `${SITE}/thanks` })
      .expect(201);
    const page = await api().get(`/subscribe/${body.slug}`).expect(200);
    expect(page.headers['content-security-policy']).toContain(`form-action 'self' ${SITE}`);
    const answer = await postForm(body.slug, { email: 'thanks@example.org', consent: 'yes' }).set('Origin', SITE);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${SITE}/thanks`);
    await api().delete(`/api/forms/${body.id}`).set('Authorization', auth).expect(204);
    expect((await api().get(`/subscribe/${body.slug}`)).status).toBe(404);
  });
});

describe('the confirmation mail, from the worker', () => {
  const mailOf = async (email: string) =>
    (
      await t.db.pool.query<{ id: string; outcome: string }>(
        `SELECT m.id, m.outcome FROM signup_mails m WHERE m.address_key = address_key($1) ORDER BY m.id DESC LIMIT 1`,
        [email],
      )
    ).rows[0]!;
  const pendingFor = (email: string) => count('SELECT count(*) AS n FROM pending_signups WHERE email = $1', [email]);

  it('answers before SES has answered: the sign-up is committed, the mail follows', async () => {
    const email = 'held@example.org';
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    ses.options.intercept = async (call) => {
      if (call.to === email) await held;
      return undefined;
    };
    try {
      await postJson(slug, { email, fullName: 'H', consent: 'yes', altcha: await solved(slug) }).expect(200);
      expect(await pendingFor(email)).toBe(1);
      // The worker is waiting for SES while the person already has the answer.
      await vi.waitFor(async () => expect((await mailOf(email)).outcome).toBe('sending'));
      expect(ses.countFor(email)).toBe(0);
      release();
      await mailsSettled();
      expect(ses.countFor(email)).toBe(1);
      expect((await mailOf(email)).outcome).toBe('sent');
    } finally {
      release();
      delete ses.options.intercept;
    }
  });

  it('sends a mail once, however often its message comes', async () => {
    const email = 'once@example.org';
    await postJson(slug, { email, fullName: 'O', consent: 'yes', altcha: await solved(slug) }).expect(200);
    await mailsSettled();
    const mailId = Number((await mailOf(email)).id);
    await t.deps.messageQueue.publish('signup-mail', { mailId });
    await t.deps.services.signups.sendMail(mailId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ses.calls.get(email)).toBe(1);
  });

  it('never sends again a mail whose fate SES left unknown', async () => {
    const email = 'ambiguous@example.org';
    ses.options.intercept = (call) => (call.to === email ? { error: 'InternalFailure', status: 500, message: 'oops' } : undefined);
    try {
      await postJson(slug, { email, fullName: 'A', consent: 'yes', altcha: await solved(slug) }).expect(200);
      await mailsSettled();
      const mail = await mailOf(email);
      expect(mail.outcome).toBe('unknown');
      await t.deps.services.signups.sendMail(Number(mail.id));
      expect(await t.deps.services.signups.requeueMails(0)).toBe(0);
      expect(ses.calls.get(email)).toBe(1);
      // The link may have reached the person: the sign-up waits for it.
      expect(await pendingFor(email)).toBe(1);
    } finally {
      delete ses.options.intercept;
    }
  });

  it('removes the sign-up when SES refuses its mail for good', async () => {
    const email = 'refused@example.org';
    ses.options.intercept = (call) =>
      call.to === email ? { error: 'MessageRejected', status: 400, message: 'Email address is not verified.' } : undefined;
    try {
      await postJson(slug, { email, fullName: 'R', consent: 'yes', altcha: await solved(slug) }).expect(200);
      await mailsSettled();
      expect((await mailOf(email)).outcome).toBe('rejected');
      expect(await pendingFor(email)).toBe(0);
    } finally {
      delete ses.options.intercept;
    }
  });

  it('tries again a mail SES turned away without taking it', async () => {
    const email = 'throttled@example.org';
    let calls = 0;
    ses.options.intercept = (call) =>
      call.to === email && calls++ === 0
        ? { error: 'TooManyRequestsException', status: 429, message: 'Maximum sending rate exceeded.' }
        : undefined;
    try {
      await postJson(slug, { email, fullName: 'T', consent: 'yes', altcha: await solved(slug) }).expect(200);
      await vi.waitFor(async () => expect((await mailOf(email)).outcome).toBe('sent'), { timeout: 10_000, interval: 50 });
      expect(ses.calls.get(email)).toBe(2);
      expect(ses.countFor(email)).toBe(1);
    } finally {
      delete ses.options.intercept;
    }
  });

  it('publishes again a mail whose message was lost after the commit', async () => {
    const email = 'lost@example.org';
    // A sign-up as the API commits it, whose publish never happened.
    const { rows } = await t.db.pool.query<{ id: string }>(
      `INSERT INTO pending_signups (form_id, audience_id, email, data, consent_version, expires_at)
       VALUES ($1, $2, $3, '{}'::jsonb, 1, now() + interval '7 days') RETURNING id`,
      [formId, audienceId, email],
    );
    await t.db.pool.query(
      `INSERT INTO signup_mails (audience_id, address_key, pending_id, created_at) VALUES ($1, address_key($2), $3, now() - interval '5 minutes')`,
      [audienceId, email, rows[0]!.id],
    );
    expect(await t.deps.services.signups.requeueMails()).toBe(1);
    await mailsSettled();
    expect(ses.countFor(email)).toBe(1);
    expect(linkIn(ses.mails.findLast((mail) => mail.to === email)!)).toContain('/subscribe/confirm/');
  });
});

describe('the limits', () => {
  it('refuses a 31st sign-up from one client within the hour, storing nothing', async () => {
    const client = newClient();
    for (let i = 0; i < 30; i++) {
      await postJson(slug, { email: `client${i}@example.org`, fullName: 'C', consent: 'yes', altcha: await solved(slug) }, client).expect(
        200,
      );
    }
    await mailsSettled();
    const before = await stored();
    const refused = await postJson(
      slug,
      { email: 'client30@example.org', fullName: 'C', consent: 'yes', altcha: await solved(slug) },
      client,
    );
    expect([refused.status, refused.body.message]).toEqual([429, TOO_MANY_FROM_CLIENT]);
    const page = await postForm(slug, { email: 'client31@example.org', fullName: 'C', consent: 'yes' }, client);
    expect(page.status).toBe(429);
    expect(page.text).toContain(TOO_MANY_FROM_CLIENT);
    expect(await stored()).toEqual(before);
    // Another client is not held back.
    await postJson(slug, { email: 'client30@example.org', fullName: 'C', consent: 'yes', altcha: await solved(slug) }).expect(200);
  });
});

/** The addresses a campaign sent now to the sign-up forms' audience would mail (its jobs). */
async function campaignRecipients(): Promise<string[]> {
  const templateId = await seedTemplate(t.db.pool, { html: '<p>Hello</p>' });
  const { body } = await api().post('/api/campaigns').set('Authorization', auth).send({ name: 'Now', templateId });
  await api()
    .put(`/api/campaigns/${body.id}`)
    .set('Authorization', auth)
    .send({ name: 'Now', audienceId, templateId, fromName: 'News', fromEmail: SENDER, subject: 'Hi' })
    .expect(200);
  await api().post(`/api/campaigns/${body.id}/send`).set('Authorization', auth).expect(202);
  const jobs = await t.db.pool.query<{ email: string }>('SELECT email FROM campaign_jobs WHERE campaign_id = $1', [body.id]);
  return jobs.rows.map((row) => row.email);
}

const suppress = (email: string, reason: string) =>
  t.db.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES (${reason === 'ERASED' ? 'erased_key' : 'address_key'}($1), $2)`, [
    email,
    reason,
  ]);
const suppressionOf = async (email: string) =>
  (await t.db.pool.query<{ reason: string }>(`SELECT reason FROM suppressions WHERE email_lower = address_key($1)`, [email])).rows[0]
    ?.reason;

describe('a person who comes back', () => {
  it('answers new, pending, known and suppressed addresses byte for byte alike', async () => {
    const pending = 'already-pending@example.org';
    await postJson(slug, { email: pending, fullName: 'P', consent: 'yes', altcha: await solved(slug) }).expect(200);
    await suppress('gone-away@example.org', 'UNSUBSCRIBE');
    await suppress('bounced-answer@example.org', 'HARD_BOUNCE');
    await suppress('complained-answer@example.org', 'COMPLAINT');
    const addresses = [
      'brand-new@example.org',
      pending,
      EXISTING[0]!,
      'gone-away@example.org',
      'bounced-answer@example.org',
      'complained-answer@example.org',
    ];
    const json = [];
    const pages = [];
    for (const email of addresses) {
      json.push(await postJson(slug, { email, fullName: 'X', consent: 'yes', altcha: await solved(slug) }));
      pages.push(await postForm(slug, { email, fullName: 'X', consent: 'yes', altcha: await solved(slug) }));
    }
    const answerOf = (r: request.Response) => ({ status: r.status, type: r.headers['content-type'], text: r.text });
    for (const answer of json) expect(answerOf(answer)).toEqual(answerOf(json[0]!));
    for (const answer of pages) expect(answerOf(answer)).toEqual(answerOf(pages[0]!));
    expect(json[0]!.status).toBe(200);
    expect(pages[0]!.status).toBe(200);
  });

  it('comes back to this audience alone, and only once the mail is confirmed, after unsubscribing from everything', async () => {
    const email = 'returning@example.org';
    const { id: otherAudience } = await seedAudience(t.db.pool, { name: 'Other list', headers: [], contacts: [{ email, data: {} }] });
    await suppress(email, 'UNSUBSCRIBE');
    // A form without confirmation asks for it from a person who unsubscribed: nobody re-subscribes a stranger.
    const before = await stored();
    await postJson(directSlug, { email, consent: 'yes', altcha: await solved(directSlug) }).expect(200);
    expect(await stored()).toMatchObject({ contacts: before.contacts, pending: before.pending + 1, ledger: before.ledger });
    await mailsSettled();
    expect(ses.countFor(email)).toBe(1);
    expect(await suppressionOf(email)).toBe('UNSUBSCRIBE');
    expect(await campaignRecipients()).not.toContain(email);

    await api()
      .post(linkIn(ses.mails.findLast((mail) => mail.to === email)!))
      .type('form')
      .send('confirm=yes')
      .expect(200);
    expect(await suppressionOf(email)).toBeUndefined();
    const { rows } = await t.db.pool.query<{ audience_id: string; unsubscribed_at: Date | null }>(
      `SELECT audience_id, unsubscribed_at FROM contacts WHERE email = $1 ORDER BY audience_id`,
      [email],
    );
    expect(rows.map((row) => [Number(row.audience_id), row.unsubscribed_at !== null])).toEqual([
      [audienceId, false],
      [otherAudience, true],
    ]);
    const ledger = await t.db.pool.query(`SELECT event, audience_id FROM consent_ledger WHERE email = $1 ORDER BY id`, [email]);
    expect(ledger.rows.map((row) => [row.event, Number(row.audience_id)])).toEqual([
      ['SUBSCRIBED', audienceId],
      ['CONFIRMED', audienceId],
      ['RESUBSCRIBED', audienceId],
    ]);
    expect(await campaignRecipients()).toContain(email);
  });

  it('joins again an audience it had left alone, through the mail', async () => {
    const email = EXISTING[1]!;
    await t.db.pool.query(`UPDATE contacts SET unsubscribed_at = now() WHERE audience_id = $1 AND email = $2`, [audienceId, email]);
    await postJson(directSlug, { email, consent: 'yes', altcha: await solved(directSlug) }).expect(200);
    await mailsSettled();
    const left = await t.db.pool.query(`SELECT unsubscribed_at FROM contacts WHERE audience_id = $1 AND email = $2`, [audienceId, email]);
    expect(left.rows[0].unsubscribed_at).not.toBeNull();
    await api()
      .post(linkIn(ses.mails.findLast((mail) => mail.to === email)!))
      .type('form')
      .send('confirm=yes')
      .expect(200);
    const back = await t.db.pool.query(`SELECT unsubscribed_at FROM contacts WHERE audience_id = $1 AND email = $2`, [audienceId, email]);
    expect(back.rows).toEqual([{ unsubscribed_at: null }]);
    const ledger = await t.db.pool.query(`SELECT event FROM consent_ledger WHERE email = $1 ORDER BY id`, [email]);
    expect(ledger.rows.map((row) => row.event)).toEqual(['SUBSCRIBED', 'CONFIRMED', 'RESUBSCRIBED']);
  });

  it('mails nothing to a hard-bounced or complaining address, and makes no contact of an erased one', async () => {
    await suppress('hard@example.org', 'HARD_BOUNCE');
    await suppress('complaint@example.org', 'COMPLAINT');
    await suppress('erased@example.org', 'ERASED');
    const before = await stored();
    for (const email of ['hard@example.org', 'complaint@example.org', 'erased@example.org']) {
      await postJson(slug, { email, fullName: 'S', consent: 'yes', altcha: await solved(slug) }).expect(200);
      await postJson(directSlug, { email, consent: 'yes', altcha: await solved(directSlug) }).expect(200);
    }
    await mailsSettled();
    expect(await stored()).toMatchObject({
      pending: before.pending,
      mails: before.mails,
      contacts: before.contacts,
      ledger: before.ledger,
    });
    for (const email of ['hard@example.org', 'complaint@example.org', 'erased@example.org']) expect(ses.calls.get(email)).toBeUndefined();
    expect(await suppressionOf('hard@example.org')).toBe('HARD_BOUNCE');
  });
});

describe('the audience', () => {
  it('counts its pending sign-ups apart from its contacts', async () => {
    const expected = await count('SELECT count(*) AS n FROM pending_signups WHERE audience_id = $1 AND expires_at > now()', [audienceId]);
    const contacts = await count('SELECT count(*) AS n FROM contacts WHERE audience_id = $1', [audienceId]);
    expect(expected).toBeGreaterThan(0);
    const { body } = await api().get(`/api/audiences/${audienceId}`).set('Authorization', auth).expect(200);
    expect(body).toMatchObject({ pendingCount: expected, numberOfContacts: contacts });
    const list = await api().get('/api/audiences').set('Authorization', auth).expect(200);
    expect(list.body.items.find((audience: { id: number }) => audience.id === audienceId)).toMatchObject({ pendingCount: expected });
    await postJson(slug, { email: 'one-more@example.org', fullName: 'M', consent: 'yes', altcha: await solved(slug) }).expect(200);
    const after = await api().get(`/api/audiences/${audienceId}`).set('Authorization', auth).expect(200);
    expect(after.body).toMatchObject({ pendingCount: expected + 1, numberOfContacts: contacts });
  });
});
