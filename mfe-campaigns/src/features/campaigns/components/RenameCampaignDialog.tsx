import { errorMessage, type CampaignSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { NameDialog } from '@mailroom/ui';
import { useRenameCampaign } from '../api/campaigns';

export const RENAME_SUCCESS = 'Successfully renamed campaign';
export const RENAME_FAILURE = 'Failed to rename campaign';

export function RenameCampaignDialog({ campaign, onClose }: { campaign: CampaignSummary; onClose: () => void }) {
  const { notify } = useRemote();
  const renameCampaign = useRenameCampaign();
  return (
    <NameDialog
      title="Rename campaign"
      label="New name"
      submitLabel="Rename"
      blankMessage="The name cannot be blank"
      blankName="mark"
      initialName={campaign.name}
      busy={renameCampaign.isPending}
      onClose={onClose}
      onSubmit={(name) =>
        renameCampaign.mutate(
          { id: campaign.id, name },
          {
            onSuccess: () => {
              notify('success', RENAME_SUCCESS);
              onClose();
            },
            onError: (error) => notify('error', errorMessage(error, RENAME_FAILURE)),
          },
        )
      }
    />
  );
}
