import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  expectBody,
  type Audience,
  type Campaign,
  type ReachedRecipients,
  type Segment,
  type SegmentCount,
  type SuppressedContacts,
  type TestEmail,
} from '@mailroom/api-client';
import { STATUS_REFRESH_MS, statusMayChange } from '@mailroom/api-client/labels';
import { useApiClient } from '@mailroom/mf-contract/react';
import { SENDS_MAIL } from '@mailroom/mf-contract';
import { useCallback } from 'react';
import type { CampaignUpdateInput } from '../utils/draft';
import { editorKeys } from './keys';

/** The campaign being edited; read again while scheduled or sending, so the editor leaves those states when it does. */
export function useCampaign(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.campaign(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/campaigns/{id}', { params: { path: { id } }, signal });
      return expectBody<Campaign>(data);
    },
    enabled: id > 0,
    refetchInterval: (query) => (query.state.data && statusMayChange(query.state.data.status) ? STATUS_REFRESH_MS : false),
  });
}

/** Saves every field of the draft (Finish later, and the first step of Send). */
export function useSaveCampaign(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CampaignUpdateInput) => {
      const { data } = await client.PUT('/api/campaigns/{id}', { params: { path: { id } }, body: input });
      return expectBody<Campaign>(data);
    },
    onSuccess: (campaign) => queryClient.setQueryData(editorKeys.campaign(id), campaign),
  });
}

export function useSendCampaign(id: number) {
  const client = useApiClient();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async () => {
      const { data } = await client.POST('/api/campaigns/{id}/send', { params: { path: { id } } });
      return expectBody(data);
    },
  });
}

/** Schedules the saved draft for `at` (an addition to the spec); the answer is the SCHEDULED campaign. */
export function useScheduleCampaign(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (at: Date) => {
      const { data } = await client.POST('/api/campaigns/{id}/schedule', { params: { path: { id } }, body: { at: at.toISOString() } });
      return expectBody<Campaign>(data);
    },
    onSuccess: (campaign) => queryClient.setQueryData(editorKeys.campaign(id), campaign),
  });
}

/** Cancels the schedule: the campaign is a DRAFT again, and the editor editable. */
export function useUnscheduleCampaign(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await client.POST('/api/campaigns/{id}/unschedule', { params: { path: { id } } });
      return expectBody<Campaign>(data);
    },
    onSuccess: (campaign) => queryClient.setQueryData(editorKeys.campaign(id), campaign),
    // Refused (it started meanwhile, or is gone): the page shows what the campaign is now.
    onError: () => queryClient.invalidateQueries({ queryKey: editorKeys.campaign(id) }),
  });
}

/**
 * Send approval (issue 27): asks another member to approve a send now, or a schedule at `at`; the answer is the
 * campaign, AWAITING_APPROVAL and read-only.
 */
export function useRequestApproval(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (at: Date | undefined) => {
      const { data } = await client.POST('/api/campaigns/{id}/approval-request', {
        params: { path: { id } },
        body: at ? { at: at.toISOString() } : {},
      });
      return expectBody<Campaign>(data);
    },
    onSuccess: (campaign) => queryClient.setQueryData(editorKeys.campaign(id), campaign),
  });
}

/** Withdraws the waiting request: a DRAFT again, and the editor editable. */
export function useWithdrawApproval(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await client.DELETE('/api/campaigns/{id}/approval-request', { params: { path: { id } } });
      return expectBody<Campaign>(data);
    },
    onSuccess: (campaign) => queryClient.setQueryData(editorKeys.campaign(id), campaign),
    onError: () => queryClient.invalidateQueries({ queryKey: editorKeys.campaign(id) }),
  });
}

/** Another member approves: the campaign is sent, or scheduled, as the request asked. */
export function useApproveCampaign(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async () => {
      const { data } = await client.POST('/api/campaigns/{id}/approve', { params: { path: { id } } });
      return expectBody(data);
    },
    onError: () => queryClient.invalidateQueries({ queryKey: editorKeys.campaign(id) }),
  });
}

/** Another member declines with a reason: the campaign is a DRAFT again, and its requester is told. */
export function useDeclineCampaign(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (reason: string) => {
      const { data } = await client.POST('/api/campaigns/{id}/decline', { params: { path: { id } }, body: { reason } });
      return expectBody<Campaign>(data);
    },
    onSuccess: (campaign) => queryClient.setQueryData(editorKeys.campaign(id), campaign),
    onError: () => queryClient.invalidateQueries({ queryKey: editorKeys.campaign(id) }),
  });
}

/** The sender addresses the organisation authorized (the From email is chosen among them). */
export function useAuthorizedSenders() {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.senders(),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/campaigns/authorized-sent-emails', { signal });
      return expectBody<string[]>(data);
    },
    staleTime: 5 * 60 * 1000,
  });
}

/** Reads the audience afresh when Send is pressed: its invalid contacts may have changed since it was picked. */
export function useFetchAudience() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useCallback(
    (id: number) =>
      queryClient.fetchQuery({
        queryKey: editorKeys.audience(id),
        queryFn: async ({ signal }) => {
          const { data } = await client.GET('/api/audiences/{id}', { params: { path: { id } }, signal });
          return expectBody<Audience>(data);
        },
        staleTime: 0,
      }),
    [client, queryClient],
  );
}

/**
 * Counts afresh, when Send is pressed, the contacts the campaign's segment matches now: valid, not suppressed, still
 * in the audience, as the send will freeze them (issue 26). The segment is read first for its rule as saved.
 */
export function useFetchSegmentCount() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useCallback(
    (segmentId: number) =>
      queryClient.fetchQuery({
        queryKey: editorKeys.segmentCount(segmentId),
        queryFn: async ({ signal }) => {
          const segment = expectBody<Segment>(
            (await client.GET('/api/segments/{id}', { params: { path: { id: segmentId } }, signal })).data,
          );
          const { data } = await client.POST('/api/audiences/{id}/segment-count', {
            params: { path: { id: segment.audienceId } },
            body: { rule: segment.rule },
            signal,
          });
          return expectBody<SegmentCount>(data).count;
        },
        staleTime: 0,
      }),
    [client, queryClient],
  );
}

/** Counts afresh, when Send is pressed, the follow-up's recipients its original reached since they were frozen (the send drops them). */
export function useFetchReachedRecipients() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useCallback(
    (id: number) =>
      queryClient.fetchQuery({
        queryKey: editorKeys.reached(id),
        queryFn: async ({ signal }) => {
          const { data } = await client.GET('/api/campaigns/{id}/reached-recipients', { params: { path: { id } }, signal });
          return expectBody<ReachedRecipients>(data).reachedRecipients;
        },
        staleTime: 0,
      }),
    [client, queryClient],
  );
}

/** Counts the audience's suppressed valid contacts afresh when Send is pressed: addresses unsubscribe and bounce meanwhile. */
export function useFetchSuppressedContacts() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useCallback(
    (id: number) =>
      queryClient.fetchQuery({
        queryKey: editorKeys.suppressed(id),
        queryFn: async ({ signal }) => {
          const { data } = await client.GET('/api/audiences/{id}/suppressed-contacts', { params: { path: { id } }, signal });
          return expectBody<SuppressedContacts>(data);
        },
        staleTime: 0,
      }),
    [client, queryClient],
  );
}

export function useSendTestEmail() {
  const client = useApiClient();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async (input: TestEmail) => {
      const { data } = await client.POST('/api/campaigns/send-test-email', { body: input });
      return expectBody(data);
    },
  });
}
