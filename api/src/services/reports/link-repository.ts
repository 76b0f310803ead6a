/** The click map's links of a campaign's report, with their click counts. */
import type { CampaignLink } from '@mailroom/api-client';
import type { Sql } from '../../db/database.js';
import { VARIANT_LINK_POSITIONS } from '../sending/dispatch-repository.js';

export function linkRepository(db: Sql) {
  return {
    /**
     * The campaign's links in the order of the html (the hidden link is no link of the spec's), with
     * people's clicks beside the spec's counts (an addition; kept by migration 0020's triggers). An A/B
     * test's template variants keep theirs in ranges of their own, read apart (ab-test-repository.ts).
     */
    async ofCampaign(campaignId: number): Promise<CampaignLink[]> {
      const { rows } = await db.query<CampaignLink>(
        `SELECT l.id, l.href, l.clicks, l.unique_clicks AS "uniqueClicks", coalesce(k.human_clicks, 0) AS "humanClicks",
                coalesce(k.human_unique_clicks, 0) AS "humanUniqueClicks"
           FROM campaign_links l LEFT JOIN campaign_link_counts k ON k.link_id = l.id
          WHERE l.campaign_id = $1 AND NOT l.hidden AND l.position < $2 ORDER BY l.position`,
        [campaignId, VARIANT_LINK_POSITIONS],
      );
      return rows;
    },
  };
}

export type LinkRepository = ReturnType<typeof linkRepository>;
