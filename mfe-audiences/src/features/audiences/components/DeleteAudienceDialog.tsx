import { errorMessage, type Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useDeleteAudience } from '../api/audiences';

export function DeleteAudienceDialog({ audience, onClose }: { audience: Audience; onClose: () => void }) {
  const { notify } = useRemote();
  const deleteAudience = useDeleteAudience();
  return (
    <ConfirmDialog
      open
      title="Delete audience"
      confirmLabel="Delete"
      busy={deleteAudience.isPending}
      onCancel={onClose}
      onConfirm={() =>
        deleteAudience.mutate(audience.id, {
          onSuccess: () => {
            notify('success', `Successfully deleted audience ${audience.name}`);
            onClose();
          },
          onError: (error) => notify('error', errorMessage(error, 'Failed to delete audience')),
        })
      }
    >
      Delete the audience “{audience.name}” and its {audience.numberOfContacts} contacts? This cannot be undone.
    </ConfirmDialog>
  );
}
