/**
 * The statements of the consumer and the sweep (docs/architecture.md, Sending, at most once per job):
 * jobs claimed in batches with a conditional UPDATE committed before SES is called, the claims'
 * heartbeat, their outcomes recorded in batches with the campaign's counters in the same statement,
 * a campaign stopped or finished, and abandoned claims turned UNKNOWN. Raw SQL: the claim is the
 * at-most-once guarantee itself. The dispatch's statements are in dispatch-repository.ts.
 */
import type { FieldValue } from '@mailroom/api-client/fields';
import type { Database } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import type { MergeField } from '../../mail/merge-tags.js';
import { mergeFieldsOf } from '../fields/repository.js';
import { isSuppressed } from '../suppressions/erased.js';

/** A job's address is suppressed, erased included (suppressions/erased.ts). */
const SUPPRESSED_JOB = isSuppressed('j.email');

/** The error of a job kept FAILED (not deleted) because its person left or was suppressed after it was made. */
export const LEFT_SINCE_FROZEN = 'Not sent: the person left the audience or the address was suppressed after the send started';

/** What a worker needs to render and send a campaign's mail (immutable once sending started). */
export interface SendingCampaign {
  id: number;
  status: CampaignStatus;
  fromName: string | null;
  fromEmail: string | null;
  subject: string | null;
  previewText: string | null;
  html: string | null;
  plainText: string | null;
  /** The audience's fields (keys and types, in headers order): merge tags resolve against them. */
  fields: MergeField[];
  /** Its A/B test's variants in order (migration 0036): what each changes, null keeping the campaign's. */
  variants: SendingVariant[];
}

export interface SendingVariant {
  subject: string | null;
  previewText: string | null;
  fromName: string | null;
  html: string | null;
  plainText: string | null;
}

export interface ClaimedJob {
  id: number;
  email: string;
  /** Claims of this job so far, this one included. */
  attempts: number;
  /** Its A/B test variant (null: the campaign's own mail). */
  variant: number | null;
  data: Record<string, FieldValue>;
  /** The slot of its domain's limit it was released with (epoch milliseconds), if any (migrations 0035 and 0037). */
  domainSlotAt: number | null;
}

/** Why a SENDING campaign is paused: SES's daily quota, or the warm-up's volume for the day. */
export type PauseReason = 'DAILY_QUOTA' | 'WARM_UP';

/** What a claim's mails met on their way, per receiving domain (the report's domain table). */
export interface OutcomeNotes {
  /** It waited for its domain's limit before it went (or was deferred). */
  waited?: boolean;
}

export type JobOutcome = OutcomeNotes &
  (
    | { id: number; status: 'SENT_WAIT_ACK'; messageId: string }
    | { id: number; status: 'FAILED' | 'UNKNOWN'; error: string }
    /**
     * Not sent: back in the queue, not before `delayMs` (0 when the campaign stopped). `returned`: SES
     * did not take it and it is no attempt that failed (never called, the database lost before; refused
     * for the rate; over the daily quota), so the claim does not count as an attempt.
     */
    | {
        id: number;
        status: 'QUEUED';
        delayMs: number;
        error?: string;
        returned?: boolean;
        /** SES answered 429 for the rate. */
        throttled?: boolean;
        /**
         * Held for its capped receiving domain (this domain, as recipient_domain() says): it waits in the
         * database, unclaimable, until the domain's release gives it a slot (a deferral). Never published.
         */
        held?: string;
      }
  );

export function claimRepository(db: Database) {
  return {
    async findSendingCampaign(id: number): Promise<SendingCampaign | undefined> {
      const { rows } = await db.query<SendingCampaign>(
        `SELECT c.id, c.status, c.from_name AS "fromName", c.from_email AS "fromEmail", c.subject,
                c.preview_text AS "previewText", c.html, c.plain_text AS "plainText",
                CASE WHEN a.id IS NULL THEN '[]'::jsonb ELSE ${mergeFieldsOf('a')} END AS fields,
                (SELECT coalesce(jsonb_agg(jsonb_build_object('subject', v.subject, 'previewText', v.preview_text, 'fromName', v.from_name,
                                                              'html', v.html, 'plainText', v.plain_text) ORDER BY v.position), '[]')
                   FROM campaign_variants v WHERE v.campaign_id = c.id) AS variants
           FROM campaigns c LEFT JOIN audiences a ON a.id = c.audience_id
          WHERE c.id = $1`,
        [id],
      );
      return rows[0];
    },

    /**
     * Claims the jobs of `ids` that are QUEUED while their campaign is SENDING and not paused at the daily quota (committed on return,
     * before SES is called): another worker, or a redelivered message, finds them taken. The claim is
     * named by `token`: run again with the same token (its answer was lost with the database), it
     * answers the jobs it had taken as well, without counting another attempt.
     *
     * A queued job whose contact left the audience (the preference centre) or whose address was suppressed
     * since the jobs were made is not sent (issue 25; docs/decisions/sign-up.md): in the same statement
     * it is deleted, the campaign's job counts and contact_count lowered, so the report shows the contact as
     * NOT_SENT with its reason, and "send to NOT_SENT" skips it as a new send does. A job with a trace of an
     * earlier mail (a resent UNKNOWN job with a hit or an SES event: deleting it would take its tracking events with
     * it) is kept as FAILED with the reason instead.
     * The delete and the claim both re-check the job's status under its row lock, so a second worker or a
     * redelivered message neither claims nor counts a job twice.
     *
     * A job held for its capped domain (migration 0037) is skipped until the domain's release gives it a
     * slot: a message that names it (the dispatch's, a republish) claims nothing of it.
     */
    async claim(campaignId: number, ids: number[], token: string): Promise<ClaimedJob[]> {
      const { rows } = await db.query<ClaimedJob>(
        `WITH candidate AS (
           SELECT j.id, j.sent_at IS NULL AND j.ses_message_id IS NULL AND j.bounce_type IS NULL AND j.complaint_type IS NULL
                        AND j.opened_at IS NULL AND j.clicked_at IS NULL AS traceless
             FROM campaign_jobs j LEFT JOIN contacts c ON c.id = j.contact_id
            WHERE j.id = ANY($2::bigint[]) AND j.campaign_id = $1 AND j.status = 'QUEUED'
              AND (c.unsubscribed_at IS NOT NULL OR ${SUPPRESSED_JOB})
              AND EXISTS (SELECT 1 FROM campaigns WHERE id = $1 AND status = 'SENDING' AND quota_paused_until IS NULL)),
         skipped AS (
           DELETE FROM campaign_jobs j USING candidate k
            WHERE j.id = k.id AND k.traceless AND j.status = 'QUEUED'
           RETURNING j.campaign_id, j.status, coalesce(j.bounce_type, 'NONE') AS bounce_type, j.opened_at IS NOT NULL AS opened,
                     j.clicked_at IS NOT NULL AS clicked, j.human_opened_at IS NOT NULL AS human_opened,
                     j.human_clicked_at IS NOT NULL AS human_clicked),
         refused AS (
           UPDATE campaign_jobs j SET status = 'FAILED', error_message = $4, updated_at = now()
             FROM candidate k
            WHERE j.id = k.id AND NOT k.traceless AND j.status = 'QUEUED'
           RETURNING j.id),
         counted AS (
           UPDATE campaigns
              SET contact_count = contact_count - s.deleted, jobs_failed = jobs_failed + s.refused, progress_at = now()
             FROM (SELECT (SELECT count(*)::int FROM skipped) AS deleted, (SELECT count(*)::int FROM refused) AS refused,
                          campaign_job_counts_add((SELECT array_agg(row(campaign_id, status, bounce_type, opened, clicked, human_opened,
                                                                        human_clicked, -jobs)::campaign_job_counts)
                                                     FROM (SELECT *, count(*) AS jobs FROM skipped GROUP BY 1, 2, 3, 4, 5, 6, 7) g)) AS done) s
            WHERE id = $1 AND (s.deleted > 0 OR s.refused > 0)),
         claimed AS (
           UPDATE campaign_jobs j
              SET status = 'SENDING', claimed_at = now(), claim_token = $3, domain_held = NULL,
                  attempts = attempts + CASE WHEN j.status = 'QUEUED' THEN 1 ELSE 0 END, not_before = NULL, updated_at = now()
            WHERE j.id = ANY($2::bigint[]) AND j.campaign_id = $1
              AND ((j.status = 'QUEUED' AND j.id NOT IN (SELECT id FROM candidate) AND (j.domain_held IS NULL OR j.domain_slot_at IS NOT NULL))
                   OR (j.status = 'SENDING' AND j.claim_token = $3))
              AND EXISTS (SELECT 1 FROM campaigns WHERE id = $1 AND status = 'SENDING' AND quota_paused_until IS NULL)
           RETURNING j.id, j.contact_id, j.email, j.attempts, j.variant, j.domain_slot_at)
         SELECT claimed.id, claimed.email, claimed.attempts, claimed.variant, coalesce(c.data, '{}') AS data,
                (extract(epoch FROM claimed.domain_slot_at) * 1000)::float8 AS "domainSlotAt"
           FROM claimed LEFT JOIN contacts c ON c.id = claimed.contact_id
          ORDER BY claimed.id`,
        [campaignId, ids, token, LEFT_SINCE_FROZEN],
      );
      return rows;
    },

    /**
     * The heartbeat of claims a living worker still holds (sending, or keeping outcomes through an
     * outage): the stale sweep reads claimed_at, so these never look abandoned.
     */
    async heartbeat(claims: { token: string; ids: number[] }[]): Promise<void> {
      if (claims.length === 0) return;
      await db.query(
        `UPDATE campaign_jobs SET claimed_at = now()
          WHERE id = ANY($1::bigint[]) AND status = 'SENDING' AND claim_token = ANY($2::uuid[])`,
        [claims.flatMap((claim) => claim.ids), claims.map((claim) => claim.token)],
      );
    },

    /**
     * Records the outcomes of one claim (`token`) and moves the campaign's counters in the same
     * statement. A job the sweep had already called UNKNOWN takes its real outcome. Only the claim's
     * own jobs change, so running it again (its answer was lost) changes nothing more. A job given
     * back (`returned`: claimed, never sent) is QUEUED again without counting the attempt; one `held` for its
     * domain waits for the domain's release, its slot (if any) given up.
     */
    async record(campaignId: number, token: string, outcomes: JobOutcome[]): Promise<void> {
      if (outcomes.length === 0) return;
      await db.query(
        `WITH outcome AS (
           SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::float8[], $8::bool[], $9::text[],
                                $10::bool[], $11::bool[])
                         AS o(id, status, message_id, error, delay_ms, returned, held, waited, throttled)),
         done AS (
           UPDATE campaign_jobs j
              SET status = o.status,
                  ses_message_id = coalesce(o.message_id, j.ses_message_id),
                  error_message = o.error,
                  sent_at = CASE WHEN o.status = 'SENT_WAIT_ACK' THEN now() ELSE j.sent_at END,
                  claimed_at = CASE WHEN o.status = 'QUEUED' THEN NULL ELSE j.claimed_at END,
                  not_before = CASE WHEN o.status = 'QUEUED' AND o.delay_ms > 0
                                    THEN now() + o.delay_ms * interval '1 millisecond' END,
                  attempts = CASE WHEN o.returned THEN greatest(0, j.attempts - 1) ELSE j.attempts END,
                  claim_token = CASE WHEN o.status = 'QUEUED' THEN NULL ELSE j.claim_token END,
                  domain_slot_at = NULL,
                  domain_held = CASE WHEN o.status = 'QUEUED' THEN o.held END,
                  updated_at = now()
             FROM outcome o
            WHERE j.id = o.id AND j.campaign_id = $1 AND j.status IN ('SENDING', 'UNKNOWN') AND j.claim_token = $7
           RETURNING j.status, j.email, o.waited, o.held IS NOT NULL AS deferred, o.throttled),
         -- Only when the outcomes were recorded now (a record run again finds its claim gone): nothing counts twice.
         throttles AS (
           INSERT INTO campaign_domain_throttles AS k (campaign_id, domain, limit_waits, deferrals, ses_throttles)
           SELECT $1, recipient_domain(email), count(*) FILTER (WHERE waited), count(*) FILTER (WHERE deferred),
                  count(*) FILTER (WHERE throttled)
             FROM done WHERE waited OR deferred OR throttled
            GROUP BY 2 ORDER BY 2
           ON CONFLICT (campaign_id, domain) DO UPDATE
              SET limit_waits = k.limit_waits + excluded.limit_waits, deferrals = k.deferrals + excluded.deferrals,
                  ses_throttles = k.ses_throttles + excluded.ses_throttles),
         minutes AS (
           INSERT INTO send_minute_counts AS m (minute, sent)
           SELECT date_trunc('minute', now()), count(*) FROM done WHERE status = 'SENT_WAIT_ACK' HAVING count(*) > 0
           ON CONFLICT (minute) DO UPDATE SET sent = m.sent + excluded.sent)
         UPDATE campaigns
            SET jobs_sent = jobs_sent + (SELECT count(*) FROM done WHERE status = 'SENT_WAIT_ACK'),
                jobs_failed = jobs_failed + (SELECT count(*) FROM done WHERE status = 'FAILED'),
                progress_at = now()
          WHERE id = $1`,
        [
          campaignId,
          outcomes.map((o) => o.id),
          outcomes.map((o) => o.status),
          outcomes.map((o) => (o.status === 'SENT_WAIT_ACK' ? o.messageId : null)),
          outcomes.map((o) => ('error' in o ? (o.error ?? null) : null)),
          outcomes.map((o) => (o.status === 'QUEUED' ? o.delayMs : 0)),
          token,
          outcomes.map((o) => o.status === 'QUEUED' && o.returned === true),
          outcomes.map((o) => (o.status === 'QUEUED' ? (o.held ?? null) : null)),
          outcomes.map((o) => o.waited === true),
          outcomes.map((o) => o.status === 'QUEUED' && o.throttled === true),
        ],
      );
    },

    /** SENDING -> ERROR with the reason the list shows; false if it was not sending. */
    async stop(campaignId: number, reason: string): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE campaigns SET status = 'ERROR', error_message = $2, quota_paused_until = NULL, paused_for = NULL
          WHERE id = $1 AND status = 'SENDING'`,
        [campaignId, reason],
      );
      return rowCount === 1;
    },

    /**
     * The SENDING campaign pauses (answers until when, or undefined when it was not sending or already paused):
     *  - DAILY_QUOTA: SES's daily quota is used up, until the rolling 24 hours let it send again: when the
     *    oldest minute of the deployment's sending still counted by SES has left them (send_minute_counts,
     *    migration 0035: one row a minute, never the jobs). At least 5 minutes ahead, so a quota another
     *    sender of the account used up does not wake the campaign every sweep; an hour ahead when no mail
     *    of ours is in the window (the quota is someone else's: SES is asked again then).
     *  - WARM_UP: the warm-up's volume for the day is used up, until `until` (the plan's next day).
     */
    async pause(campaignId: number, reason: PauseReason, until?: Date): Promise<Date | undefined> {
      const { rows } = await db.query<{ until: Date }>(
        `UPDATE campaigns
            SET paused_for = $2,
                quota_paused_until = CASE WHEN $2 = 'WARM_UP' THEN $3::timestamptz ELSE greatest(
                  now() + interval '5 minutes',
                  coalesce((SELECT min(minute) FROM send_minute_counts WHERE sent > 0 AND minute > now() - interval '24 hours 1 minute')
                             + interval '24 hours 1 minute',
                           now() + interval '1 hour')) END
          WHERE id = $1 AND status = 'SENDING' AND quota_paused_until IS NULL
          RETURNING quota_paused_until AS until`,
        [campaignId, reason, until ?? null],
      );
      return rows[0]?.until;
    },

    /**
     * SENDING campaigns whose pause is over at `at` (default: the database's now): the pause is dropped and their ids answered
     * (one sweep takes each), to publish their queued jobs again.
     */
    async takeResumedCampaigns(at?: Date): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(
        `UPDATE campaigns SET quota_paused_until = NULL, paused_for = NULL, progress_at = now()
          WHERE status = 'SENDING' AND quota_paused_until <= coalesce($1::timestamptz, now())
          RETURNING id`,
        [at ?? null],
      );
      return rows.map((row) => row.id);
    },

    /** Minutes of sending SES no longer counts (send_minute_counts keeps 25 hours). */
    async pruneSendMinutes(): Promise<void> {
      await db.query(`DELETE FROM send_minute_counts WHERE minute < now() - interval '25 hours'`);
    },

    /**
     * Holds, at once, every queued job of the campaign whose receiving domain a limit caps (`exact` domains, or
     * under one of `suffixes`, as `.edu` for `*.edu`), counted as deferrals: they wait for their domain's
     * release from the start, rather than become held one claim at a time as the broker's messages come, which
     * fed a capped domain no faster than the whole send went. Answers how many it held.
     */
    async holdCapped(campaignId: number, exact: string[], suffixes: string[]): Promise<number> {
      const { rows } = await db.query<{ held: number }>(
        `WITH held AS (
           UPDATE campaign_jobs j SET domain_held = recipient_domain(j.email)
            WHERE j.campaign_id = $1 AND j.status = 'QUEUED' AND j.domain_held IS NULL
              AND (recipient_domain(j.email) = ANY($2::text[])
                   OR EXISTS (SELECT 1 FROM unnest($3::text[]) s WHERE recipient_domain(j.email) LIKE '%' || s))
           RETURNING j.domain_held),
         counted AS (
           INSERT INTO campaign_domain_throttles AS k (campaign_id, domain, deferrals)
           SELECT $1, domain_held, count(*) FROM held GROUP BY 2 ORDER BY 2
           ON CONFLICT (campaign_id, domain) DO UPDATE SET deferrals = k.deferrals + excluded.deferrals)
         SELECT count(*)::int AS held FROM held`,
        [campaignId, exact, suffixes],
      );
      return rows[0]!.held;
    },

    /** The receiving domains with jobs held for their limit (migration 0037). */
    async heldDomains(): Promise<string[]> {
      const { rows } = await db.query<{ domain: string }>('SELECT held_domains() AS domain');
      return rows.map((row) => row.domain);
    },

    /**
     * Releases each domain's next held jobs as its schedule frees (`perSecond`: its pace), slots from at
     * least `leadMs` to at most `aheadMs` ahead and at most `most` jobs a domain: the released jobs by campaign, each with its slot
     * (epoch milliseconds). They are claimable from now on.
     */
    async releaseDomainJobs(
      domains: { domain: string; perSecond: number }[],
      leadMs: number,
      aheadMs: number,
      most: number,
    ): Promise<{ campaignId: number; jobId: number; slotMs: number }[]> {
      if (domains.length === 0) return [];
      const { rows } = await db.query<{ campaign_id: number; job_id: number; slot_ms: number }>(
        'SELECT campaign_id::int, job_id::int, slot_ms FROM release_domain_jobs($1::text[], $2::float8[], $3, $4, $5)',
        [domains.map((d) => d.domain), domains.map((d) => d.perSecond), leadMs, aheadMs, most],
      );
      return rows.map((row) => ({ campaignId: row.campaign_id, jobId: row.job_id, slotMs: row.slot_ms }));
    },

    /**
     * Released jobs nobody claimed by `lateMs` after their slot (the releasing worker died, or its
     * batch failed before the claim): back in their domain's line, released again at its pace.
     */
    async putBackLostReleases(lateMs: number): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE campaign_jobs SET domain_slot_at = NULL
          WHERE domain_held IS NOT NULL AND status = 'QUEUED' AND domain_slot_at < now() - $1 * interval '1 millisecond'`,
        [lateMs],
      );
      return rowCount;
    },

    /**
     * Jobs held for `domains`, which no limit caps any more (the setting changed): no longer held; answers
     * their campaigns, to publish their queued jobs.
     */
    async freeHeld(domains: string[]): Promise<number[]> {
      if (domains.length === 0) return [];
      const { rows } = await db.query<{ campaign_id: number }>(
        `UPDATE campaign_jobs SET domain_held = NULL, domain_slot_at = NULL
          WHERE domain_held = ANY($1::text[]) AND status = 'QUEUED'
          RETURNING campaign_id::int`,
        [domains],
      );
      return [...new Set(rows.map((row) => row.campaign_id))];
    },

    /**
     * SENDING -> SENT once no job is QUEUED or SENDING. The campaign row is locked first and the
     * jobs read after, so a continue or retry that queued jobs meanwhile is always seen.
     */
    async finishIfDone(campaignId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const campaign = await tx.query<{ status: CampaignStatus }>('SELECT status FROM campaigns WHERE id = $1 FOR UPDATE', [campaignId]);
        if (campaign.rows[0]?.status !== 'SENDING') return false;
        const left = await tx.query(`SELECT 1 FROM campaign_jobs WHERE campaign_id = $1 AND status IN ('QUEUED', 'SENDING') LIMIT 1`, [
          campaignId,
        ]);
        if (left.rows.length > 0) return false;
        // An A/B test's campaign stays SENDING while the rest waits for its winner (migration 0036).
        const waiting = await tx.query(
          'SELECT 1 FROM campaign_ab_tests WHERE campaign_id = $1 AND winner IS NULL AND started_at IS NOT NULL',
          [campaignId],
        );
        if (waiting.rows.length > 0) return false;
        await tx.query(`UPDATE campaigns SET status = 'SENT' WHERE id = $1`, [campaignId]);
        return true;
      });
    },

    /**
     * Jobs whose claim had no heartbeat for `staleAfterMs` (their worker died mid-send) become
     * UNKNOWN. PostgreSQL's own restart counts as a heartbeat of every claim: while it was down no
     * worker could write one, and each living one writes its next within the stale time.
     */
    async markStaleUnknown(staleAfterMs: number, message: string): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE campaign_jobs SET status = 'UNKNOWN', error_message = $2, updated_at = now()
          WHERE campaign_id IN (SELECT id FROM campaigns WHERE status IN ('SENDING', 'ERROR'))
            AND status = 'SENDING'
            AND greatest(claimed_at, pg_postmaster_start_time()) < now() - $1 * interval '1 millisecond'`,
        [staleAfterMs, message],
      );
      return rowCount;
    },

    async sendingCampaignIds(): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(`SELECT id FROM campaigns WHERE status = 'SENDING' ORDER BY id`);
      return rows.map((row) => row.id);
    },

    /**
     * SENDING campaigns, not paused, with no progress for `idleMs` (their messages were lost: a publish that
     * failed, a dead-lettered batch): marks them as progressing now and answers their ids, so one
     * sweep republishes them and the next waits for another idle period.
     */
    async takeIdleCampaigns(idleMs: number): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(
        `UPDATE campaigns SET progress_at = now()
          WHERE status = 'SENDING' AND quota_paused_until IS NULL
            AND (progress_at IS NULL OR progress_at < now() - $1 * interval '1 millisecond')
          RETURNING id`,
        [idleMs],
      );
      return rows.map((row) => row.id);
    },
  };
}

export type ClaimRepository = ReturnType<typeof claimRepository>;
