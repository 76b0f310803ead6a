import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApiError,
  expectBody,
  type Audience,
  type AudienceField,
  type CampaignListResponse,
  type Segment,
  type SegmentCount,
  type SegmentInput,
  type SegmentList,
} from '@mailroom/api-client';
import type { SegmentRule } from '@mailroom/api-client/segments';
import { useApiClient } from '@mailroom/mf-contract/react';
import { segmentKeys } from './keys';

/** The audience the segments are of. */
export function useSegmentsAudience(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.audience(audienceId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}', { params: { path: { id: audienceId } }, signal });
      return expectBody<Audience>(data);
    },
    enabled: audienceId > 0,
  });
}

/** The audience's fields, which a condition can compare by their type. */
export function useSegmentFields(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.fields(audienceId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/fields', { params: { path: { id: audienceId } }, signal });
      return expectBody<AudienceField[]>(data);
    },
    enabled: audienceId > 0,
  });
}

/** The audience's segments, by name. */
export function useSegments(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.list(audienceId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/segments', { params: { path: { id: audienceId } }, signal });
      return expectBody<SegmentList>(data).items;
    },
    enabled: audienceId > 0,
  });
}

export function useSegment(id: number | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.detail(id ?? 0),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/segments/{id}', { params: { path: { id: id! } }, signal });
      return expectBody<Segment>(data);
    },
    enabled: id !== null && id > 0,
  });
}

/** Makes a segment (no id) or changes one; a refusal (400 naming the condition, 409 name taken) is thrown. */
export function useSaveSegment(audienceId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: SegmentInput }) => {
      const { data } =
        id === undefined
          ? await client.POST('/api/audiences/{id}/segments', { params: { path: { id: audienceId } }, body: input })
          : await client.PUT('/api/segments/{id}', { params: { path: { id } }, body: input });
      return expectBody<Segment>(data);
    },
    onSuccess: (segment) => {
      queryClient.setQueryData(segmentKeys.detail(segment.id), segment);
      return queryClient.invalidateQueries({ queryKey: segmentKeys.list(audienceId) });
    },
  });
}

/** A campaign not sent yet that targets the segment: a deletion is refused (409) while there is one. */
export interface TargetingCampaign {
  id: number;
  name: string;
}

/** What a deletion answered: done, or refused because campaigns target the segment (their names when the API lists them). */
export type SegmentDeletion = { deleted: true } | { deleted: false; message: string; campaigns: TargetingCampaign[] };

function targetingCampaigns(body: unknown): TargetingCampaign[] {
  if (typeof body !== 'object' || body === null || !('campaigns' in body) || !Array.isArray(body.campaigns)) return [];
  return (body.campaigns as unknown[]).filter(
    (c): c is TargetingCampaign => typeof c === 'object' && c !== null && typeof (c as TargetingCampaign).name === 'string',
  );
}

export function useDeleteSegment(audienceId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number): Promise<SegmentDeletion> => {
      try {
        await client.DELETE('/api/segments/{id}', { params: { path: { id } } });
        return { deleted: true };
      } catch (error) {
        // 409: campaigns not sent yet target it; the member is shown which, nothing is deleted.
        if (error instanceof ApiError && error.status === 409)
          return { deleted: false, message: error.message, campaigns: targetingCampaigns(error.body) };
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: segmentKeys.list(audienceId) }),
  });
}

/**
 * How many contacts `rule` matches now. Keyed by the rule: while the next rule is counted the last count
 * stays shown (placeholder), and an answer to an older rule never replaces the newer one's. `rule` null: not
 * countable yet (a condition is unfinished).
 */
export function useSegmentCount(audienceId: number, rule: SegmentRule | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.count(audienceId, rule ?? { combinator: 'and', rules: [] }),
    queryFn: async ({ signal }) => {
      const { data } = await client.POST('/api/audiences/{id}/segment-count', {
        params: { path: { id: audienceId } },
        body: { rule: rule! },
        signal,
      });
      return expectBody<SegmentCount>(data).count;
    },
    enabled: audienceId > 0 && rule !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Ten matching contacts of `rule`, asked for when the member previews (null: no preview asked). */
export function useSegmentSample(audienceId: number, rule: SegmentRule | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.sample(audienceId, rule ?? { combinator: 'and', rules: [] }),
    queryFn: async ({ signal }) => {
      const { data } = await client.POST('/api/audiences/{id}/segment-count', {
        params: { path: { id: audienceId }, query: { sample: true } },
        body: { rule: rule! },
        signal,
      });
      return expectBody<SegmentCount>(data);
    },
    enabled: audienceId > 0 && rule !== null,
    retry: false,
  });
}

/** The campaigns a condition can name: the audience's, once sending started (read from the latest 1,000 campaigns). */
export function useSentCampaigns(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: segmentKeys.sentCampaigns(audienceId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/campaigns', { params: { query: { page: 1, limit: 1000 } }, signal });
      return expectBody<CampaignListResponse>(data)
        .data.items.filter((c) => c.audienceId === audienceId && (c.status === 'SENDING' || c.status === 'SENT'))
        .map((c) => ({ id: c.id, name: c.name }));
    },
    enabled: audienceId > 0,
  });
}
