/**
 * The statements of a sign-up (migration 0026): pending sign-ups, the confirmation mails asked for (their
 * limits read them), solved challenges taken once, the consent ledger, and the one contact a confirmed
 * sign-up appends to its audience.
 */
import { fitFieldValues } from '@mailroom/api-client/fields';
import type { Database, Sql, Tx } from '../../db/database.js';
import { sameAddressInAudience } from '../contacts/contact-repository.js';
import { appendContact as appendNumberedContact, lockAudienceRow } from '../contacts/numbering-repository.js';
import { formsRepository } from './forms-repository.js';

export interface PendingSignupInput {
  formId: number;
  audienceId: number;
  email: string;
  data: Record<string, unknown>;
  consentVersion: number;
  clientAddress: string | null;
  userAgent: string | null;
  expiresAt: Date;
}

export interface PendingSignup extends PendingSignupInput {
  id: number;
  createdAt: Date;
}

interface PendingRow {
  id: string;
  form_id: string;
  audience_id: string;
  email: string;
  data: Record<string, unknown>;
  consent_version: number;
  client_address: string | null;
  user_agent: string | null;
  created_at: Date;
  expires_at: Date;
}

const toPending = (row: PendingRow): PendingSignup => ({
  id: Number(row.id),
  formId: Number(row.form_id),
  audienceId: Number(row.audience_id),
  email: row.email,
  data: row.data,
  consentVersion: row.consent_version,
  clientAddress: row.client_address,
  userAgent: row.user_agent,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** What `openSubmissions` needs of one submission: its audience, address and solved challenge, if any. */
export interface SubmissionKey {
  audienceId: number;
  email: string;
  challenge: { signature: string; expiresAt: Date } | undefined;
}

export interface SubmissionState {
  challengeTaken: boolean;
  suppressed: string | null;
  leftAudience: boolean;
}

export type AppendOutcome = 'added' | 'already-there' | 'audience-gone' | 'audience-importing';

export function signupRepository(db: Database) {
  const forms = formsRepository(db);
  return {
    /**
     * Opens the transaction of one or more submissions (a batch: http/routes/subscribe.ts writes the sign-ups of
     * a burst together) in one statement. For each, in order:
     *  - takes its solved challenge (`challengeTaken` false when it was taken before, by an earlier transaction or
     *    by an earlier submission of the batch: a replay; true without a challenge);
     *  - locks its address and audience for the mail limits until the transaction ends (in key order, so two
     *    batches that share addresses never wait for each other in a circle);
     *  - reads what a sign-up must know of the address: why it is suppressed (its erased key counts as 'ERASED'),
     *    or null, and whether its contact in the audience left it alone (`unsubscribed_at`).
     * A statement that follows sees what was committed before the locks were held.
     */
    async openSubmissions(tx: Tx, submissions: readonly SubmissionKey[]): Promise<SubmissionState[]> {
      const { rows } = await tx.query<{ taken: boolean; suppressed: string | null; left_audience: boolean }>(
        `WITH input AS (
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[])
                    WITH ORDINALITY AS i (audience_id, email, signature, expires_at, n)),
         taken AS (
           INSERT INTO signup_used_challenges (signature, expires_at)
           SELECT DISTINCT ON (signature) signature, expires_at FROM input WHERE signature IS NOT NULL ORDER BY signature, n
           ON CONFLICT (signature) DO NOTHING RETURNING signature),
         locked AS (
           SELECT count(*) AS locks FROM (
             SELECT pg_advisory_xact_lock(key) FROM (
               SELECT DISTINCT hashtextextended('signup-mail:' || audience_id || ':' || address_key(email), 0) AS key
                 FROM input ORDER BY key) AS keys) AS held)
         SELECT (SELECT locks FROM locked) AS locks,
                i.signature IS NULL
                  OR (EXISTS (SELECT 1 FROM taken WHERE taken.signature = i.signature)
                      AND i.n = (SELECT min(same.n) FROM input same WHERE same.signature = i.signature)) AS taken,
                (SELECT reason FROM suppressions WHERE email_lower IN (address_key(i.email), erased_key(i.email))
                  ORDER BY reason = 'ERASED' DESC LIMIT 1) AS suppressed,
                EXISTS (SELECT 1 FROM contacts WHERE audience_id = i.audience_id AND address_key(email) = address_key(i.email)
                          AND unsubscribed_at IS NOT NULL) AS left_audience
           FROM input i ORDER BY i.n`,
        [
          submissions.map((s) => s.audienceId),
          submissions.map((s) => s.email),
          submissions.map((s) => s.challenge?.signature ?? null),
          submissions.map((s) => s.challenge?.expiresAt ?? null),
        ],
      );
      return rows.map((row) => ({ challengeTaken: row.taken, suppressed: row.suppressed, leftAudience: row.left_audience }));
    },

    /**
     * For each input, a pending sign-up and its confirmation mail's row ('queued'), unless its address and audience
     * had `perHour` mails in the last hour or `perDay` in the day: then nothing, and undefined. The transaction holds
     * the pairs' locks from `openSubmissions` (a statement sees what was committed before it began: the count begins
     * after the locks are held), so two submissions at once cannot both pass the limit; within one batch, an earlier
     * input of the same address counts as a mail already asked for. The counts and all rows are one statement.
     */
    async insertPendingsWithinLimits(
      tx: Tx,
      inputs: readonly PendingSignupInput[],
      limits: { perHour: number; perDay: number },
    ): Promise<({ pendingId: number; mailId: number } | undefined)[]> {
      if (inputs.length === 0) return [];
      const { rows } = await tx.query<{ n: string; pending_id: string; mail_id: string }>(
        `WITH input AS (
           SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::timestamptz[])
                    WITH ORDINALITY AS i (form_id, audience_id, email, data, consent_version, client_address, user_agent, expires_at, n)),
         ranked AS (
           SELECT input.*, address_key(email) AS key,
                  row_number() OVER (PARTITION BY audience_id, address_key(email) ORDER BY n) - 1 AS earlier
             FROM input),
         allowed AS (
           SELECT ranked.*, nextval(pg_get_serial_sequence('pending_signups', 'id')) AS pending_id,
                  nextval(pg_get_serial_sequence('signup_mails', 'id')) AS mail_id
             FROM ranked CROSS JOIN LATERAL (
               SELECT count(*) FILTER (WHERE created_at > now() - interval '1 hour') AS hour, count(*) AS day
                 FROM signup_mails
                WHERE audience_id = ranked.audience_id AND address_key = ranked.key AND created_at > now() - interval '1 day') AS sent
            WHERE sent.hour + ranked.earlier < $9 AND sent.day + ranked.earlier < $10),
         pending AS (
           INSERT INTO pending_signups (id, form_id, audience_id, email, data, consent_version, client_address, user_agent, expires_at)
           SELECT pending_id, form_id, audience_id, email, data::jsonb, consent_version, client_address, user_agent, expires_at FROM allowed),
         mail AS (
           INSERT INTO signup_mails (id, audience_id, address_key, pending_id) SELECT mail_id, audience_id, key, pending_id FROM allowed)
         SELECT n, pending_id, mail_id FROM allowed`,
        [
          inputs.map((input) => input.formId),
          inputs.map((input) => input.audienceId),
          inputs.map((input) => input.email),
          inputs.map((input) => JSON.stringify(input.data)),
          inputs.map((input) => input.consentVersion),
          inputs.map((input) => input.clientAddress),
          inputs.map((input) => input.userAgent),
          inputs.map((input) => input.expiresAt),
          limits.perHour,
          limits.perDay,
        ],
      );
      const kept = new Map(rows.map((row) => [Number(row.n), { pendingId: Number(row.pending_id), mailId: Number(row.mail_id) }]));
      return inputs.map((_, i) => kept.get(i + 1));
    },

    /**
     * Claims a queued mail for sending: 'queued' becomes 'sending' in one statement, so of two deliveries of its
     * message (a redelivery, the sweep's publish) one alone gets the pending sign-up back and calls SES.
     */
    async claimMail(mailId: number): Promise<PendingSignup | undefined> {
      const { rows } = await db.query<PendingRow>(
        `WITH claimed AS (UPDATE signup_mails SET outcome = 'sending' WHERE id = $1 AND outcome = 'queued' RETURNING pending_id)
         SELECT p.* FROM claimed JOIN pending_signups p ON p.id = claimed.pending_id`,
        [mailId],
      );
      return rows[0] && toPending(rows[0]);
    },

    /** SES took no part of the call (throttled, quota used up, never reached): the mail may be sent later. */
    async releaseMail(mailId: number): Promise<void> {
      await db.query(`UPDATE signup_mails SET outcome = 'queued' WHERE id = $1 AND outcome = 'sending'`, [mailId]);
    },

    async mailOutcome(mailId: number, outcome: string, messageId: string | null, sql: Sql = db): Promise<void> {
      await sql.query(`UPDATE signup_mails SET outcome = $2, message_id = $3 WHERE id = $1`, [mailId, outcome, messageId]);
    },

    /**
     * Mails still queued a while after they were asked for, whose sign-up still waits: their message was lost
     * (the API stopped between the commit and the publish, or the broker was away) or used up its attempts.
     */
    async staleQueuedMails(olderThanMs: number, limit: number): Promise<number[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT m.id FROM signup_mails m JOIN pending_signups p ON p.id = m.pending_id
          WHERE m.outcome = 'queued' AND m.created_at < now() - make_interval(secs => $1::float8 / 1000) AND p.expires_at > now()
          ORDER BY m.id LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map((row) => Number(row.id));
    },

    /**
     * A confirmed sign-up to `audienceId` by a person who had unsubscribed from everything: the organisation-wide
     * suppression goes, and every other audience's contact of the address is marked as left, so the person comes
     * back to this audience only. True when there was such a suppression.
     */
    async liftUnsubscribe(tx: Tx, audienceId: number, email: string): Promise<boolean> {
      const { rowCount } = await tx.query(`DELETE FROM suppressions WHERE email_lower = address_key($1) AND reason = 'UNSUBSCRIBE'`, [
        email,
      ]);
      if (rowCount === 0) return false;
      await tx.query(
        `UPDATE contacts SET unsubscribed_at = now()
          WHERE address_key(email) = address_key($2) AND audience_id <> $1 AND unsubscribed_at IS NULL`,
        [audienceId, email],
      );
      return true;
    },

    /** The address's contact in the audience joins it again; true when it had left. */
    async rejoinAudience(tx: Tx, audienceId: number, email: string): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE contacts SET unsubscribed_at = NULL WHERE audience_id = $1 AND address_key(email) = address_key($2) AND unsubscribed_at IS NOT NULL`,
        [audienceId, email],
      );
      return rowCount > 0;
    },

    /** The pending sign-up, locked until the transaction ends (a link is used once). */
    async lockPending(tx: Tx, id: number): Promise<PendingSignup | undefined> {
      const { rows } = await tx.query<PendingRow>(`SELECT * FROM pending_signups WHERE id = $1 FOR UPDATE`, [id]);
      return rows[0] && toPending(rows[0]);
    },

    async pendingExists(id: number): Promise<boolean> {
      const { rows } = await db.query(`SELECT 1 FROM pending_signups WHERE id = $1 AND expires_at > now()`, [id]);
      return rows.length > 0;
    },

    async removePending(tx: Tx, id: number): Promise<void> {
      await tx.query(`DELETE FROM pending_signups WHERE id = $1`, [id]);
    },

    /**
     * Appends one valid contact to the audience unless its address is already there, with the numbering every
     * single addition uses (contacts/numbering-repository.ts: under the audience row's lock, the next numbers). An
     * audience being imported into is left alone (the import numbers it).
     */
    async appendContact(tx: Tx, audienceId: number, email: string, data: Record<string, unknown>): Promise<AppendOutcome> {
      const audience = await lockAudienceRow(tx, audienceId);
      if (!audience || audience.deleted) return 'audience-gone';
      if (audience.isImporting) return 'audience-importing';
      if (await sameAddressInAudience(tx, audienceId, email)) return 'already-there';
      // Read under the audience's lock, which a change of its fields takes too: a sign-up that waited days for its
      // confirmation meets the fields as they are now, not as they were when the person submitted.
      const fields = new Map((await forms.audienceFields(audienceId, tx)).map((field) => [field.key, field]));
      await appendNumberedContact(tx, audience, { email, data: fitFieldValues(fields, data), errorMessage: null });
      return 'added';
    },

    /** Pending sign-ups past their link's expiry, and challenges past theirs: how many of each went. */
    async sweep(): Promise<{ pending: number; challenges: number }> {
      const pending = await db.query(`DELETE FROM pending_signups WHERE expires_at <= now()`);
      const challenges = await db.query(`DELETE FROM signup_used_challenges WHERE expires_at <= now()`);
      return { pending: pending.rowCount, challenges: challenges.rowCount };
    },
  };
}

export type SignupRepository = ReturnType<typeof signupRepository>;
