import { Text } from '@fluentui/react-components';
import { errorMessage, type CampaignSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useDeleteCampaign } from '../api/campaigns';

export function DeleteCampaignDialog({ campaign, onClose }: { campaign: CampaignSummary; onClose: () => void }) {
  const { notify } = useRemote();
  const deleteCampaign = useDeleteCampaign();
  return (
    <ConfirmDialog
      open
      title="Deletion confirmation"
      confirmLabel="Go ahead"
      busy={deleteCampaign.isPending}
      onCancel={onClose}
      onConfirm={() =>
        deleteCampaign.mutate(campaign.id, {
          // The spec's own wording.
          onSuccess: () => {
            notify('success', `Successfully delete campaign ${campaign.name}`);
            onClose();
          },
          onError: (error) => notify('error', errorMessage(error, 'Failed to delete campaign')),
        })
      }
    >
      <p>Are you sure to delete the following campaign?</p>
      <Text weight="semibold">{campaign.name}</Text>
    </ConfirmDialog>
  );
}
