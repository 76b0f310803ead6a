import { errorMessage, type Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { NameDialog } from '@mailroom/ui';
import { useRenameAudience } from '../api/audiences';
import { BLANK_NAME_MESSAGE } from './CreateAudienceDialog';

export const RENAME_SUCCESS = 'Audience name updated successfully';
export const RENAME_FAILURE = 'Failed to update audience name';

export function RenameAudienceDialog({ audience, onClose }: { audience: Audience; onClose: () => void }) {
  const { notify } = useRemote();
  const renameAudience = useRenameAudience();
  return (
    <NameDialog
      title="Rename audience"
      label="New name"
      submitLabel="Rename"
      blankMessage={BLANK_NAME_MESSAGE}
      blankName="mark"
      initialName={audience.name}
      busy={renameAudience.isPending}
      onClose={onClose}
      onSubmit={(name) =>
        renameAudience.mutate(
          { id: audience.id, name },
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
