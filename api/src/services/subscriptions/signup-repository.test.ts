/**
 * The sign-up statements written for a batch (signup-service.ts writes a burst's submissions together): within one
 * batch, as between transactions, a challenge is taken once and an address gets no more mails than its limits allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { seedAudience } from '../../../test/support/seed.js';
import { signupRepository, type PendingSignupInput } from './signup-repository.js';

let t: TestDatabase;
let audienceId: number;
let formId: number;
const inAnHour = () => new Date(Date.now() + 3_600_000);

const pendingFor = (email: string): PendingSignupInput => ({
  formId,
  audienceId,
  email,
  data: { fullName: `Name of ${email}`, quote: `"'\\ {}` },
  consentVersion: 1,
  clientAddress: '192.0.2.1',
  userAgent: null,
  expiresAt: inAnHour(),
});

beforeAll(async () => {
  t = await createTestDatabase();
  ({ id: audienceId } = await seedAudience(t.pool, { headers: ['fullName'], contacts: [] }));
  const { rows } = await t.pool.query<{ id: string }>(
    `INSERT INTO signup_forms (audience_id, slug, name, success_message, mail_subject, mail_text, from_name, from_email)
     VALUES ($1, 'batch', 'Batch', 'Thanks', 'Confirm', 'Confirm: {{link}}', 'News', 'news@example.org') RETURNING id`,
    [audienceId],
  );
  formId = Number(rows[0]!.id);
  await t.pool.query(`INSERT INTO suppressions (email_lower, reason) VALUES ('bounced@example.org', 'HARD_BOUNCE')`);
});
afterAll(() => t?.drop());

describe('a batch of submissions', () => {
  it('takes each challenge once: the second use in the same batch, and any use in a later one, is a replay', async () => {
    const repo = signupRepository(t.database);
    const challenge = (signature: string) => ({ signature, expiresAt: inAnHour() });
    const states = await t.database.transaction((tx) =>
      repo.openSubmissions(tx, [
        { audienceId, email: 'one@example.org', challenge: challenge('sig-a') },
        { audienceId, email: 'two@example.org', challenge: challenge('sig-a') },
        { audienceId, email: 'three@example.org', challenge: challenge('sig-b') },
        { audienceId, email: 'bounced@example.org', challenge: undefined },
      ]),
    );
    expect(states.map((state) => state.challengeTaken)).toEqual([true, false, true, true]);
    expect(states.map((state) => state.suppressed)).toEqual([null, null, null, 'HARD_BOUNCE']);
    const later = await t.database.transaction((tx) =>
      repo.openSubmissions(tx, [{ audienceId, email: 'four@example.org', challenge: challenge('sig-b') }]),
    );
    expect(later[0]!.challengeTaken).toBe(false);
  });

  it('keeps one pending sign-up and one mail for an address submitted three times in one batch, and none after', async () => {
    const repo = signupRepository(t.database);
    const batch = ['same@example.org', 'other@example.org', 'SAME@example.org', 'Same@Example.org'].map(pendingFor);
    const kept = await t.database.transaction((tx) => repo.insertPendingsWithinLimits(tx, batch, { perHour: 1, perDay: 3 }));
    expect(kept.map((mail) => mail !== undefined)).toEqual([true, true, false, false]);
    const { rows } = await t.pool.query<{ id: string; email: string; data: unknown; mail_id: string }>(
      `SELECT p.id, p.email, p.data, m.id AS mail_id FROM pending_signups p JOIN signup_mails m ON m.pending_id = p.id ORDER BY p.email DESC`,
    );
    expect(rows.map((row) => [Number(row.id), row.email, Number(row.mail_id)])).toEqual([
      [kept[0]!.pendingId, 'same@example.org', kept[0]!.mailId],
      [kept[1]!.pendingId, 'other@example.org', kept[1]!.mailId],
    ]);
    expect(rows[0]!.data).toEqual(batch[0]!.data);
    const again = await t.database.transaction((tx) =>
      repo.insertPendingsWithinLimits(tx, [pendingFor('same@example.org')], { perHour: 1, perDay: 3 }),
    );
    expect(again).toEqual([undefined]);
  });

  it('counts earlier inputs of the same batch against the day too', async () => {
    const repo = signupRepository(t.database);
    const batch = Array.from({ length: 5 }, () => pendingFor('often@example.org'));
    const kept = await t.database.transaction((tx) => repo.insertPendingsWithinLimits(tx, batch, { perHour: 10, perDay: 3 }));
    expect(kept.map((mail) => mail !== undefined)).toEqual([true, true, true, false, false]);
  });
});
