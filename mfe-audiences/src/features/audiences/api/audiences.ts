import { useEffect, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type Audience, type AudienceList, type ContactList } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { fileNameFromContentDisposition, saveBlob } from '@mailroom/ui';
import { audienceKeys, type AudienceListParams, type ContactListParams } from './keys';

/** Import polling interval (docs/product.md, Limits and constants). */
export const IMPORT_POLL_MS = 3000;

/** The API's largest page size; 'All' contacts asks for at most this many per page. */
export const MAX_PAGE_SIZE = 1000;

/** A page of audiences; refetched every 3 s while any audience on it is importing. */
export function useAudiences(params: AudienceListParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: audienceKeys.list(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences', {
        params: { query: { page: params.page, limit: params.limit, ...(params.name ? { name: params.name } : {}) } },
        signal,
      });
      return expectBody<AudienceList>(data);
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((audience) => audience.isImporting) ? IMPORT_POLL_MS : false),
  });
}

/**
 * One audience; refetched every 3 s while it is importing, and its contacts reloaded when the import
 * ends, or whenever a read of the audience shows other contacts than the last (source or counts): an
 * import that ended before the page ever saw it running changes those without a change of isImporting,
 * and the contacts read alongside may have been read just before it ended.
 */
export function useAudience(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const audience = useQuery({
    queryKey: audienceKeys.detail(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}', { params: { path: { id } }, signal });
      return expectBody<Audience>(data);
    },
    enabled: id > 0,
    refetchInterval: (query) => (query.state.data?.isImporting ? IMPORT_POLL_MS : false),
  });

  const isImporting = audience.data?.isImporting ?? false;
  const contactsState = audience.data
    ? `${audience.data.source ?? ''}|${audience.data.numberOfContacts}|${audience.data.numberOfContactsWithErrors}`
    : undefined;
  const seen = useRef({ isImporting, contactsState });
  useEffect(() => {
    const before = seen.current;
    const importEnded = before.isImporting && !isImporting;
    const contactsChanged = before.contactsState !== undefined && contactsState !== undefined && before.contactsState !== contactsState;
    if (importEnded || contactsChanged) void queryClient.invalidateQueries({ queryKey: audienceKeys.contacts(id) });
    seen.current = { isImporting, contactsState };
  }, [id, isImporting, contactsState, queryClient]);

  return audience;
}

export function useContacts(id: number, params: ContactListParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: audienceKeys.contactList(id, params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/contacts', {
        params: { path: { id }, query: params },
        signal,
      });
      return expectBody<ContactList>(data);
    },
    enabled: id > 0,
    placeholderData: keepPreviousData,
  });
}

export function useCreateAudience() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { data } = await client.POST('/api/audiences', { body: { name } });
      return expectBody(data).id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: audienceKeys.lists() }),
  });
}

export function useRenameAudience() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string }) => {
      const { data } = await client.PUT('/api/audiences/{id}', { params: { path: { id } }, body: { name } });
      return expectBody<Audience>(data);
    },
    onSuccess: (audience) => {
      queryClient.setQueryData(audienceKeys.detail(audience.id), audience);
      return queryClient.invalidateQueries({ queryKey: audienceKeys.lists() });
    },
  });
}

export function useDeleteAudience() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await client.DELETE('/api/audiences/{id}', { params: { path: { id } } });
      return id;
    },
    onSuccess: (id) => {
      queryClient.removeQueries({ queryKey: audienceKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: audienceKeys.lists() });
    },
  });
}

/** Downloads the audience's contacts as CSV under the name the server gives in Content-Disposition. */
export function useExportContacts() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data, response } = await client.POST('/api/audiences/{id}/download', {
        params: { path: { id } },
        parseAs: 'blob',
      });
      const fileName = fileNameFromContentDisposition(response.headers.get('Content-Disposition'), `audience-${id}-contacts.csv`);
      saveBlob(expectBody(data), fileName);
    },
  });
}

/** Downloads the audience's consent record (issue 25) as CSV, as the contacts export is downloaded. */
export function useExportConsent() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data, response } = await client.GET('/api/audiences/{id}/consent-export', {
        params: { path: { id } },
        parseAs: 'blob',
      });
      const fileName = fileNameFromContentDisposition(response.headers.get('Content-Disposition'), `audience-${id}-consent.csv`);
      saveBlob(expectBody(data), fileName);
    },
  });
}
