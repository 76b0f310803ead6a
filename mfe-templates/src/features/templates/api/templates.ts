import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type TemplateList } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { templateKeys, type TemplateListParams } from './keys';

/** Default names of what the list creates (docs/product.md, Limits and constants). */
export const NEW_TEMPLATE_NAME = 'My template';
export const NEW_CAMPAIGN_NAME = 'My Campaign';

/** The API's largest page of templates (each row carries its preview image); a larger `limit` is answered 400. */
export const MAX_TEMPLATES_PAGE_SIZE = 100;

export function useTemplates(params: TemplateListParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: templateKeys.list(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/templates', {
        params: { query: { page: params.page, limit: params.limit, ...(params.name ? { name: params.name } : {}) } },
        signal,
      });
      return expectBody<TemplateList>(data);
    },
    placeholderData: keepPreviousData,
  });
}

/** Creates 'My template' and answers its id. */
export function useCreateTemplate() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await client.POST('/api/templates', { body: { name: NEW_TEMPLATE_NAME } });
      return expectBody(data).id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }),
  });
}

export function useRenameTemplate() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string }) => {
      const { data } = await client.PUT('/api/templates/{id}', { params: { path: { id } }, body: { name } });
      return expectBody(data);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }),
  });
}

/** Copies the template and answers the copy's id. */
export function useReplicateTemplate() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await client.POST('/api/templates/{id}/replicate', { params: { path: { id } } });
      return expectBody(data).id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }),
  });
}

export function useDeleteTemplate() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await client.DELETE('/api/templates/{id}', { params: { path: { id } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }),
  });
}

/** Creates the draft campaign 'My Campaign' from a template and answers its id (the campaigns remote opens it). */
export function useCreateCampaignFromTemplate() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (templateId: number) => {
      const { data } = await client.POST('/api/campaigns', { body: { name: NEW_CAMPAIGN_NAME, templateId } });
      return expectBody(data).id;
    },
  });
}
