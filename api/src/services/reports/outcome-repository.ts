/**
 * The statements of the report's overview, timeline and deliverability by domain (an addition to the
 * spec). Each reads the aggregates of migration 0016 and the counts of 0006/0010, kept by triggers
 * as jobs move and hits arrive, never the jobs or the hits themselves: the overview is a sum over at
 * most a few hundred count rows, the timeline one row per hour with any activity, the domains one
 * row per recipient domain of the campaign.
 */
import type { ReportOverview } from '@mailroom/api-client';
import type { Sql } from '../../db/database.js';
import type { DomainCounts, HourCounts } from './outcome.js';

/** How many domains the table names by mails sent (the organisation's own comes on top of them). */
export const TOP_DOMAINS = 5;

export const SENT = `status IN ('SENT_WAIT_ACK', 'SENT_SUCCESS')`;

/**
 * The report's opens and clicks by people and by machines, summed over rows of `jobs` jobs each with
 * the per-job verdicts `opened`, `clicked`, `human_opened` and `human_clicked` (campaign_job_counts'
 * columns; the tracking recorder decides them, services/tracking/classify.ts). An A/B test's winner is
 * judged on these same figures (services/campaigns/ab-test-repository.ts).
 */
export const PEOPLE_AND_MACHINES = `coalesce(sum(jobs) FILTER (WHERE human_opened), 0)::bigint AS "openedHuman",
                       coalesce(sum(jobs) FILTER (WHERE opened AND NOT human_opened), 0)::bigint AS "openedMachine",
                       coalesce(sum(jobs) FILTER (WHERE human_clicked), 0)::bigint AS "clickedHuman",
                       coalesce(sum(jobs) FILTER (WHERE clicked AND NOT human_clicked), 0)::bigint AS "clickedMachine"`;

export function outcomeRepository(db: Sql) {
  return {
    /** The campaign's figures; undefined when there is no such campaign. */
    async overview(campaignId: number, sql: Sql = db): Promise<ReportOverview | undefined> {
      const { rows } = await sql.query<Omit<ReportOverview, 'sendingStartedAt'> & { sendingStartedAt: Date | null }>(
        `SELECT k.*, d.complaints, u.unsubscribed, c.contact_count AS "totalContactsCount", c.delivery_date AS "sendingStartedAt"
           FROM campaigns c
          CROSS JOIN LATERAL (
                SELECT coalesce(sum(jobs) FILTER (WHERE ${SENT}), 0)::bigint AS sent,
                       coalesce(sum(jobs) FILTER (WHERE status = 'SENT_SUCCESS'), 0)::bigint AS delivered,
                       coalesce(sum(jobs) FILTER (WHERE bounce_type = 'HARD'), 0)::bigint AS "bouncedHard",
                       coalesce(sum(jobs) FILTER (WHERE bounce_type = 'SOFT'), 0)::bigint AS "bouncedSoft",
                       ${PEOPLE_AND_MACHINES},
                       coalesce(sum(jobs) FILTER (WHERE status = 'FAILED'), 0)::bigint AS failed,
                       coalesce(sum(jobs) FILTER (WHERE status = 'UNKNOWN'), 0)::bigint AS unknown
                  FROM campaign_job_counts WHERE campaign_id = c.id) k
          CROSS JOIN LATERAL (SELECT coalesce(sum(complaints), 0)::bigint AS complaints FROM campaign_domain_counts WHERE campaign_id = c.id) d
          -- An erased person's unsubscribe still counts (migration 0022): its row keeps the reason it had.
          CROSS JOIN LATERAL (SELECT count(*) AS unsubscribed FROM suppressions
                               WHERE campaign_id = c.id AND (reason = 'UNSUBSCRIBE' OR reason_before_erasure = 'UNSUBSCRIBE')) u
          WHERE c.id = $1`,
        [campaignId],
      );
      const row = rows[0];
      return row && { ...row, sendingStartedAt: row.sendingStartedAt?.toISOString() ?? null };
    },

    /** When sending started (null before) and the campaign's hourly counts; undefined when there is no such campaign. */
    async hours(campaignId: number, sql: Sql = db): Promise<{ sendingStartedAt: Date | null; hours: HourCounts[] } | undefined> {
      const { rows: campaign } = await sql.query<{ sendingStartedAt: Date | null }>(
        'SELECT delivery_date AS "sendingStartedAt" FROM campaigns WHERE id = $1',
        [campaignId],
      );
      if (!campaign[0]) return undefined;
      const { rows } = await sql.query<HourCounts>(
        `SELECT hour, sent, opens_human AS "opensHuman", opens_machine AS "opensMachine", clicks_human AS "clicksHuman",
                clicks_machine AS "clicksMachine"
           FROM campaign_hourly_counts WHERE campaign_id = $1 ORDER BY hour`,
        [campaignId],
      );
      return { sendingStartedAt: campaign[0].sendingStartedAt, hours: rows };
    },

    /**
     * The TOP_DOMAINS domains by mails sent (ties by name), the organisation's own domain if the
     * campaign mailed it, and every other domain summed as one group (domain null), if any; together
     * they are the whole campaign. Undefined when there is no such campaign.
     */
    async domains(campaignId: number, orgDomain: string | undefined, sql: Sql = db): Promise<DomainCounts[] | undefined> {
      const { rows } = await sql.query<DomainCounts & { exists: boolean }>(
        `SELECT true AS exists, g.* FROM campaigns c
           LEFT JOIN LATERAL (
                SELECT CASE WHEN rank <= $2 OR domain = $3 THEN domain END AS domain,
                       sum(sent)::bigint AS sent, sum(delivered)::bigint AS delivered, sum(bounced_hard)::bigint AS "bouncedHard",
                       sum(bounced_soft)::bigint AS "bouncedSoft", sum(complaints)::bigint AS complaints,
                       sum(opened_human)::bigint AS "openedHuman", sum(clicked_human)::bigint AS "clickedHuman",
                       sum(limit_waits)::bigint AS "limitWaits", sum(deferrals)::bigint AS deferrals,
                       sum(ses_throttles)::bigint AS "sesThrottles"
                  FROM (SELECT *, row_number() OVER (ORDER BY sent DESC, domain) AS rank
                          FROM (SELECT coalesce(n.domain, w.domain) AS domain, coalesce(n.sent, 0) AS sent,
                                       coalesce(n.delivered, 0) AS delivered, coalesce(n.bounced_hard, 0) AS bounced_hard,
                                       coalesce(n.bounced_soft, 0) AS bounced_soft, coalesce(n.complaints, 0) AS complaints,
                                       coalesce(n.opened_human, 0) AS opened_human, coalesce(n.clicked_human, 0) AS clicked_human,
                                       coalesce(w.limit_waits, 0) AS limit_waits, coalesce(w.deferrals, 0) AS deferrals,
                                       coalesce(w.ses_throttles, 0) AS ses_throttles
                                  FROM (SELECT * FROM campaign_domain_counts WHERE campaign_id = c.id) n
                                  -- A domain held back by its limit may have had no mail sent yet: it shows all the same.
                                  FULL JOIN (SELECT * FROM campaign_domain_throttles WHERE campaign_id = c.id) w ON w.domain = n.domain) j
                         WHERE (sent, delivered, bounced_hard, bounced_soft, complaints, opened_human, clicked_human,
                                limit_waits, deferrals, ses_throttles)
                               <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) d
                 GROUP BY 1) g ON true
          WHERE c.id = $1`,
        [campaignId, TOP_DOMAINS, orgDomain ?? null],
      );
      if (rows.length === 0) return undefined;
      return rows.filter((row) => row.sent !== null).map(({ exists: _, ...group }) => group);
    },
  };
}

export type OutcomeRepository = ReturnType<typeof outcomeRepository>;
