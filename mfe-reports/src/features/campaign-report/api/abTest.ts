import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type AbTest, type AbTestVariantClicks } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { SENDS_MAIL } from '@mailroom/mf-contract';
import { refreshWhileSending } from './report';
import { reportKeys } from './keys';

/** Read again this often while the test is in its test phase: its figures move, and its wait ends by itself. */
export const AB_TEST_REFRESH_MS = 5000;

/** The campaign's A/B test with each variant's figures and the verdict (issue 28); null without one. */
export function useAbTest(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.abTest(id),
    queryFn: async ({ signal }): Promise<AbTest | null> => {
      const { data } = await client.GET('/api/campaigns/{id}/ab-test', { params: { path: { id } }, signal });
      return expectBody(data).data;
    },
    enabled: id > 0,
    refetchInterval: (query) => (query.state.data?.phase === 'TESTING' ? AB_TEST_REFRESH_MS : false),
  });
}

/** A member picks the winner before the wait ends: the rest is sent it, and the whole report refreshes. */
export function usePickAbTestWinner(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: SENDS_MAIL,
    mutationFn: async (variant: number) => {
      const { data } = await client.POST('/api/campaigns/{id}/ab-test/winner', { params: { path: { id } }, body: { variant } });
      return expectBody(data).data;
    },
    onSuccess: (test) => {
      queryClient.setQueryData(reportKeys.abTest(id), test);
      return queryClient.invalidateQueries({ queryKey: reportKeys.report(id) });
    },
  });
}

/**
 * One variant's click map (issue 28): the html its recipients got and its links with their clicks only.
 * Read only while `enabled` (the variant is being looked at), and again while the campaign sends.
 */
export function useVariantClicks(id: number, variant: number, sending: boolean, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: reportKeys.variantClicks(id, variant),
    queryFn: async ({ signal }): Promise<AbTestVariantClicks> => {
      const { data } = await client.GET('/api/campaigns/{id}/ab-test/variants/{variant}/clicks', {
        params: { path: { id, variant } },
        signal,
      });
      return expectBody(data);
    },
    enabled,
    refetchInterval: refreshWhileSending(sending),
  });
}
