import { useQuery } from '@tanstack/react-query';
import { expectBody, type Quota } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { reportKeys } from './keys';

/**
 * Whether the deployment takes SES delivery events (an addition to the spec), from the quota call: a
 * setting of the deployment, read once per visit. Undefined while unknown or when the call fails.
 */
export function useDeliveryEventsConfigured(): boolean | undefined {
  const client = useApiClient();
  const quota = useQuery({
    queryKey: [...reportKeys.all, 'delivery-events'],
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/ses-quota', { signal });
      return expectBody<Quota>(data);
    },
    staleTime: Infinity,
    retry: false,
  });
  return quota.data?.deliveryEventsConfigured;
}
