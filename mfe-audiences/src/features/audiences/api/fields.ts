import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApiError,
  expectBody,
  type AudienceField,
  type AudienceFieldChange,
  type AudienceFieldInput,
  type FieldInUse,
} from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { audienceKeys } from './keys';

/** The audience's fields, in position order. */
export function useAudienceFields(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: audienceKeys.fields(audienceId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/fields', { params: { path: { id: audienceId } }, signal });
      return expectBody<AudienceField[]>(data);
    },
    enabled: audienceId > 0,
  });
}

/** A change of the fields also changes the audience's headers (its contacts' columns): both are read again. */
function useRefreshAudience(audienceId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: audienceKeys.detail(audienceId) });
}

export function useAddField(audienceId: number) {
  const client = useApiClient();
  const refresh = useRefreshAudience(audienceId);
  return useMutation({
    mutationFn: async (body: AudienceFieldInput) => {
      const { data } = await client.POST('/api/audiences/{id}/fields', { params: { path: { id: audienceId } }, body });
      return expectBody<AudienceField>(data);
    },
    onSettled: refresh,
  });
}

export function useChangeField(audienceId: number) {
  const client = useApiClient();
  const refresh = useRefreshAudience(audienceId);
  return useMutation({
    mutationFn: async ({ key, change }: { key: string; change: AudienceFieldChange }) => {
      const { data } = await client.PATCH('/api/audiences/{id}/fields/{key}', { params: { path: { id: audienceId, key } }, body: change });
      return expectBody<AudienceField>(data);
    },
    onSettled: refresh,
  });
}

/** What a removal answered: done, or the templates that use the field (nothing removed until confirmed). */
export type RemovalOutcome = { removed: true } | { removed: false; templates: NonNullable<FieldInUse['templates']>; message: string };

export function useRemoveField(audienceId: number) {
  const client = useApiClient();
  const refresh = useRefreshAudience(audienceId);
  return useMutation({
    mutationFn: async ({ key, confirm }: { key: string; confirm: boolean }): Promise<RemovalOutcome> => {
      try {
        await client.DELETE('/api/audiences/{id}/fields/{key}', {
          params: { path: { id: audienceId, key }, query: confirm ? { confirm: true } : {} },
        });
        return { removed: true };
      } catch (error) {
        // A 409 naming templates asks the member first; any other refusal is an error.
        const templates = error instanceof ApiError && error.status === 409 ? (error.body as FieldInUse | undefined)?.templates : undefined;
        if (templates && templates.length > 0) return { removed: false, templates, message: (error as ApiError).message };
        throw error;
      }
    },
    onSettled: refresh,
  });
}
