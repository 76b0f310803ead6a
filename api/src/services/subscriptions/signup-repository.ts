/**
 * The statements of a sign-up (migration 0026): pending sign-ups, the confirmation mails asked for (their
 * limits read them), solved challenges taken once, the consent ledger, and the one contact a confirmed
 * sign-up appends to its audience.
 */
import type { Database, Tx } from '../../db/database.js';
import { sameAddressInAudience } from '../contacts/contact-repository.js';
import { appendContact as appendNumberedContact, lockAudienceRow } from '../contacts/numbering-repository.js';

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
  return {
    /**
     * The confirmation mails asked for this audience and address in the last hour and day, counted under
     * a transaction-scoped lock on the pair, so two submissions at once cannot both pass the limit.
     */
    async lockAndCountMails(tx: Tx, audienceId: number, email: string): Promise<{ lastHour: number; lastDay: number }> {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('signup-mail:' || $1 || ':' || address_key($2), 0))`, [
        audienceId,
        email,
      ]);
      const { rows } = await tx.query<{ hour: string; day: string }>(
        `SELECT count(*) FILTER (WHERE created_at > now() - interval '1 hour') AS hour, count(*) AS day
           FROM signup_mails WHERE audience_id = $1 AND address_key = address_key($2) AND created_at > now() - interval '1 day'`,
        [audienceId, email],
      );
      return { lastHour: Number(rows[0]!.hour), lastDay: Number(rows[0]!.day) };
    },

    async insertPending(tx: Tx, input: PendingSignupInput): Promise<number> {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO pending_signups (form_id, audience_id, email, data, consent_version, client_address, user_agent, expires_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8) RETURNING id`,
        [
          input.formId,
          input.audienceId,
          input.email,
          JSON.stringify(input.data),
          input.consentVersion,
          input.clientAddress,
          input.userAgent,
          input.expiresAt,
        ],
      );
      return Number(rows[0]!.id);
    },

    /** A confirmation mail asked for (counted by the limits from now on); its outcome follows. */
    async insertMail(tx: Tx, audienceId: number, email: string, pendingId: number): Promise<number> {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO signup_mails (audience_id, address_key, pending_id) VALUES ($1, address_key($2), $3) RETURNING id`,
        [audienceId, email, pendingId],
      );
      return Number(rows[0]!.id);
    },

    async mailOutcome(mailId: number, outcome: string, messageId: string | null): Promise<void> {
      await db.query(`UPDATE signup_mails SET outcome = $2, message_id = $3 WHERE id = $1`, [mailId, outcome, messageId]);
    },

    /** A mail that was not sent does not count against the person's limits. */
    async forgetMail(tx: Tx, mailId: number): Promise<void> {
      await tx.query('DELETE FROM signup_mails WHERE id = $1', [mailId]);
    },

    /** Takes a solved challenge once: false when it was taken before (a replay). */
    async takeChallenge(signature: string, expiresAt: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO signup_used_challenges (signature, expires_at) VALUES ($1, $2) ON CONFLICT (signature) DO NOTHING`,
        [signature, expiresAt],
      );
      return rowCount === 1;
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
      await appendNumberedContact(tx, audience, { email, data, errorMessage: null });
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
