/**
 * Opens, clicks and unsubscribes. Hits are recorded a buffer at a time, in one call (the function
 * of migrations 0015 and 0018, with the rules over a mail's hits of classify.ts); a click's target is one
 * indexed read, and never changes once sent.
 */
import type { Database } from '../../db/database.js';
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

    async jobExists(jobId: number): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM campaign_jobs WHERE id = $1', [jobId]);
      return rows.length > 0;
    },

    /** Suppresses the job's address for the organisation (kept as it was if already suppressed); false for no such job. */
    async unsubscribe(jobId: number): Promise<boolean> {
      const { rows } = await db.query<{ found: boolean }>(
        `WITH job AS (SELECT email, campaign_id FROM campaign_jobs WHERE id = $1),
              added AS (INSERT INTO suppressions (email_lower, reason, campaign_id)
                        SELECT lower(email), 'UNSUBSCRIBE', campaign_id FROM job
                        ON CONFLICT (email_lower) DO NOTHING)
         SELECT EXISTS (SELECT 1 FROM job) AS found`,
        [jobId],
      );
      return rows[0]?.found === true;
    },
  };
}
