/**
 * What SES events change: the campaign job a message id belongs to, the organisation's
 * suppressions, and the SNS message ids already handled. Every write runs on the caller's
 * transaction, so one SNS message is recorded and applied together or not at all.
 */
import { Op } from 'sequelize';
import type { Database, Tx } from '../../db/database.js';
import type { BounceType } from '../../db/models/index.js';
import { consentInsertFrom } from '../consent/repository.js';
import { erasedMail, isErased } from '../suppressions/erased.js';

export function sesEventRepository(db: Database) {
  const { CampaignJob: Jobs } = db.models;

  return {
    /** Records an SNS message id; false when it was recorded before (SNS delivers at least once). */
    async firstDelivery(tx: Tx, messageId: string): Promise<boolean> {
      const { rowCount } = await tx.query('INSERT INTO sns_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [messageId]);
      return rowCount === 1;
    },

    /** The mail was delivered: SENT_WAIT_ACK becomes SENT_SUCCESS. Resolves with the job's campaign, if any. */
    async delivered(tx: Tx, sesMessageId: string): Promise<number | undefined> {
      const [, jobs] = await Jobs.update(
        { status: 'SENT_SUCCESS' },
        { where: { sesMessageId, status: { [Op.in]: ['SENT_WAIT_ACK', 'SENT_SUCCESS'] } }, returning: true, transaction: tx.transaction },
      );
      return jobs[0]?.campaignId;
    },

    /** A delivery ends the addresses' runs of soft bounces (one primary-key probe each; nothing when there is none). */
    async resetSoftBounces(tx: Tx, emails: string[]): Promise<void> {
      if (emails.length === 0) return;
      await tx.query('DELETE FROM soft_bounce_streaks WHERE email_lower IN (SELECT address_key(e) FROM unnest($1::text[]) e)', [emails]);
    },

    /**
     * Counts a soft bounce of one mail per address; at `limit` in a row the address is suppressed with
     * SOFT_BOUNCE (soft_bounce_counted, migration 0013). Resolves with the addresses it suppressed.
     */
    async countSoftBounces(tx: Tx, emails: string[], sesMessageId: string, limit: number, campaignId: number | null): Promise<string[]> {
      const suppressed: string[] = [];
      for (const email of emails) {
        const { rows } = await tx.query<{ suppressed: boolean }>('SELECT soft_bounce_counted($1, $2, $3, $4) AS suppressed', [
          email,
          sesMessageId,
          limit,
          campaignId,
        ]);
        if (rows[0]?.suppressed) suppressed.push(email);
      }
      return suppressed;
    },

    /**
     * Records a bounce on the job. SES's message names the recipient, so a mail whose address was
     * erased since (its address is then the erased key) keeps the bounce's type and time, not its message.
     */
    async bounced(tx: Tx, sesMessageId: string, bounce: { type: BounceType; message: string; time: Date }): Promise<number | undefined> {
      const { rows } = await tx.query<{ campaign_id: number }>(
        `UPDATE campaign_jobs
            SET bounce_type = $2, bounce_message = CASE WHEN ${erasedMail('email')} THEN NULL ELSE $3 END, bounce_time = $4, updated_at = now()
          WHERE ses_message_id = $1
          RETURNING campaign_id`,
        [sesMessageId, bounce.type, bounce.message, bounce.time],
      );
      return rows[0]?.campaign_id;
    },

    async complained(tx: Tx, sesMessageId: string, complaint: { type: string; time: Date }): Promise<number | undefined> {
      const [, jobs] = await Jobs.update(
        { complaintType: complaint.type, complaintTime: complaint.time },
        { where: { sesMessageId }, returning: true, transaction: tx.transaction },
      );
      return jobs[0]?.campaignId;
    },

    /** Whether the job is claimed and its SES answer not recorded yet (its message id is still unknown). */
    async isAwaitingOutcome(tx: Tx, job: { campaignId: number; jobId: number }): Promise<boolean> {
      const found = await Jobs.count({
        where: { id: job.jobId, campaignId: job.campaignId, status: 'SENDING' },
        transaction: tx.transaction,
      });
      return found > 0;
    },

    /**
     * A job left UNKNOWN (its worker died between claiming it and recording SES's answer, or SES answered
     * ambiguously) that an event names by its tags: the event proves SES took the mail, so the job takes
     * the message id and SENT_WAIT_ACK, and counts as sent, before the event itself is applied by that id.
     * Only when no job holds the message id yet, and only for a job whose address the mail went to.
     */
    async settleUnknown(
      tx: Tx,
      sesMessageId: string,
      job: { campaignId: number; jobId: number },
      recipients: string[],
      sentAt: Date,
    ): Promise<boolean> {
      const { rowCount } = await tx.query(
        `WITH settled AS (
           UPDATE campaign_jobs j
              SET status = 'SENT_WAIT_ACK', ses_message_id = $3, error_message = NULL, sent_at = coalesce(j.sent_at, $5), updated_at = now()
            WHERE j.id = $1 AND j.campaign_id = $2 AND j.status = 'UNKNOWN' AND j.ses_message_id IS NULL
              AND address_key(j.email) IN (SELECT address_key(r) FROM unnest($4::text[]) r)
              AND NOT EXISTS (SELECT 1 FROM campaign_jobs o WHERE o.ses_message_id = $3)
           RETURNING j.campaign_id)
         UPDATE campaigns c SET jobs_sent = jobs_sent + 1 FROM settled WHERE c.id = settled.campaign_id`,
        [job.jobId, job.campaignId, sesMessageId, recipients, sentAt],
      );
      return rowCount === 1;
    },

    /**
     * Adds addresses to the suppressions, keyed by address_key (migration 0017) as every comparison
     * is; an address already there keeps its first reason. An erased address (an event for a mail sent
     * before the erasure) is not stored again: its erased key suppresses it already. Each address this
     * suppressed gets its consent ledger entry, SUPPRESSED in every audience with the reason, in the same
     * statement; one suppressed before records nothing again.
     */
    async suppress(tx: Tx, emails: string[], reason: 'HARD_BOUNCE' | 'COMPLAINT', campaignId: number | null): Promise<void> {
      if (emails.length === 0) return;
      await tx.query(
        `WITH added AS (INSERT INTO suppressions (email_lower, reason, campaign_id)
                        SELECT DISTINCT address_key(e), $2::text, $3::bigint FROM unnest($1::text[]) e WHERE NOT ${isErased('e')}
                        ON CONFLICT (email_lower) DO NOTHING
                        RETURNING email_lower),
              given AS (SELECT DISTINCT ON (address_key(e)) e AS email FROM unnest($1::text[]) e
                         WHERE address_key(e) IN (SELECT email_lower FROM added))
         ${consentInsertFrom('SUPPRESSED', 'given', { email: 'given.email', detail: "jsonb_build_object('reason', $2::text)" })}`,
        [emails, reason, campaignId],
      );
    },
  };
}
