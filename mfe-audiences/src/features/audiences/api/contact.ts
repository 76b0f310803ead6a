import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type ContactChange, type ContactDetail, type NewContact } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { audienceKeys } from './keys';

/** One contact's drawer: its keys live under its audience's, so a change to the audience's contacts refreshes it. */
export const contactKey = (audienceId: number, contactId: number) => [...audienceKeys.contacts(audienceId), 'one', contactId] as const;

export function useContact(audienceId: number, contactId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: contactKey(audienceId, contactId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/contacts/{contactId}', {
        params: { path: { id: audienceId, contactId } },
        signal,
      });
      return expectBody<ContactDetail>(data);
    },
  });
}

/** After a change: the audience (its counts) and its contact pages are read again. */
function useRefreshAudience() {
  const queryClient = useQueryClient();
  return (audienceId: number) => queryClient.invalidateQueries({ queryKey: audienceKeys.detail(audienceId) });
}

export function useUpdateContact(audienceId: number, contactId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const refresh = useRefreshAudience();
  return useMutation({
    mutationFn: async (change: ContactChange) => {
      const { data } = await client.PATCH('/api/audiences/{id}/contacts/{contactId}', {
        params: { path: { id: audienceId, contactId } },
        body: change,
      });
      return expectBody<ContactDetail>(data);
    },
    onSuccess: (contact) => {
      queryClient.setQueryData(contactKey(audienceId, contactId), contact);
      return refresh(audienceId);
    },
  });
}

export function useAddContact(audienceId: number) {
  const client = useApiClient();
  const refresh = useRefreshAudience();
  return useMutation({
    mutationFn: async (contact: NewContact) => {
      const { data } = await client.POST('/api/audiences/{id}/contacts', { params: { path: { id: audienceId } }, body: contact });
      return expectBody<ContactDetail>(data);
    },
    onSuccess: () => refresh(audienceId),
  });
}

export function useDeleteContact(audienceId: number) {
  const client = useApiClient();
  const refresh = useRefreshAudience();
  return useMutation({
    mutationFn: async (contactId: number) => {
      await client.DELETE('/api/audiences/{id}/contacts/{contactId}', { params: { path: { id: audienceId, contactId } } });
    },
    onSuccess: () => refresh(audienceId),
  });
}
