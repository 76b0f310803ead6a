/**
 * The statements of follow-ups (an addition to the spec; migration 0012): a follow-up made with its
 * recipients frozen in one INSERT ... SELECT, who of them the original has reached since, and a page
 * of them as contacts.
 */
import type { Contact, FollowUpRecipients } from '@mailroom/api-client';
import { Op } from 'sequelize';
import type { Database, Tx } from '../../db/database.js';
import { offsetOf, type PageQuery } from '../paging.js';
import { REACHED_SINCE_FROZEN } from '../sending/dispatch-repository.js';
import { suppressionReasonOf } from '../suppressions/erased.js';

/**
 * The jobs of a campaign that count as mailed for its follow-ups: those SES accepted (a bounce keeps
 * its job's status). FAILED jobs never left, UNKNOWN ones may not have, and QUEUED / SENDING ones
 * cannot remain in a SENT campaign.
 */
const MAILED = `j.status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')`;
/** Who did not open, or did not click, counted by people (migration 0010), not by machines. */
const NOT_REACHED: Record<FollowUpRecipients, string> = {
  NOT_OPENED: 'j.human_opened_at IS NULL',
  NOT_CLICKED: 'j.human_clicked_at IS NULL',
};

export function followUpRepository(db: Database) {
  const { Campaign: Campaigns } = db.models;

  return {
    /**
     * A follow-up of `sourceId` (see the contract's followUpCampaign): the new DRAFT with the source's
     * content, and its recipients frozen by one INSERT ... SELECT over the source's jobs, in the same
     * transaction. The source row is locked (FOR NO KEY UPDATE) so it cannot be deleted or sent again
     * meanwhile, and so that follow-ups of one campaign are made one at a time: a follow-up with the same
     * rule that is not sent yet (DRAFT or SCHEDULED) is answered instead of a second one (`existing`),
     * the statement that looks for it seeing what an earlier holder of the lock committed.
     * 'not-found' or 'not-sent' when there is nothing to follow up.
     */
    async insertFollowUp(
      tx: Tx,
      sourceId: number,
      values: { name: string; recipients: FollowUpRecipients; updatedByEmail: string | null },
    ): Promise<{ id: number; existing: boolean } | 'not-found' | 'not-sent'> {
      const source = await Campaigns.findByPk(sourceId, { transaction: tx.transaction, lock: tx.transaction.LOCK.NO_KEY_UPDATE });
      if (!source) return 'not-found';
      if (source.status !== 'SENT') return 'not-sent';
      const pending = await Campaigns.findOne({
        attributes: ['id'],
        where: {
          followUpOf: sourceId,
          followUpRecipients: values.recipients,
          status: { [Op.in]: ['DRAFT', 'SCHEDULED', 'AWAITING_APPROVAL'] },
        },
        order: [['id', 'ASC']],
        transaction: tx.transaction,
      });
      if (pending) return { id: pending.id, existing: true };
      const copy = await Campaigns.create(
        {
          name: values.name,
          audienceId: source.audienceId,
          templateId: source.templateId,
          fromName: source.fromName,
          fromEmail: source.fromEmail,
          subject: source.subject,
          previewText: source.previewText,
          updatedByEmail: values.updatedByEmail,
          followUpOf: source.id,
          followUpName: source.name,
          followUpRecipients: values.recipients,
        },
        { transaction: tx.transaction },
      );
      // The suppressions are probed by key from each job's address (a job keeps its contact's).
      const { rowCount } = await tx.query(
        `INSERT INTO follow_up_recipients (campaign_id, seq, contact_id)
           SELECT $2, row_number() OVER (ORDER BY j.id), j.contact_id
             FROM campaign_jobs j
            WHERE j.campaign_id = $1 AND ${MAILED} AND ${NOT_REACHED[values.recipients]}
              AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.email_lower = address_key(j.email))`,
        [sourceId, copy.id],
      );
      await Campaigns.update({ followUpCount: rowCount }, { where: { id: copy.id }, transaction: tx.transaction });
      return { id: copy.id, existing: false };
    },

    /** How many of a follow-up's recipients its original has reached since they were frozen (its send drops them). */
    async countReachedRecipients(campaignId: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${REACHED_SINCE_FROZEN}`, [campaignId]);
      return rows[0]!.n;
    },

    /** A page of a follow-up's recipients, as contacts (with why an address is suppressed since): a range of their dense numbers. */
    async followUpRecipients(campaignId: number, query: PageQuery): Promise<Contact[]> {
      const first = offsetOf(query) + 1;
      const { rows } = await db.query<Contact>(
        `SELECT c.id, c.email, c.error_message AS "errorMessage", c.data,
                ${suppressionReasonOf('c.email')} AS "suppressionReason"
           FROM follow_up_recipients r JOIN contacts c ON c.id = r.contact_id
          WHERE r.campaign_id = $1 AND r.seq BETWEEN $2 AND $3
          ORDER BY r.seq`,
        [campaignId, first, first + query.limit - 1],
      );
      return rows;
    },
  };
}

export type FollowUpRepository = ReturnType<typeof followUpRepository>;
