import { useQuery } from '@tanstack/react-query';
import { expectBody, type SignupFormList } from '@mailroom/api-client';
import { useApiClient, useRemote } from '@mailroom/mf-contract/react';
import { RouterLink } from '@mailroom/ui';

/**
 * The audience page's way to its sign-up forms (features/forms), with how many it has. Here, not in either
 * feature, as both show it; its query key is the forms feature's list key, so a change there refreshes it.
 */
export function AudienceFormsLink({ audienceId }: { audienceId: number }) {
  const { basePath } = useRemote();
  const client = useApiClient();
  const forms = useQuery({
    queryKey: ['signup-forms', 'list', audienceId],
    queryFn: async ({ signal }) => {
      const { data } = await client.GET('/api/audiences/{id}/forms', { params: { path: { id: audienceId } }, signal });
      return expectBody<SignupFormList>(data).items;
    },
  });
  const count = forms.data?.length;
  return <RouterLink to={`${basePath}/${audienceId}/forms`}>Sign-up forms{count === undefined ? '' : ` (${count})`}</RouterLink>;
}
