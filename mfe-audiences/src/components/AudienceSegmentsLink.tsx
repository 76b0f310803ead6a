import { useQuery } from '@tanstack/react-query';
import { expectBody, type SegmentList } from '@mailroom/api-client';
import { useApiClient, useRemote } from '@mailroom/mf-contract/react';
import { RouterLink } from '@mailroom/ui';

/**
 * The audience page's way to its segments (features/segments), with how many it has. Here, not in either
 * feature, as both show it; its query key is the segments feature's list key, so a change there refreshes it.
 */
export function AudienceSegmentsLink({ audienceId }: { audienceId: number }) {
  const { basePath } = useRemote();
  const client = useApiClient();
  const segments = useQuery({
    queryKey: ['segments', 'list', audienceId],
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/segments', { params: { path: { id: audienceId } }, signal });
      return expectBody<SegmentList>(data).items;
    },
  });
  const count = segments.data?.length;
  return <RouterLink to={`${basePath}/${audienceId}/segments`}>Segments{count === undefined ? '' : ` (${count})`}</RouterLink>;
}
