import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { expectBody, type Template } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { htmlToPlainText } from '../lib/plainText';
import { renderPreview } from '../lib/preview';
import { templateEditorKeys } from './keys';

/** What the editor produces: its design JSON and the html exported from it. */
export interface TemplateDraft {
  design: Record<string, unknown>;
  html: string;
}

/** Saves and renames of one template run one after the other, in the order they were asked for. */
const saveScope = (id: number) => ({ id: `template-${id}` });

/** The template, fetched afresh each time the editor opens so the design it loads is the stored one. */
export function useTemplate(id: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: templateEditorKeys.template(id),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/templates/{id}', { params: { path: { id } }, signal });
      return expectBody<Template>(data);
    },
    enabled: id > 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
  });
}

/**
 * Saves a draft under the template's current name, with its plain text and a preview image made here
 * in the browser. A preview that cannot be made is left out, and the stored one stays.
 */
export function useSaveTemplate(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    scope: saveScope(id),
    mutationFn: async (draft: TemplateDraft) => {
      const name = queryClient.getQueryData<Template>(templateEditorKeys.template(id))?.name;
      if (name === undefined) throw new Error('The template is not loaded');
      const preview = await renderPreview(draft.html).catch((error: unknown) => {
        console.warn('No preview image for template', id, error);
        return undefined;
      });
      const { data } = await client.PUT('/api/templates/{id}', {
        params: { path: { id } },
        body: { name, design: draft.design, html: draft.html, plainText: htmlToPlainText(draft.html), ...(preview ? { preview } : {}) },
      });
      return expectBody<Template>(data);
    },
    onSuccess: (template) => queryClient.setQueryData(templateEditorKeys.template(id), template),
  });
}

/** Renames the template (name only: the design stays as stored). */
export function useRenameTemplate(id: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    scope: saveScope(id),
    mutationFn: async (name: string) => {
      const { data } = await client.PUT('/api/templates/{id}', { params: { path: { id } }, body: { name } });
      return expectBody<Template>(data);
    },
    onSuccess: (template) => queryClient.setQueryData(templateEditorKeys.template(id), template),
  });
}
