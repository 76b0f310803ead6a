/**
 * Opens, clicks and unsubscribes. Hits are recorded a buffer at a time, in one call (the function
 * of migrations 0015 and 0018, with the rules over a mail's hits of classify.ts); a click's target is one
 * indexed read, and never changes once sent.
 */
import type { Database, Sql } from '../../db/database.js';
import { consentInsertFrom } from '../consent/repository.js';
import { BURST_MS, SCANNER_BURST_LINKS, TOO_SOON_MS, type MachineReason } from './classify.js';

/** An open (no link) or a click of a job, with its evidence and the verdict on it alone. */
export interface TrackingHit {
  jobId: number;
  linkId: number | null;
  userAgent: string;
  at: Date;
  /** A valid address (inet) or null. */
  clientIp: string | null;
  /** A machine's reason; null for a person's hit (so far: the recording may find it in a burst). */
  machineReason: MachineReason | null;
}

/** An address an unsubscribe suppressed, and the campaign whose mail held the link. */
export interface Unsubscribed {
  email: string;
  campaignId: number;
  campaignName: string | null;
}

export function trackingRepository(db: Database) {
  return {
    /** How many were recorded (hits of jobs deleted since are not). */
    async recordHits(hits: TrackingHit[]): Promise<number> {
      const { rows } = await db.query<{ recorded: number }>(
        'SELECT record_tracking_hits($1, $2, $3, $4, $5::inet[], $6, $7, $8, $9) AS recorded',
        [
          hits.map((hit) => hit.jobId),
          hits.map((hit) => hit.linkId),
          hits.map((hit) => hit.userAgent),
          hits.map((hit) => hit.at),
          hits.map((hit) => hit.clientIp),
          hits.map((hit) => hit.machineReason),
          TOO_SOON_MS,
          BURST_MS,
          SCANNER_BURST_LINKS,
        ],
      );
      return rows[0]?.recorded ?? 0;
    },

    async linkHref(linkId: number): Promise<string | undefined> {
      const { rows } = await db.query<{ href: string }>('SELECT href FROM campaign_links WHERE id = $1', [linkId]);
      return rows[0]?.href;
    },

    /**
     * What the unsubscribe page says for a job: undefined for no such job; 'unsubscribed' when its
     * address already asked not to be mailed (unsubscribed through any campaign's link, complained, or was
     * erased: the mail's address is then its erased key, which is on the list);
     * 'subscribed' otherwise (another reason leaves the address to a member's removal). The address is
     * folded as unsubscribe() below folds it, or a second visit would not find the first one's row.
     */
    async unsubscribeStatus(jobId: number): Promise<'subscribed' | 'unsubscribed' | undefined> {
      const { rows } = await db.query<{ unsubscribed: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM suppressions s
                         WHERE s.email_lower = address_key(j.email) AND s.reason IN ('UNSUBSCRIBE', 'COMPLAINT', 'ERASED')) AS unsubscribed
           FROM campaign_jobs j WHERE j.id = $1`,
        [jobId],
      );
      if (rows.length === 0) return undefined;
      return rows[0]!.unsubscribed ? 'unsubscribed' : 'subscribed';
    },

    /**
     * Suppresses the job's address for the organisation (a complaint or an earlier unsubscribe is kept as
     * it was; a member's, a bounce's reason becomes UNSUBSCRIBE), on `sql`
     * (the caller's transaction); found is false for no such job, and `added` names the address and its
     * campaign only when this call suppressed it. The first unsubscribe also appends the consent ledger's
     * UNSUBSCRIBED entry (every audience: audience null; the client's address and agent when known), in the
     * same statement: a repeat, which suppresses nothing, records nothing, as the activity log does.
     */
    async unsubscribe(
      jobId: number,
      sql: Sql = db,
      client: { address: string | null; userAgent: string | null } = { address: null, userAgent: null },
    ): Promise<{ found: boolean; added: Unsubscribed | null }> {
      const { rows } = await sql.query<{ found: boolean; added: Unsubscribed | null }>(
        `WITH job AS (SELECT email, campaign_id FROM campaign_jobs WHERE id = $1),
              added AS (INSERT INTO suppressions (email_lower, reason, campaign_id)
                        SELECT address_key(email), 'UNSUBSCRIBE', campaign_id FROM job
                        -- The person's own request outranks a member's or a bounce's reason: kept as MEMBER,
                        -- a member could take the address off the list with the generic confirmation.
                        ON CONFLICT (email_lower) DO UPDATE
                           SET reason = 'UNSUBSCRIBE', campaign_id = EXCLUDED.campaign_id, added_by_email = NULL, created_at = now()
                         WHERE suppressions.reason IN ('MEMBER', 'SOFT_BOUNCE', 'HARD_BOUNCE')
                        RETURNING email_lower, campaign_id),
              recorded AS (${consentInsertFrom('UNSUBSCRIBED', 'job WHERE EXISTS (SELECT 1 FROM added)', {
                email: 'job.email',
                clientAddress: '$2',
                userAgent: '$3',
              })})
         SELECT EXISTS (SELECT 1 FROM job) AS found,
                (SELECT json_build_object('email', added.email_lower, 'campaignId', added.campaign_id, 'campaignName', campaigns.name)
                   FROM added LEFT JOIN campaigns ON campaigns.id = added.campaign_id) AS added`,
        [jobId, client.address, client.userAgent],
      );
      return { found: rows[0]?.found === true, added: rows[0]?.added ?? null };
    },
  };
}
