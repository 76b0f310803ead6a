import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { expectBody, type ActivityPage } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { activityKeys, type ActivityParams } from './keys';

/** Entries per page of the log. */
export const ACTIVITY_PAGE_SIZE = 25;

/** One page of the log; the previous page stays on screen while the next loads. */
export function useActivityPage(params: ActivityParams) {
  const client = useApiClient();
  return useQuery({
    queryKey: activityKeys.page(params),
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/activity', { params: { query: { ...params, limit: ACTIVITY_PAGE_SIZE } }, signal });
      return expectBody<ActivityPage>(data);
    },
    placeholderData: keepPreviousData,
  });
}
