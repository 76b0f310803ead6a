import type { CampaignSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { FollowUpDialog, useFollowUpCampaign } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useInvalidateLists } from '../api/campaigns';

/** The follow-up opens in the editor, as a replica does. */
export function FollowUpCampaignDialog({ campaign, onClose }: { campaign: CampaignSummary; onClose: () => void }) {
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  // The list shows the new draft when the member comes back to it.
  const invalidateLists = useInvalidateLists();
  const followUp = useFollowUpCampaign({ onSuccess: invalidateLists });
  return (
    <FollowUpDialog
      campaignName={campaign.name}
      create={(recipients) => followUp.mutateAsync({ id: campaign.id, recipients })}
      onCreated={(id) => {
        notify('success', `Follow-up of ${campaign.name} created`);
        void navigate(`${basePath}/edit/${id}`);
      }}
      onClose={onClose}
    />
  );
}
