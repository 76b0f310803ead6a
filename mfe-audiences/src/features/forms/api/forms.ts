import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type Audience, type SignupForm, type SignupFormInput, type SignupFormList } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';

/** The sign-up forms feature's query keys: an audience's list, refreshed by every change. */
export const formKeys = {
  all: ['signup-forms'] as const,
  list: (audienceId: number) => [...formKeys.all, 'list', audienceId] as const,
};

/** The audience the forms are of: its name and its field keys (headers). */
export function useFormsAudience(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: [...formKeys.all, 'audience', audienceId],
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}', { params: { path: { id: audienceId } }, signal });
      return expectBody<Audience>(data);
    },
    enabled: audienceId > 0,
  });
}

/** The audience's sign-up forms, oldest first. */
export function useSignupForms(audienceId: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: formKeys.list(audienceId),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/forms', { params: { path: { id: audienceId } }, signal });
      return expectBody<SignupFormList>(data).items;
    },
    enabled: audienceId > 0,
  });
}

/** Makes a form (no id) or changes one; a refusal (400 with the reason) is thrown by the client. */
export function useSaveSignupForm(audienceId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: SignupFormInput }) => {
      const { data } =
        id === undefined
          ? await client.POST('/api/audiences/{id}/forms', { params: { path: { id: audienceId } }, body: input })
          : await client.PUT('/api/forms/{id}', { params: { path: { id } }, body: input });
      return expectBody<SignupForm>(data);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: formKeys.all }),
  });
}

export function useDeleteSignupForm() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await client.DELETE('/api/forms/{id}', { params: { path: { id } } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: formKeys.all }),
  });
}

/**
 * Sets or clears the audience's public name (issue 25): the name a person sees in the preference centre. A refusal
 * (400 with the reason) is thrown by the client.
 */
export function useSetPublicName(audienceId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (publicName: string | null) => {
      const { data } = await client.PATCH('/api/audiences/{id}', { params: { path: { id: audienceId } }, body: { publicName } });
      return expectBody<Audience>(data);
    },
    onSuccess: (audience) => queryClient.setQueryData([...formKeys.all, 'audience', audienceId], audience),
  });
}
