import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type Person, type PersonErasure } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { fileNameFromContentDisposition, saveBlob } from '@mailroom/ui';
import { personKeys } from './keys';

/**
 * What is held about an address, once one is searched for (`email` empty: nothing asked). The address
 * goes as a query value: the API never takes it in a path.
 */
export function usePerson(email: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: personKeys.person(email),
    enabled: email !== '',
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/people', { params: { query: { email } }, signal });
      return expectBody<Person>(data);
    },
  });
}

/** Downloads everything held about the address as one JSON file, under the server's file name. */
export function useExportPerson() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (email: string) => {
      const { data, response } = await client.GET('/api/people/export', { params: { query: { email } }, parseAs: 'blob' });
      saveBlob(expectBody(data), fileNameFromContentDisposition(response.headers.get('Content-Disposition'), 'person.json'));
    },
  });
}

/** Erases the address everywhere; the person's page is read again (it then says when it was erased). */
export function useErasePerson() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (email: string) => {
      const { data } = await client.POST('/api/people/erase', { body: { email } });
      return expectBody<PersonErasure>(data);
    },
    // Every list that showed the address (contacts, suppressions, reports) is stale now.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
