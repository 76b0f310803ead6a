import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { NameDialog } from '@mailroom/ui';
import { useNavigate } from 'react-router-dom';
import { useCreateAudience } from '../api/audiences';

export const BLANK_NAME_MESSAGE = 'Fill your audience name';

/** Asks for a name, creates the audience and opens it; a failure stays in the dialog. */
export function CreateAudienceDialog({ onClose }: { onClose: () => void }) {
  const { basePath } = useRemote();
  const navigate = useNavigate();
  const createAudience = useCreateAudience();
  return (
    <NameDialog
      title="Create Audience"
      label="Audience name"
      submitLabel="Create"
      blankMessage={BLANK_NAME_MESSAGE}
      blankName="disable"
      busy={createAudience.isPending}
      error={createAudience.isError ? errorMessage(createAudience.error, 'Failed to create audience') : null}
      onClose={onClose}
      onSubmit={(name) =>
        createAudience.mutate(name, {
          onSuccess: (id) => navigate(`${basePath}/${id}`),
        })
      }
    />
  );
}
