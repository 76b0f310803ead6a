import { errorMessage, type TemplateSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { NameDialog } from '@mailroom/ui';
import { useRenameTemplate } from '../api/templates';

export const RENAME_SUCCESS = 'Successfully renamed template';

export function RenameTemplateDialog({ template, onClose }: { template: TemplateSummary; onClose: () => void }) {
  const { notify } = useRemote();
  const renameTemplate = useRenameTemplate();
  return (
    <NameDialog
      title="Rename template"
      label="New name"
      submitLabel="Rename"
      blankMessage="Fill your template name"
      blankName="mark"
      initialName={template.name}
      busy={renameTemplate.isPending}
      onClose={onClose}
      onSubmit={(name) =>
        renameTemplate.mutate(
          { id: template.id, name },
          {
            onSuccess: () => {
              notify('success', RENAME_SUCCESS);
              onClose();
            },
            onError: (error) => notify('error', errorMessage(error, 'Failed to rename template')),
          },
        )
      }
    />
  );
}
