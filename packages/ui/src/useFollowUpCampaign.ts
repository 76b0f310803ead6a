import { expectBody, type Campaign, type FollowUpRecipients } from '@mailroom/api-client';
import { useApiClient } from '@mailroom/mf-contract/react';
import { useMutation } from '@tanstack/react-query';

export interface FollowUpCampaignOptions {
  /** The follow-up exists: e.g. the campaigns remote reads its lists again. */
  onSuccess?: (followUp: Campaign) => unknown;
}

/**
 * Makes a follow-up of a sent campaign (an addition to the spec), from the campaign list's row menu and
 * from the report alike: a new draft for those who did not open it, or did not click. Answers the draft.
 */
export function useFollowUpCampaign({ onSuccess }: FollowUpCampaignOptions = {}) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async ({ id, recipients }: { id: number; recipients: FollowUpRecipients }) => {
      const { data } = await client.POST('/api/campaigns/{id}/follow-up', { params: { path: { id } }, body: { recipients } });
      return expectBody<Campaign>(data);
    },
    ...(onSuccess ? { onSuccess } : {}),
  });
}
