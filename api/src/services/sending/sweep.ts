/**
 * The sweep of sending, periodic in every worker (workers/campaigns.ts). See sending-service.ts for
 * the whole protocol:
 *  - jobs whose claim had no heartbeat for the stale time (their worker died mid-send) become
 *    UNKNOWN and are never resent by themselves;
 *  - queued jobs of a campaign idle for that long are published again (their message was lost), and
 *    those of a campaign whose pause (daily quota, warm-up) is over (it resumes by itself);
 *  - jobs released for their capped domain that nobody claimed (their worker died) go back in their
 *    domain's line, and jobs held for a domain no limit caps any more are published;
 *  - finished campaigns become SENT.
 */
import type { SendingSettings } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { claimRepository } from './claim-repository.js';
import { DOMAIN_RELEASE_LOST_MS, heartbeatMs } from './consumer.js';
import { domainLimiter } from './domain-limits.js';
import type { Producer } from './producer.js';

export const STALE_SEND = 'The worker stopped while sending this email; it may or may not have gone out.';

export interface SweepDeps {
  db: Database;
  producer: Pick<Producer, 'publishQueued'>;
  settings: SendingSettings;
  logger: Logger;
  /** The clock a warm-up pause's end is compared with (the limiter's); default: the database's. */
  now?: (() => number) | undefined;
}

export function createSweep({ db, producer, settings, logger, now }: SweepDeps) {
  const repo = claimRepository(db);
  const beatEveryMs = heartbeatMs(settings);
  const domainLimit = domainLimiter(settings.domainLimits);

  return async function sweep(): Promise<{ unknown: number; republished: number; finished: number }> {
    // Just after this process found the database gone, the living workers get two heartbeats'
    // time to write theirs (and what they held) before any claim is judged abandoned.
    const settled = db.msSinceUnavailable() > 2 * beatEveryMs;
    const unknown = settled ? await repo.markStaleUnknown(settings.staleAfterMs, STALE_SEND) : 0;
    if (unknown > 0) logger.warn({ jobs: unknown }, 'jobs left sending by a stopped worker are now UNKNOWN');
    let republished = 0;
    for (const campaignId of await repo.takeIdleCampaigns(settings.staleAfterMs)) republished += await producer.publishQueued(campaignId);
    if (republished > 0) logger.warn({ jobs: republished }, 'queued jobs of idle campaigns published again');
    const lost = await repo.putBackLostReleases(DOMAIN_RELEASE_LOST_MS);
    if (lost > 0) logger.warn({ jobs: lost }, "released jobs nobody claimed are back in their domain's line");
    const uncapped = (await repo.heldDomains()).filter((domain) => domainLimit(domain) === undefined);
    for (const campaignId of await repo.freeHeld(uncapped)) republished += await producer.publishQueued(campaignId);
    for (const campaignId of await repo.takeResumedCampaigns(now ? new Date(now()) : undefined)) {
      const resumed = await producer.publishQueued(campaignId);
      logger.info({ campaignId, jobs: resumed }, 'campaign resumed after its pause (daily quota or warm-up)');
      republished += resumed;
    }
    await repo.pruneSendMinutes();
    let finished = 0;
    for (const campaignId of await repo.sendingCampaignIds()) if (await repo.finishIfDone(campaignId)) finished++;
    return { unknown, republished, finished };
  };
}
