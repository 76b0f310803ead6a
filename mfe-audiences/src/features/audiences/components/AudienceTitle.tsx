import { errorMessage, type Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { EditableTitle } from '@mailroom/ui';
import { useRenameAudience } from '../api/audiences';
import { RENAME_FAILURE, RENAME_SUCCESS } from './RenameAudienceDialog';

const LABELS = { edit: 'Edit audience name', input: 'Audience name', save: 'Save audience name', cancel: 'Cancel editing' };

/** The audience's name as the page title; the pencil switches to editing (Enter saves, Escape cancels). */
export function AudienceTitle({ audience }: { audience: Audience }) {
  const { notify } = useRemote();
  const renameAudience = useRenameAudience();
  return (
    <EditableTitle
      name={audience.name}
      labels={LABELS}
      needs="editor"
      onSave={(name) =>
        renameAudience.mutateAsync({ id: audience.id, name }).then(
          () => notify('success', RENAME_SUCCESS),
          (error: unknown) => {
            notify('error', errorMessage(error, RENAME_FAILURE));
            throw error;
          },
        )
      }
    />
  );
}
