import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  expectBody,
  type AudienceField,
  type ContactList,
  type RenderedEmail,
  type SuppressedContacts,
  type ValidationResult,
} from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { editorKeys, type PreviewContactsParams, type RenderParams, type ValidateParams } from './keys';

/**
 * The contacts the campaign goes to, a page at a time, to preview the email for one of them: the
 * audience's valid contacts, or a follow-up's frozen recipients (`followUpId`).
 */
export function usePreviewContacts(audienceId: number | null, params: PreviewContactsParams, followUpId: number | null = null) {
  const client = useApiClient();
  return useQuery({
    queryKey: followUpId === null ? editorKeys.contacts(audienceId ?? 0, params) : editorKeys.recipients(followUpId, params),
    queryFn: async ({ signal }) => {
      if (followUpId !== null) {
        const { data } = await client.GET('/api/campaigns/{id}/recipients', {
          params: { path: { id: followUpId }, query: params },
          signal,
        });
        return expectBody<ContactList>(data);
      }
      const { data } = await client.GET('/api/audiences/{id}/contacts', {
        params: { path: { id: audienceId! }, query: { ...params, hasError: false } },
        signal,
      });
      return expectBody<ContactList>(data);
    },
    enabled: audienceId !== null || followUpId !== null,
    placeholderData: keepPreviousData,
  });
}

/** The template, subject and preview text with one contact's merge tags filled (none: the tags are left empty). */
export function useRenderedEmail(params: RenderParams | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.rendered(params ?? { templateId: 0 }),
    queryFn: async ({ signal }) => {
      const { data } = await client.POST('/api/campaigns/test-render-email', { body: params!, signal });
      return expectBody<RenderedEmail>(data);
    },
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}

/** The audience's contacts that lack a field the template, subject or preview text uses. */
export function useCampaignValidation(params: ValidateParams | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.validation(params ?? { templateId: 0, audienceId: 0 }),
    queryFn: async ({ signal }) => {
      const { data } = await client.POST('/api/campaigns/validate-campaign', { body: params!, signal });
      return expectBody<ValidationResult[]>(data);
    },
    enabled: params !== null,
  });
}

/** The audience's field keys: a missing field that is none of them is a tag the audience lacks (the send refuses it). */
export function useAudienceFieldKeys(audienceId: number | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.fields(audienceId ?? 0),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/fields', { params: { path: { id: audienceId! } }, signal });
      return expectBody<AudienceField[]>(data).map((field) => field.key);
    },
    enabled: audienceId !== null,
  });
}

/** How many of the audience's valid contacts are suppressed (skipped by the send), for the preview's validation banner. */
export function useSuppressedContacts(audienceId: number | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.suppressed(audienceId ?? 0),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/suppressed-contacts', { params: { path: { id: audienceId! } }, signal });
      return expectBody<SuppressedContacts>(data);
    },
    enabled: audienceId !== null,
  });
}
