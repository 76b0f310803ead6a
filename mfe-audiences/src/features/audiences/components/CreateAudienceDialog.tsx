import { errorMessage } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { useNavigate } from 'react-router-dom';
import { useCreateAudience } from '../api/audiences';
import { AudienceNameDialog } from './AudienceNameDialog';

/** Asks for a name, creates the audience and opens it; a failure stays in the dialog. */
export function CreateAudienceDialog({ onClose }: { onClose: () => void }) {
  const { basePath } = useRemote();
  const navigate = useNavigate();
  const createAudience = useCreateAudience();
  return (
    <AudienceNameDialog
      title="Create Audience"
      label="Audience name"
      submitLabel="Create"
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
