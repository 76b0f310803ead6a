import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type SuppressionAddResult, type SuppressionPage } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { fileNameFromContentDisposition, saveBlob } from '@mailroom/ui';
import { suppressionKeys, type SuppressionListParams } from './keys';

/** A page of the organisation's suppressions, newest first. */
export function useSuppressions(params: SuppressionListParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: suppressionKeys.list(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/suppressions', { params: { query: params }, signal });
      return expectBody<SuppressionPage>(data);
    },
    placeholderData: keepPreviousData,
  });
}

/** Adds pasted addresses or a CSV file's text as the member's own suppressions. */
export function useAddSuppressions() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (text: string) => {
      const { data } = await client.POST('/api/suppressions', { body: { text } });
      return expectBody<SuppressionAddResult>(data);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suppressionKeys.all }),
  });
}

/** The second confirmation a removal carries: a complaint's, an unsubscribe's, or none. */
export type RemovalConfirmation = 'complaint' | 'unsubscribe' | undefined;

/** Takes an address off the list; a complaint's or an unsubscribe's removal carries its second confirmation. */
export function useRemoveSuppression() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, confirmed }: { id: number; confirmed: RemovalConfirmation }) => {
      // A refusal (409 without the reason's own second confirmation, 404) is thrown by the client.
      await client.DELETE('/api/suppressions/{id}', {
        params: {
          path: { id },
          query: confirmed === 'complaint' ? { confirmComplaint: true } : confirmed === 'unsubscribe' ? { confirmUnsubscribe: true } : {},
        },
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: suppressionKeys.all }),
  });
}

/** Downloads the list (with the screen's filters) as CSV under the server's file name. */
export function useExportSuppressions() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (filters: Pick<SuppressionListParams, 'email' | 'reason'>) => {
      const { data, response } = await client.GET('/api/suppressions/export', { params: { query: filters }, parseAs: 'blob' });
      saveBlob(expectBody(data), fileNameFromContentDisposition(response.headers.get('Content-Disposition'), 'suppressions.csv'));
    },
  });
}
