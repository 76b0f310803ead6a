import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type AbTest, type AbTestInput } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { editorKeys } from './keys';

/** The campaign's A/B test (issue 28); null when it has none. */
export function useAbTest(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.abTest(id),
    queryFn: async ({ signal }): Promise<AbTest | null> => {
      const { data } = await client.GET('/api/campaigns/{id}/ab-test', { params: { path: { id } }, signal });
      return expectBody(data).data;
    },
    enabled: id > 0,
  });
}

/** Makes or changes the draft's A/B test. */
export function useSaveAbTest(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AbTestInput) => {
      const { data } = await client.PUT('/api/campaigns/{id}/ab-test', { params: { path: { id } }, body: input });
      return expectBody(data).data;
    },
    onSuccess: (test) => queryClient.setQueryData(editorKeys.abTest(id), test),
  });
}

/** Removes the draft's A/B test: it is sent as one campaign again. */
export function useDeleteAbTest(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await client.DELETE('/api/campaigns/{id}/ab-test', { params: { path: { id } } });
    },
    onSuccess: () => queryClient.setQueryData(editorKeys.abTest(id), null),
  });
}
