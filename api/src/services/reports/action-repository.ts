/**
 * What the report's actions check before they dispatch (the dispatch checks again, atomically): the
 * campaign, a job to retry, a contact to send to. The clicks and the export read the campaign too.
 */
import type { Sql } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import { isSuppressed } from '../suppressions/erased.js';

export function actionRepository(db: Sql) {
  return {
    /** The campaign's status, its live audience (not deleted), if any, and whether it is a follow-up. */
    async campaignStatus(
      campaignId: number,
    ): Promise<{ status: CampaignStatus; audienceId: number | null; name: string; followUp: boolean } | undefined> {
      const { rows } = await db.query<{ status: CampaignStatus; audienceId: number | null; name: string; followUp: boolean }>(
        `SELECT c.status, a.id AS "audienceId", c.name, c.follow_up_recipients IS NOT NULL AS "followUp" FROM campaigns c
           LEFT JOIN audiences a ON a.id = c.audience_id AND a.deleted_at IS NULL
          WHERE c.id = $1`,
        [campaignId],
      );
      return rows[0];
    },

    async jobStatus(campaignId: number, jobId: number): Promise<string | undefined> {
      const { rows } = await db.query<{ status: string }>('SELECT status FROM campaign_jobs WHERE id = $1 AND campaign_id = $2', [
        jobId,
        campaignId,
      ]);
      return rows[0]?.status;
    },

    /**
     * A contact of the audience as "send to contact" sees it; undefined when it is not one of the
     * audience's. `recipient`: one of the follow-up's recipients (`followUp`), or true for a campaign
     * that is none. The follow-up's recipients are read in one pass over its own (its key starts
     * with the campaign, not the contact): an action of one row.
     */
    async contactForSend(campaignId: number, audienceId: number, contactId: number, followUp: boolean) {
      const { rows } = await db.query<{ valid: boolean; suppressed: boolean; left: boolean; hasJob: boolean; recipient: boolean }>(
        `SELECT c.error_message IS NULL AS valid,
                ${isSuppressed('c.email')} AS suppressed, c.unsubscribed_at IS NOT NULL AS "left",
                EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $1 AND j.contact_id = c.id) AS "hasJob",
                NOT $4::boolean OR EXISTS (SELECT 1 FROM follow_up_recipients r WHERE r.campaign_id = $1 AND r.contact_id = c.id) AS recipient
           FROM contacts c WHERE c.id = $3 AND c.audience_id = $2`,
        [campaignId, audienceId, contactId, followUp],
      );
      return rows[0];
    },
  };
}

export type ActionRepository = ReturnType<typeof actionRepository>;
