import type { CampaignSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { FollowUpDialog } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useFollowUpCampaign } from '../api/campaigns';

/** The follow-up opens in the editor, as a replica does. */
export function FollowUpCampaignDialog({ campaign, onClose }: { campaign: CampaignSummary; onClose: () => void }) {
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const followUp = useFollowUpCampaign();
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
