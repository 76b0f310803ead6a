import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { expectBody, type AudienceList, type SegmentList, type TemplateList } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { editorKeys, type PickerParams } from './keys';

const query = ({ page, limit, name }: PickerParams) => ({ page, limit, ...(name ? { name } : {}) });

/** A page of the audience picker. */
export function useAudiencePage(params: PickerParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.audiencePage(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences', { params: { query: query(params) }, signal });
      return expectBody<AudienceList>(data);
    },
    placeholderData: keepPreviousData,
  });
}

/** A page of the template picker. */
export function useTemplatePage(params: PickerParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.templatePage(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/templates', { params: { query: query(params) }, signal });
      return expectBody<TemplateList>(data);
    },
    placeholderData: keepPreviousData,
  });
}

/** The chosen audience's segments, for the To section's segment picker (null: no audience yet). */
export function useAudienceSegments(audienceId: number | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: editorKeys.segments(audienceId ?? 0),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/segments', { params: { path: { id: audienceId! } }, signal });
      return expectBody<SegmentList>(data).items;
    },
    enabled: audienceId !== null,
  });
}
