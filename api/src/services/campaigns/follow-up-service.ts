/**
 * Follow-ups (an addition to the spec; docs/decisions/sending.md, Follow-ups): a DRAFT copy of a
 * SENT campaign for its contacts who did not open it, or did not click, by people (suppressed ones
 * left out), frozen when it is made. Its send, like every send, is Send's (campaign-service.ts).
 */
import type { Contact } from '@mailroom/api-client';
import type { Database } from '../../db/database.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { toPage, type Page, type PageQuery } from '../paging.js';
import type { SegmentService } from '../segments/segment-service.js';
import type { SegmentRule } from '../segments/rule.js';
import { followUpRepository } from './follow-up-repository.js';
import { campaignRepository, type Campaign, type FollowUpRecipients } from './repository.js';
import { CAMPAIGN_NOT_FOUND, campaignOrThrow, derivedName } from './rules.js';

export const ONLY_SENT_FOLLOWED_UP = 'Only a sent campaign can be followed up.';
export const NOT_A_FOLLOW_UP = 'This campaign is not a follow-up.';
const FOLLOW_UP_SUFFIX = ' (follow-up)';

/** The segment written for a follow-up's recipients, named after the campaign it follows. */
const SEGMENT_SUFFIX: Record<FollowUpRecipients, string> = { NOT_OPENED: ' – not opened', NOT_CLICKED: ' – not clicked' };

/**
 * Whom a follow-up goes to, as a segment's rule (issue 26): received the original, and did not open it (or click
 * in it) as a person. The follow-up's recipients stay frozen as well; its send reaches those of them the rule
 * still matches, which are the frozen ones the original did not reach since.
 */
export const followUpRule = (sourceId: number, recipients: FollowUpRecipients): SegmentRule => ({
  combinator: 'and',
  rules: [
    { field: 'campaign.received', operator: 'is', value: sourceId },
    { field: recipients === 'NOT_CLICKED' ? 'campaign.clicked' : 'campaign.opened', operator: 'isNot', value: sourceId },
  ],
});

export function createFollowUpService({ db, segments }: { db: Database; segments: SegmentService }) {
  const repo = campaignRepository(db);
  const followUps = followUpRepository(db);

  /** The follow-up part of a campaign; not-found when the campaign is none or no follow-up. */
  const followUpOrThrow = async (id: number) => {
    const { followUp } = await campaignOrThrow(repo, id);
    if (!followUp) throw new DomainError('not-found', NOT_A_FOLLOW_UP);
    return followUp;
  };

  return {
    /**
     * A DRAFT copy of a SENT campaign for its contacts who did not open it, or did not click, by
     * people (suppressed ones left out), frozen now: see the contract's followUpCampaign.
     */
    async followUp(id: number, recipients: FollowUpRecipients, actor: Actor): Promise<{ campaign: Campaign; created: boolean }> {
      const source = await campaignOrThrow(repo, id);
      const name = derivedName(source.name, FOLLOW_UP_SUFFIX);
      return db.transaction(async (tx) => {
        const made = await followUps.insertFollowUp(tx, id, { name, recipients, updatedByEmail: actor.email });
        if (made === 'not-found') throw new DomainError('not-found', CAMPAIGN_NOT_FOUND);
        if (made === 'not-sent') throw new DomainError('conflict', ONLY_SENT_FOLLOWED_UP);
        // A repeated request (a double click, a colleague at the same time) answers the follow-up not sent yet.
        if (!made.existing) {
          // The dialog stays as it is; what it chose becomes a segment the member can read, reuse and edit.
          const segment =
            source.audienceId === null
              ? undefined
              : await segments.writeFor(
                  tx,
                  source.audienceId,
                  `${source.name}${SEGMENT_SUFFIX[recipients]}`,
                  followUpRule(id, recipients),
                  actor,
                );
          if (segment) await repo.setSegment(tx, made.id, segment.id);
          await recordActivity(tx, {
            actor,
            kind: 'follow-up',
            object: { type: 'campaign', id: made.id, name },
            details: { of: id, recipients, ...(segment ? { segmentId: segment.id, segmentName: segment.name } : {}) },
          });
        }
        return { campaign: await campaignOrThrow(repo, made.id, tx), created: !made.existing };
      });
    },

    /** How many of a follow-up's recipients its original reached since they were frozen: its send leaves them out. */
    async reachedRecipients(id: number): Promise<{ reachedRecipients: number }> {
      await followUpOrThrow(id);
      return { reachedRecipients: await followUps.countReachedRecipients(id) };
    },

    /** A page of a follow-up's frozen recipients (its preview's contacts). */
    async recipients(id: number, query: PageQuery): Promise<Page<Contact>> {
      const followUp = await followUpOrThrow(id);
      return toPage(await followUps.followUpRecipients(id, query), followUp.recipientCount, query);
    },
  };
}

export type FollowUpService = ReturnType<typeof createFollowUpService>;
