import type { SegmentRule } from '@mailroom/api-client/segments';

/**
 * The segments feature's query keys. A count is keyed by the rule it counted, so an answer to an older rule
 * lands under its own key and is never shown for the rule being edited.
 */
export const segmentKeys = {
  all: ['segments'] as const,
  list: (audienceId: number) => [...segmentKeys.all, 'list', audienceId] as const,
  detail: (id: number) => [...segmentKeys.all, 'detail', id] as const,
  count: (audienceId: number, rule: SegmentRule) => [...segmentKeys.all, 'count', audienceId, rule] as const,
  sample: (audienceId: number, rule: SegmentRule) => [...segmentKeys.all, 'sample', audienceId, rule] as const,
  audience: (audienceId: number) => [...segmentKeys.all, 'audience', audienceId] as const,
  fields: (audienceId: number) => [...segmentKeys.all, 'fields', audienceId] as const,
  sentCampaigns: (audienceId: number) => [...segmentKeys.all, 'sent-campaigns', audienceId] as const,
};
