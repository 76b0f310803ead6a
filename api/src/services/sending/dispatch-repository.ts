/**
 * The statements of the dispatch, the producer's side of sending (docs/architecture.md, Data;
 * Sending, at most once per job): the campaign row locked, the html's links snapshotted, jobs created
 * in one INSERT ... SELECT or put back in the queue, and the queued job ids read a page at a time to
 * be published. Raw SQL: these are set-based statements on up to a million rows. Claims and outcomes
 * are in claim-repository.ts.
 */
import type { Database, Tx } from '../../db/database.js';
import type { CampaignStatus } from '../../db/models/index.js';
import type { SnapshotLink } from '../../mail/links.js';
import { compileRule, STATEMENT_SETTINGS } from '../segments/compile-repository.js';
import type { CheckedRule, SegmentRule } from '../segments/rule.js';
import { erasedMail, isSuppressed } from '../suppressions/erased.js';

export interface NewJobs {
  /**
   * Contacts of the audience without a job: every valid, not suppressed one, or one of them. For a
   * follow-up, only those among its frozen recipients.
   */
  contacts: 'all' | { contactId: number };
}

/**
 * The A/B test of a campaign as the dispatch needs it (migration 0036): the split's seed and share,
 * how many variants, and the winner once decided. Undecided, a dispatch freezes only the test share
 * (its first send) and the rest waits; decided, new jobs get the winner.
 */
export interface DispatchAbTest {
  seed: number;
  testShare: number;
  variants: number;
  winner: number | null;
  started: boolean;
}

/** How the new jobs get their variant: split among the test's variants at random, or all the winner. */
export type VariantChoice = { split: DispatchAbTest } | { variant: number };

/** A template variant's content to snapshot at the first send. */
export interface VariantTemplate {
  position: number;
  html: string | null;
  plainText: string | null;
}

/** Link positions of a template variant's snapshot: its own range, so they never meet the campaign's (campaign_links is unique by position). */
export const VARIANT_LINK_POSITIONS = 100_000;

/**
 * What a dispatch puts back in the queue: every FAILED job, one FAILED job, or the UNKNOWN jobs that no
 * SES event has confirmed for `unconfirmedForMs` since they were claimed (a deliberate resend: some of
 * those mails may have gone out).
 */
export type Requeue = 'failed' | { jobId: number } | { unconfirmedForMs: number };

export interface LockedCampaign {
  status: CampaignStatus;
  audienceId: number | null;
  name: string;
  /** A follow-up (migration 0012) goes only to its frozen recipients, never to the rest of the audience. */
  followUp: boolean;
  /** The segment it targets (migration 0030), and its rule as sent once sending started (null before). */
  segmentId: number | null;
  segmentRule: SegmentRule | null;
  /** Its A/B test (migration 0036); null without one. */
  abTest: DispatchAbTest | null;
}

/** What createJobs made: how many, and the range of their ids (all of this campaign's jobs in it are new). */
export interface CreatedJobs {
  count: number;
  firstId: number | null;
  lastId: number | null;
}

/** Queued job ids are read and published this many at a time: a million-job send never holds them all. */
export const ID_PAGE = 50_000;

/** Suppressed, an erased address included (suppressions/erased.ts). */
const SUPPRESSED = isSuppressed('c.email');

/**
 * FROM and WHERE of the recipients (alias r) of the follow-up $1 whom its original has reached as a
 * person since they were frozen: they opened it (a NOT_OPENED follow-up) or clicked in it
 * (NOT_CLICKED). One probe of the original's (campaign_id, contact_id) key per recipient; none once
 * the original is deleted (follow_up_of is then null).
 */
export const REACHED_SINCE_FROZEN = `FROM follow_up_recipients r
  JOIN campaigns f ON f.id = r.campaign_id
  JOIN campaign_jobs o ON o.campaign_id = f.follow_up_of AND o.contact_id = r.contact_id
 WHERE r.campaign_id = $1
   AND CASE f.follow_up_recipients WHEN 'NOT_CLICKED' THEN o.human_clicked_at IS NOT NULL ELSE o.human_opened_at IS NOT NULL END`;

export function dispatchRepository(db: Database) {
  return {
    /**
     * Locks the campaign row for the transaction (sends, continues and retries of one campaign queue up);
     * with `skipLocked`, a row another transaction holds is answered as none at once.
     */
    async lockCampaign(tx: Tx, id: number, options: { skipLocked?: boolean } = {}): Promise<LockedCampaign | undefined> {
      const { rows } = await tx.query<{
        status: CampaignStatus;
        audience_id: number | null;
        name: string;
        follow_up: boolean;
        segment_id: number | null;
        segment_rule: SegmentRule | null;
        ab_test: DispatchAbTest | null;
      }>(
        `SELECT status, audience_id, name, follow_up_recipients IS NOT NULL AS follow_up, segment_id, segment_rule,
                (SELECT jsonb_build_object('seed', t.seed, 'testShare', t.test_share, 'winner', t.winner, 'started', t.started_at IS NOT NULL,
                                           'variants', (SELECT count(*) FROM campaign_variants v WHERE v.campaign_id = t.campaign_id))
                   FROM campaign_ab_tests t WHERE t.campaign_id = c.id) AS ab_test
           FROM campaigns c WHERE id = $1
            FOR UPDATE OF c${options.skipLocked ? ' SKIP LOCKED' : ''}`,
        [id],
      );
      const row = rows[0];
      return (
        row && {
          status: row.status,
          audienceId: row.audience_id,
          name: row.name,
          followUp: row.follow_up,
          segmentId: row.segment_id,
          segmentRule: row.segment_rule,
          abTest: row.ab_test,
        }
      );
    },

    /**
     * Drops from a follow-up's recipients those its original has reached since (REACHED_SINCE_FROZEN),
     * keeping `seq` dense (the preview and the report page by it) and `follow_up_count` their number.
     * Only the rows after the first dropped one are numbered again, in one statement. Answers how many
     * were dropped. The caller holds the follow-up's row and it has no job yet (its first send).
     */
    async dropReachedRecipients(tx: Tx, campaignId: number): Promise<number> {
      const { rows } = await tx.query<{ dropped: number; first: number | null }>(
        `WITH dropped AS (
           DELETE FROM follow_up_recipients d
            WHERE d.campaign_id = $1 AND d.seq IN (SELECT r.seq ${REACHED_SINCE_FROZEN})
           RETURNING d.seq)
         SELECT count(*)::int AS dropped, min(seq) AS first FROM dropped`,
        [campaignId],
      );
      const { dropped, first } = rows[0]!;
      if (dropped === 0 || first === null) return 0;
      await tx.query(
        `WITH moved AS (DELETE FROM follow_up_recipients WHERE campaign_id = $1 AND seq > $2 RETURNING seq, contact_id)
         INSERT INTO follow_up_recipients (campaign_id, seq, contact_id)
         SELECT $1, $2 - 1 + row_number() OVER (ORDER BY seq), contact_id FROM moved`,
        [campaignId, first],
      );
      await tx.query('UPDATE campaigns SET follow_up_count = follow_up_count - $2 WHERE id = $1', [campaignId, dropped]);
      return dropped;
    },

    /** The links of the html snapshot; their ids, in the order given. */
    async insertLinks(tx: Tx, campaignId: number, links: SnapshotLink[]): Promise<number[]> {
      if (links.length === 0) return [];
      const { rows } = await tx.query<{ id: number; position: number }>(
        `INSERT INTO campaign_links (campaign_id, href, position, hidden)
         SELECT $1, l.href, l.position, l.hidden FROM unnest($2::text[], $3::int[], $4::boolean[]) AS l(href, position, hidden)
         ORDER BY l.position
         RETURNING id, position`,
        [campaignId, links.map((l) => l.href), links.map((l) => l.position), links.map((l) => l.hidden === true)],
      );
      const byPosition = new Map(rows.map((row) => [row.position, row.id]));
      return links.map((link) => byPosition.get(link.position)!);
    },

    async saveSnapshot(tx: Tx, campaignId: number, html: string, plainText: string | null): Promise<void> {
      await tx.query('UPDATE campaigns SET html = $2, plain_text = $3, delivery_date = now() WHERE id = $1', [campaignId, html, plainText]);
    },

    /** The segment's name and rule as sent (migration 0030): what the report shows whatever becomes of the segment. */
    async saveSegmentSnapshot(tx: Tx, campaignId: number, segment: { name: string; rule: SegmentRule }): Promise<void> {
      await tx.query('UPDATE campaigns SET segment_name = $2, segment_rule = $3 WHERE id = $1', [campaignId, segment.name, segment.rule]);
    },

    /**
     * Creates the jobs of contacts that have none (valid, in the audience still, not suppressed): of the audience, or of a
     * follow-up's frozen recipients (`followUp`), all or one. Answers how many and their id range
     * rather than every id: the campaign row is locked, so the campaign's jobs within that range are
     * exactly these. Contacts with a job are left out by reading, not by the insert's conflict check:
     * that check waits for a worker whose claim or record holds the job's row while its count trigger
     * waits for the campaign row this transaction holds, a deadlock (seen as a 500 on concurrent "send
     * to contact"). With a segment's rule (`segment`), only the contacts it matches: the recipients frozen by this
     * one INSERT ... SELECT.
     */
    async createJobs(
      tx: Tx,
      campaignId: number,
      audienceId: number,
      jobs: NewJobs,
      followUp = false,
      segment?: CheckedRule,
      variants?: VariantChoice,
    ): Promise<CreatedJobs> {
      const params: unknown[] = [campaignId, audienceId];
      const one = jobs.contacts === 'all' ? '' : `AND c.id = $${params.push(jobs.contacts.contactId)}`;
      const compiled = segment && compileRule(segment, '$2', params.length + 1);
      if (compiled) {
        params.push(...compiled.params);
        await tx.query(STATEMENT_SETTINGS);
      }
      const inSegment = compiled ? `AND (${compiled.sql})` : '';
      const source = followUp
        ? `FROM follow_up_recipients r JOIN contacts c ON c.id = r.contact_id WHERE r.campaign_id = $1 AND c.audience_id = $2`
        : `FROM contacts c WHERE c.audience_id = $2`;
      const eligible = `SELECT c.id, c.email, ${followUp ? 'r.seq' : 'c.valid_seq'} AS ord ${source}
              AND c.error_message IS NULL AND c.unsubscribed_at IS NULL AND NOT ${SUPPRESSED}
              AND NOT EXISTS (SELECT 1 FROM campaign_jobs j WHERE j.campaign_id = $1 AND j.contact_id = c.id)
              ${one} ${inSegment}`;
      // An A/B test's first send freezes only its test share, drawn at random by the seed (an md5 of it and
      // the contact: the same seed and recipients give the same draw), the variants dealt in turn along the
      // draw so they differ by one recipient at most. The variant is written with the job, once.
      const chosen =
        variants === undefined
          ? `SELECT id, email, ord, NULL::int AS variant FROM (${eligible}) e`
          : 'variant' in variants
            ? `SELECT id, email, ord, $${params.push(variants.variant)}::int AS variant FROM (${eligible}) e`
            : `SELECT id, email, ord, ((draw - 1) % $${params.push(variants.split.variants)})::int AS variant
                 FROM (SELECT e.*, row_number() OVER (ORDER BY md5($${params.push(variants.split.seed)}::text || ':' || e.id), e.id) AS draw,
                              count(*) OVER () AS total
                         FROM (${eligible}) e) d
                WHERE draw <= ceil(total * $${params.push(variants.split.testShare)}::int / 100.0)`;
      const { rows } = await tx.query<{ count: number; firstId: number | null; lastId: number | null }>(
        `WITH created AS (
           INSERT INTO campaign_jobs (campaign_id, contact_id, email, variant)
           SELECT $1, id, email, variant FROM (${chosen}) s
            ORDER BY ord
           ON CONFLICT (campaign_id, contact_id) DO NOTHING
           RETURNING id)
         SELECT count(*)::int AS count, min(id) AS "firstId", max(id) AS "lastId" FROM created`,
        params,
      );
      return rows[0]!;
    },

    /** The template variants of an A/B test, with their templates' content now (to snapshot at the first send). */
    async variantTemplates(tx: Tx, campaignId: number): Promise<VariantTemplate[]> {
      const { rows } = await tx.query<VariantTemplate>(
        `SELECT v.position, t.html, t.plain_text AS "plainText"
           FROM campaign_variants v JOIN templates t ON t.id = v.template_id
          WHERE v.campaign_id = $1 ORDER BY v.position`,
        [campaignId],
      );
      return rows;
    },

    async saveVariantSnapshot(tx: Tx, campaignId: number, position: number, html: string, plainText: string | null): Promise<void> {
      await tx.query('UPDATE campaign_variants SET html = $3, plain_text = $4 WHERE campaign_id = $1 AND position = $2', [
        campaignId,
        position,
        html,
        plainText,
      ]);
    },

    /** The test phase is sent: its wait starts now. */
    async startAbTest(tx: Tx, campaignId: number): Promise<void> {
      await tx.query(
        `UPDATE campaign_ab_tests SET started_at = now(), ends_at = now() + wait_hours * interval '1 hour' WHERE campaign_id = $1`,
        [campaignId],
      );
    },

    /**
     * Records the winner of a test in its test phase; false when it was decided already (or never
     * started). In the transaction that creates the rest's jobs: the rest is sent once, or not at all.
     */
    async decideAbTest(
      tx: Tx,
      campaignId: number,
      decision: { winner: number; decidedBy: 'AUTOMATIC' | 'MEMBER'; verdict: unknown },
    ): Promise<boolean> {
      const { rowCount } = await tx.query(
        `UPDATE campaign_ab_tests SET winner = $2, decided_by = $3, verdict = $4, decided_at = now()
          WHERE campaign_id = $1 AND winner IS NULL AND started_at IS NOT NULL`,
        [campaignId, decision.winner, decision.decidedBy, JSON.stringify(decision.verdict)],
      );
      return rowCount === 1;
    },

    /**
     * Refreshes the planner's statistics of the jobs. Right after a large send created its jobs the
     * planner knows nothing of them, takes the (campaign, status) index for the claim and record
     * statements of the workers, and each of those then reads every queued job of the campaign
     * instead of its fifty rows by primary key (measured: 30 to 80 ms a statement at 100,000 jobs).
     */
    async analyzeJobs(): Promise<void> {
      await db.query('ANALYZE campaign_jobs');
    },

    /**
     * Puts FAILED jobs, or long-unconfirmed UNKNOWN ones, back in the queue; their ids and how many had FAILED.
     * A mail whose address was erased keeps only a hash of it: it is never queued again.
     */
    async requeue(tx: Tx, campaignId: number, requeue: Requeue): Promise<{ ids: number[]; failed: number }> {
      const [where, params] =
        requeue === 'failed'
          ? [`status = 'FAILED'`, [campaignId]]
          : 'jobId' in requeue
            ? [`status = 'FAILED' AND id = $2`, [campaignId, requeue.jobId]]
            : [
                `status = 'UNKNOWN' AND ses_message_id IS NULL AND claimed_at < now() - $2 * interval '1 millisecond'`,
                [campaignId, requeue.unconfirmedForMs],
              ];
      const { rows } = await tx.query<{ id: number }>(
        `UPDATE campaign_jobs SET status = 'QUEUED', error_message = NULL, claimed_at = NULL, claim_token = NULL, not_before = NULL, updated_at = now()
          WHERE campaign_id = $1 AND ${where} AND NOT ${erasedMail('email')}
          RETURNING id`,
        params,
      );
      const ids = rows.map((row) => row.id);
      return { ids, failed: requeue === 'failed' || 'jobId' in requeue ? ids.length : 0 };
    },

    /** UNKNOWN jobs of the campaign: all of them, and those unconfirmed for `unconfirmedForMs` (which a resend would take). */
    async unknownJobs(campaignId: number, unconfirmedForMs: number): Promise<{ unknown: number; unconfirmed: number }> {
      const { rows } = await db.query<{ unknown: number; unconfirmed: number }>(
        `SELECT count(*)::int AS unknown,
                count(*) FILTER (WHERE ses_message_id IS NULL AND claimed_at < now() - $2 * interval '1 millisecond')::int AS unconfirmed
           FROM campaign_jobs WHERE campaign_id = $1 AND status = 'UNKNOWN'`,
        [campaignId, unconfirmedForMs],
      );
      return rows[0] ?? { unknown: 0, unconfirmed: 0 };
    },

    async markSending(tx: Tx, campaignId: number, created: number, requeuedFailed: number): Promise<void> {
      await tx.query(
        `UPDATE campaigns SET status = 'SENDING', error_message = NULL, contact_count = contact_count + $2,
                jobs_failed = greatest(0, jobs_failed - $3), progress_at = now()
          WHERE id = $1`,
        [campaignId, created, requeuedFailed],
      );
    },

    /**
     * The campaign's jobs waiting to be sent (whose delay, if any, is over), in id order, a page of at
     * most ID_PAGE at a time (keyset from `afterId`); `upTo` ends the range.
     */
    async queuedJobIds(campaignId: number, afterId = 0, upTo?: number): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(
        `SELECT id FROM campaign_jobs
          WHERE campaign_id = $1 AND status = 'QUEUED' AND (not_before IS NULL OR not_before <= now())
            AND id > $2 ${upTo === undefined ? '' : 'AND id <= $4'}
          ORDER BY id
          LIMIT $3`,
        upTo === undefined ? [campaignId, afterId, ID_PAGE] : [campaignId, afterId, ID_PAGE, upTo],
      );
      return rows.map((row) => row.id);
    },

    /** How many of the campaign's jobs are waiting to be sent now (sizes the messages of a publish). */
    async countQueued(campaignId: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM campaign_jobs
          WHERE campaign_id = $1 AND status = 'QUEUED' AND (not_before IS NULL OR not_before <= now())`,
        [campaignId],
      );
      return rows[0]?.n ?? 0;
    },
  };
}

export type DispatchRepository = ReturnType<typeof dispatchRepository>;
