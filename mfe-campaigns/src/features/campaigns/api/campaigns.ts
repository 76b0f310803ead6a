import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody } from '@mailroom/api-client';
import { STATUS_REFRESH_MS, statusMayChange } from '@mailroom/api-client/labels';
import { useApiClient } from '@mailroom/mf-contract/react';
import { SENDS_MAIL } from '@mailroom/mf-contract';
import { campaignKeys, type CampaignListParams } from './keys';

/** The name a new campaign gets (docs/product.md, Limits and constants). */
export const NEW_CAMPAIGN_NAME = 'My Campaign';

/** A page of campaigns; read again while one on it is scheduled or sending (its status changes by itself). */
export function useCampaigns(params: CampaignListParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: campaignKeys.list(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/campaigns', {
        params: {
          query: {
            page: params.page,
            limit: params.limit,
            ...(params.name ? { name: params.name } : {}),
            ...(params.awaiting ? { status: 'AWAITING_APPROVAL' as const } : {}),
          },
        },
        signal,
      });
      return expectBody(data).data;
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((campaign) => statusMayChange(campaign.status)) ? STATUS_REFRESH_MS : false),
  });
}

/** After a change, every page of the list is read again. */
export function useInvalidateLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
}

export function useCreateCampaign() {
  const client = useApiClient();
  const invalidateLists = useInvalidateLists();
  return useMutation({
    mutationFn: async () => {
      const { data } = await client.POST('/api/campaigns', { body: { name: NEW_CAMPAIGN_NAME } });
      return expectBody(data).id;
    },
    onSuccess: invalidateLists,
  });
}

export function useRenameCampaign() {
  const client = useApiClient();
  const invalidateLists = useInvalidateLists();
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string }) => {
      const { data } = await client.PUT('/api/campaigns/{id}', { params: { path: { id } }, body: { name } });
      return expectBody(data);
    },
    onSuccess: invalidateLists,
  });
}

/** Copies a campaign as a new draft; answers the copy's id. */
export function useReplicateCampaign() {
  const client = useApiClient();
  const invalidateLists = useInvalidateLists();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await client.POST('/api/campaigns/{id}/replicate', { params: { path: { id } } });
      return expectBody(data).id;
    },
    onSuccess: invalidateLists,
  });
}

export function useDeleteCampaign() {
  const client = useApiClient();
  const invalidateLists = useInvalidateLists();
  return useMutation({
    mutationFn: async (id: number) => {
      await client.DELETE('/api/campaigns/{id}', { params: { path: { id } } });
    },
    onSuccess: invalidateLists,
  });
}

/** Continues a campaign in ERROR with the contacts not yet sent to. One hook per campaign row. */
export function useContinueCampaign(id: number) {
  const client = useApiClient();
  const invalidateLists = useInvalidateLists();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async () => {
      const { data } = await client.POST('/api/campaigns/{id}/continue', { params: { path: { id } } });
      return expectBody(data);
    },
    onSuccess: invalidateLists,
  });
}

/** Stops a sending campaign (one paused at the daily quota): it becomes ERROR, and continue sends the rest. */
export function useStopCampaign(id: number) {
  const client = useApiClient();
  const invalidateLists = useInvalidateLists();
  return useMutation({
    mutationFn: async () => {
      const { data } = await client.POST('/api/campaigns/{id}/stop', { params: { path: { id } } });
      return expectBody(data);
    },
    onSuccess: invalidateLists,
  });
}
