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

export type AppendOutcome = 'added' | 'already-there' | 'audience-gone' | 'audience-importing';

export function signupRepository(db: Database) {
  const forms = formsRepository(db);
  return {
    /**
     * Opens a submission's transaction in one statement: takes the solved challenge (`challengeTaken` false when it
     * was taken before: a replay; true without one), locks the address and audience for the mail limits until the
     * transaction ends, and reads what a sign-up must know of the address: why it is suppressed (its erased key
     * counts as 'ERASED'), or null, and whether its contact in the audience left it alone (`unsubscribed_at`).
     * A statement that follows sees what was committed before the lock was held.
     */
    async openSubmission(
      tx: Tx,
      audienceId: number,
      email: string,
      challenge: { signature: string; expiresAt: Date } | undefined,
    ): Promise<{ challengeTaken: boolean; suppressed: string | null; leftAudience: boolean }> {
      const { rows } = await tx.query<{ taken: boolean; suppressed: string | null; left_audience: boolean }>(
        `WITH taken AS (
           INSERT INTO signup_used_challenges (signature, expires_at) SELECT $3, $4 WHERE $3::text IS NOT NULL
           ON CONFLICT (signature) DO NOTHING RETURNING 1)
         SELECT pg_advisory_xact_lock(hashtextextended('signup-mail:' || $1::bigint || ':' || address_key($2), 0)) AS locked,
                $3::text IS NULL OR EXISTS (SELECT 1 FROM taken) AS taken,
                (SELECT reason FROM suppressions WHERE email_lower IN (address_key($2), erased_key($2))
                  ORDER BY reason = 'ERASED' DESC LIMIT 1) AS suppressed,
                EXISTS (SELECT 1 FROM contacts WHERE audience_id = $1::bigint AND address_key(email) = address_key($2)
                          AND unsubscribed_at IS NOT NULL) AS left_audience`,
        [audienceId, email, challenge?.signature ?? null, challenge?.expiresAt ?? null],
      );
      const row = rows[0]!;
      return { challengeTaken: row.taken, suppressed: row.suppressed, leftAudience: row.left_audience };
    },

    /**
     * A pending sign-up and its confirmation mail's row ('queued'), unless the address and audience had `perHour`
     * mails in the last hour or `perDay` in the day: then nothing, and undefined. The transaction holds the pair's
     * lock from `openSubmission` (a statement sees what was committed before it began: the count begins after the
     * lock is held), so two submissions at once cannot both pass the limit. The count and both rows are one statement.
     */
    async insertPendingWithinLimits(
      tx: Tx,
      input: PendingSignupInput,
      limits: { perHour: number; perDay: number },
    ): Promise<{ pendingId: number; mailId: number } | undefined> {
      const { rows } = await tx.query<{ pending_id: string; mail_id: string }>(
        `WITH mails AS (
           SELECT count(*) FILTER (WHERE created_at > now() - interval '1 hour') AS hour, count(*) AS day
             FROM signup_mails WHERE audience_id = $2 AND address_key = address_key($3) AND created_at > now() - interval '1 day'),
         pending AS (
           INSERT INTO pending_signups (form_id, audience_id, email, data, consent_version, client_address, user_agent, expires_at)
           SELECT $1, $2, $3, $4::jsonb, $5, $6, $7, $8 FROM mails WHERE mails.hour < $9 AND mails.day < $10
           RETURNING id),
         mail AS (
           INSERT INTO signup_mails (audience_id, address_key, pending_id) SELECT $2, address_key($3), id FROM pending RETURNING id, pending_id)
         SELECT pending_id, id AS mail_id FROM mail`,
        [
          input.formId,
          input.audienceId,
          input.email,
          JSON.stringify(input.data),
          input.consentVersion,
          input.clientAddress,
          input.userAgent,
          input.expiresAt,
          limits.perHour,
          limits.perDay,
        ],
      );
      return rows[0] && { pendingId: Number(rows[0].pending_id), mailId: Number(rows[0].mail_id) };
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
