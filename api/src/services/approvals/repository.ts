/**
 * Send approval's statements (issue 27; migration 0033): the requests of a campaign, its status moved to and from
 * AWAITING_APPROVAL in the same transaction, and the answer mail's claim, as a sign-up's confirmation mail is
 * claimed (services/subscriptions/signup-repository.ts): the row decides, never the message.
 */
import type { Schemas } from '@mailroom/api-client';
import type { Database, Sql, Tx } from '../../db/database.js';

export type ApprovalRequest = NonNullable<Schemas['ApprovalRequest']>;
export type ApprovalState = ApprovalRequest['state'];

/** A request with what its answer mail needs. */
export interface AnsweredRequest extends ApprovalRequest {
  campaignId: number;
  campaignName: string;
}

interface Row {
  id: string;
  campaign_id: string;
  campaign_name?: string;
  state: ApprovalState;
  requested_by_email: string;
  requested_at: Date;
  send_at: Date | null;
  answered_by_email: string | null;
  answered_at: Date | null;
  reason: string | null;
}

const toRequest = (row: Row): ApprovalRequest => ({
  id: Number(row.id),
  state: row.state,
  requestedByEmail: row.requested_by_email,
  requestedAt: row.requested_at.toISOString(),
  at: row.send_at?.toISOString() ?? null,
  answeredByEmail: row.answered_by_email,
  answeredAt: row.answered_at?.toISOString() ?? null,
  reason: row.reason,
});

/** A mail republished when still queued this long after it was asked for (its message was lost). */
export const MAIL_REPUBLISH_AFTER_MS = 2 * 60_000;

export function approvalRepository(db: Database) {
  return {
    /** The campaign's latest request (waiting or answered); undefined when none was ever made. */
    async latest(campaignId: number, sql: Sql = db): Promise<ApprovalRequest | undefined> {
      const { rows } = await sql.query<Row>(`SELECT * FROM approval_requests WHERE campaign_id = $1 ORDER BY id DESC LIMIT 1`, [
        campaignId,
      ]);
      return rows[0] && toRequest(rows[0]);
    },

    /** The waiting request, its row locked until the transaction ends. */
    async lockWaiting(tx: Tx, campaignId: number): Promise<ApprovalRequest | undefined> {
      const { rows } = await tx.query<Row>(`SELECT * FROM approval_requests WHERE campaign_id = $1 AND state = 'WAITING' FOR UPDATE`, [
        campaignId,
      ]);
      return rows[0] && toRequest(rows[0]);
    },

    /** A DRAFT becomes AWAITING_APPROVAL with a new waiting request; false when it is not (or no longer) a draft. */
    async open(tx: Tx, campaignId: number, requestedBy: string, sendAt: Date | null): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE campaigns SET status = 'AWAITING_APPROVAL', error_message = NULL, updated_by_email = $2, updated_at = now()
          WHERE id = $1 AND status = 'DRAFT'`,
        [campaignId, requestedBy],
      );
      if (rowCount !== 1) return false;
      await tx.query(`INSERT INTO approval_requests (campaign_id, requested_by_email, send_at) VALUES ($1, $2, $3)`, [
        campaignId,
        requestedBy,
        sendAt,
      ]);
      return true;
    },

    /**
     * The waiting request is answered (`state`): an answer other than APPROVED puts the campaign back to DRAFT (an
     * approval leaves it to the send or schedule it joins), and `mail` queues the answer's mail to the requester.
     */
    async answer(
      tx: Tx,
      requestId: number,
      answer: { state: Exclude<ApprovalState, 'WAITING'>; by: string; reason?: string | null; mail: boolean },
    ): Promise<void> {
      const { rows } = await tx.query<{ campaign_id: string }>(
        `UPDATE approval_requests
            SET state = $2, answered_by_email = $3, answered_at = now(), reason = $4,
                mail_state = CASE WHEN $5 THEN 'queued' END, mail_queued_at = CASE WHEN $5 THEN now() END
          WHERE id = $1 AND state = 'WAITING'
      RETURNING campaign_id`,
        [requestId, answer.state, answer.by, answer.reason ?? null, answer.mail],
      );
      if (rows[0] && answer.state !== 'APPROVED')
        await tx.query(`UPDATE campaigns SET status = 'DRAFT', updated_at = now() WHERE id = $1 AND status = 'AWAITING_APPROVAL'`, [
          rows[0].campaign_id,
        ]);
    },

    /** Claims a queued answer mail (none when sent, being sent, or gone): the request, answered, with its campaign's name. */
    async claimMail(requestId: number): Promise<AnsweredRequest | undefined> {
      const { rows } = await db.query<Row>(
        `WITH claimed AS (UPDATE approval_requests SET mail_state = 'sending' WHERE id = $1 AND mail_state = 'queued' RETURNING *)
         SELECT claimed.*, c.name AS campaign_name FROM claimed JOIN campaigns c ON c.id = claimed.campaign_id`,
        [requestId],
      );
      const row = rows[0];
      return row && { ...toRequest(row), campaignId: Number(row.campaign_id), campaignName: row.campaign_name ?? '' };
    },

    /** SES took no part of the call: the mail may be sent later. */
    async releaseMail(requestId: number): Promise<void> {
      await db.query(`UPDATE approval_requests SET mail_state = 'queued' WHERE id = $1 AND mail_state = 'sending'`, [requestId]);
    },

    async mailOutcome(requestId: number, outcome: 'sent' | 'unknown' | 'rejected'): Promise<void> {
      await db.query(`UPDATE approval_requests SET mail_state = $2 WHERE id = $1`, [requestId, outcome]);
    },

    /** Answer mails still queued a while after they were asked for (their message lost): published again. */
    async staleQueuedMails(olderThanMs: number, limit: number): Promise<number[]> {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM approval_requests WHERE mail_state = 'queued' AND mail_queued_at < now() - make_interval(secs => $1 / 1000.0)
          ORDER BY mail_queued_at LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map((row) => Number(row.id));
    },
  };
}

export type ApprovalRepository = ReturnType<typeof approvalRepository>;
