/**
 * The statements of A/B tests (issue 28; migration 0036): a draft campaign's test and its variants
 * saved or removed, the test read with its variants, each variant's figures counted by people and by
 * machines as the report counts them, and the tests whose wait is over. What the send does with a test
 * (the split frozen with the jobs, the winner sent to the rest) is the dispatch's
 * (services/sending/dispatch-repository.ts).
 */
import type { Schemas } from '@mailroom/api-client';
import type { Database, Sql, Tx } from '../../db/database.js';
import { PEOPLE_AND_MACHINES, SENT } from '../reports/outcome-repository.js';
import { VARIANT_LINK_POSITIONS } from '../sending/dispatch-repository.js';
import type { AbTestMeasure, AbTestVerdict, VariantFigures } from './ab-test-verdict.js';

export type AbTestInput = Schemas['AbTestInput'];
export type AbTestVariant = Schemas['AbTestVariant'];
type CampaignLink = Schemas['CampaignLink'];

export interface AbTestRow {
  testShare: number;
  waitHours: number;
  measure: AbTestMeasure;
  defaultVariant: number;
  seed: number;
  startedAt: Date | null;
  endsAt: Date | null;
  winner: number | null;
  decidedAt: Date | null;
  decidedBy: 'AUTOMATIC' | 'MEMBER' | null;
  verdict: AbTestVerdict | null;
  variants: AbTestVariant[];
}

export function abTestRepository(db: Database) {
  return {
    /** The campaign's test with its variants in order; undefined when it has none. */
    async find(campaignId: number, sql: Sql = db): Promise<AbTestRow | undefined> {
      const { rows } = await sql.query<AbTestRow>(
        `SELECT t.test_share AS "testShare", t.wait_hours AS "waitHours", t.measure, t.default_variant AS "defaultVariant", t.seed,
                t.started_at AS "startedAt", t.ends_at AS "endsAt", t.winner, t.decided_at AS "decidedAt", t.decided_by AS "decidedBy",
                t.verdict,
                (SELECT coalesce(jsonb_agg(jsonb_build_object('subject', v.subject, 'previewText', v.preview_text, 'fromName', v.from_name,
                                                              'templateId', v.template_id, 'templateName', tp.name) ORDER BY v.position), '[]')
                   FROM campaign_variants v LEFT JOIN templates tp ON tp.id = v.template_id
                  WHERE v.campaign_id = t.campaign_id) AS variants
           FROM campaign_ab_tests t WHERE t.campaign_id = $1`,
        [campaignId],
      );
      return rows[0];
    },

    /**
     * Makes or replaces the test of a draft campaign (the caller holds its row). The seed is drawn once,
     * when the test is first made, and kept by later saves: the same seed gives the same split.
     */
    async save(tx: Tx, campaignId: number, input: AbTestInput, seed: number): Promise<void> {
      await tx.query(
        `INSERT INTO campaign_ab_tests (campaign_id, test_share, wait_hours, measure, default_variant, seed)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (campaign_id) DO UPDATE
           SET test_share = excluded.test_share, wait_hours = excluded.wait_hours, measure = excluded.measure,
               default_variant = excluded.default_variant`,
        [campaignId, input.testShare, input.waitHours, input.measure, input.defaultVariant, seed],
      );
      await tx.query('DELETE FROM campaign_variants WHERE campaign_id = $1', [campaignId]);
      await tx.query(
        `INSERT INTO campaign_variants (campaign_id, position, subject, preview_text, from_name, template_id)
         SELECT $1, v.position - 1, v.subject, v.preview_text, v.from_name, v.template_id
           FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY AS v(subject, preview_text, from_name, template_id, position)`,
        [
          campaignId,
          input.variants.map((v) => v.subject ?? null),
          input.variants.map((v) => v.previewText ?? null),
          input.variants.map((v) => v.fromName ?? null),
          input.variants.map((v) => v.templateId ?? null),
        ],
      );
    },

    /**
     * A copy's test (the campaigns' replicate): the source's variants, share, wait, measure and default, as a
     * draft's. Nothing of its send comes along (start, end, winner, verdict, the template variants' snapshots),
     * and the copy draws a seed of its own, as any new test does. No test, nothing copied.
     */
    async copy(tx: Tx, fromCampaignId: number, toCampaignId: number, seed: number): Promise<void> {
      const { rowCount } = await tx.query(
        `INSERT INTO campaign_ab_tests (campaign_id, test_share, wait_hours, measure, default_variant, seed)
         SELECT $2, test_share, wait_hours, measure, default_variant, $3 FROM campaign_ab_tests WHERE campaign_id = $1`,
        [fromCampaignId, toCampaignId, seed],
      );
      if (rowCount === 0) return;
      await tx.query(
        `INSERT INTO campaign_variants (campaign_id, position, subject, preview_text, from_name, template_id)
         SELECT $2, position, subject, preview_text, from_name, template_id FROM campaign_variants WHERE campaign_id = $1`,
        [fromCampaignId, toCampaignId],
      );
    },

    async remove(tx: Tx, campaignId: number): Promise<void> {
      await tx.query('DELETE FROM campaign_ab_tests WHERE campaign_id = $1', [campaignId]);
    },

    /** Which of `ids` name no template. */
    async missingTemplates(ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<{ id: number }>(
        'SELECT i.id FROM unnest($1::bigint[]) AS i(id) WHERE NOT EXISTS (SELECT 1 FROM templates t WHERE t.id = i.id)',
        [ids],
      );
      return rows.map((row) => row.id);
    },

    /**
     * Each variant's figures (every variant of the test, one with no job yet at 0), people and machines
     * apart by the report's own sums over the per-job verdicts. Reads the campaign's jobs by its index;
     * the test share is at most half of them.
     */
    async figures(campaignId: number, variants: number, sql: Sql = db): Promise<VariantFigures[]> {
      const { rows } = await sql.query<VariantFigures>(
        `SELECT v.variant, coalesce(f.recipients, 0)::int AS recipients, coalesce(f.sent, 0)::int AS sent,
                coalesce(f."openedHuman", 0)::int AS "openedHuman", coalesce(f."openedMachine", 0)::int AS "openedMachine",
                coalesce(f."clickedHuman", 0)::int AS "clickedHuman", coalesce(f."clickedMachine", 0)::int AS "clickedMachine"
           FROM generate_series(0, $2 - 1) AS v(variant)
           LEFT JOIN (
             SELECT variant, sum(jobs) AS recipients, coalesce(sum(jobs) FILTER (WHERE ${SENT}), 0) AS sent, ${PEOPLE_AND_MACHINES}
               FROM (SELECT j.variant, 1 AS jobs, j.status, j.opened_at IS NOT NULL AS opened, j.clicked_at IS NOT NULL AS clicked,
                            j.human_opened_at IS NOT NULL AS human_opened, j.human_clicked_at IS NOT NULL AS human_clicked
                       FROM campaign_jobs j WHERE j.campaign_id = $1 AND j.variant IS NOT NULL) k
              GROUP BY variant) f ON f.variant = v.variant
          ORDER BY v.variant`,
        [campaignId, variants],
      );
      return rows;
    },

    /**
     * One variant's click map (getAbTestVariantClicks): the links of the mail its recipients got, a template
     * variant's own range of positions or else the campaign's, and that mail's html as sent. The counts are
     * the kept ones when no other variant shares those links (a template variant's range is its own); when
     * variants share the campaign's links, this variant's are counted from the hits of its own jobs, found
     * through the hits' link index (one variant's clicks, never a scan of the campaign's jobs).
     */
    async variantClicks(campaignId: number, variant: number): Promise<{ html: string | null; links: CampaignLink[] } | undefined> {
      const { rows } = await db.query<{ ownTemplate: boolean; html: string | null; shared: boolean }>(
        `SELECT v.html IS NOT NULL OR v.template_id IS NOT NULL AS "ownTemplate",
                CASE WHEN v.html IS NOT NULL OR v.template_id IS NOT NULL THEN v.html ELSE c.html END AS html,
                (SELECT count(*) FROM campaign_variants o
                  WHERE o.campaign_id = v.campaign_id AND o.html IS NULL AND o.template_id IS NULL) > 1 AS shared
           FROM campaign_variants v JOIN campaigns c ON c.id = v.campaign_id
          WHERE v.campaign_id = $1 AND v.position = $2`,
        [campaignId, variant],
      );
      const found = rows[0];
      if (!found) return undefined;
      const from = found.ownTemplate ? (variant + 1) * VARIANT_LINK_POSITIONS : 0;
      const range = [campaignId, from, from + VARIANT_LINK_POSITIONS];
      const links =
        found.ownTemplate || !found.shared
          ? await db.query<CampaignLink>(
              `SELECT l.id, l.href, l.clicks, l.unique_clicks AS "uniqueClicks", coalesce(k.human_clicks, 0) AS "humanClicks",
                      coalesce(k.human_unique_clicks, 0) AS "humanUniqueClicks"
                 FROM campaign_links l LEFT JOIN campaign_link_counts k ON k.link_id = l.id
                WHERE l.campaign_id = $1 AND NOT l.hidden AND l.position >= $2 AND l.position < $3 ORDER BY l.position`,
              range,
            )
          : await db.query<CampaignLink>(
              `SELECT l.id, l.href, count(e.id)::int AS clicks, count(DISTINCT e.job_id)::int AS "uniqueClicks",
                      count(e.id) FILTER (WHERE NOT e.machine)::int AS "humanClicks",
                      count(DISTINCT e.job_id) FILTER (WHERE NOT e.machine)::int AS "humanUniqueClicks"
                 FROM campaign_links l
                 LEFT JOIN (tracking_events e JOIN campaign_jobs j ON j.id = e.job_id AND j.variant = $4)
                        ON e.link_id = l.id AND e.kind = 'CLICK'
                WHERE l.campaign_id = $1 AND NOT l.hidden AND l.position >= $2 AND l.position < $3
                GROUP BY l.id ORDER BY l.position`,
              [...range, variant],
            );
      return { html: found.html, links: links.rows };
    },

    /** Campaigns whose test wait is over, not decided, and still SENDING (a stopped one waits for its continue). */
    async dueCampaignIds(): Promise<number[]> {
      const { rows } = await db.query<{ id: number }>(
        `SELECT t.campaign_id AS id FROM campaign_ab_tests t JOIN campaigns c ON c.id = t.campaign_id
          WHERE t.winner IS NULL AND t.ends_at IS NOT NULL AND t.ends_at <= now() AND c.status = 'SENDING'
          ORDER BY t.ends_at`,
      );
      return rows.map((row) => row.id);
    },
  };
}

export type AbTestRepository = ReturnType<typeof abTestRepository>;
