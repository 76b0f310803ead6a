import { Text } from '@fluentui/react-components';
import { errorMessage, type TemplateSummary } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useDeleteTemplate } from '../api/templates';

export function DeleteTemplateDialog({ template, onClose }: { template: TemplateSummary; onClose: () => void }) {
  const { notify } = useRemote();
  const deleteTemplate = useDeleteTemplate();
  return (
    <ConfirmDialog
      open
      title="Deletion confirmation"
      confirmLabel="Go ahead"
      busy={deleteTemplate.isPending}
      onCancel={onClose}
      onConfirm={() =>
        deleteTemplate.mutate(template.id, {
          onSuccess: () => {
            notify('success', `Successfully delete template ${template.name}`);
            onClose();
          },
          onError: (error) => notify('error', errorMessage(error, 'Failed to delete template')),
        })
      }
    >
      Are you sure to delete the following template?
      <br />
      <Text weight="semibold">{template.name}</Text>
    </ConfirmDialog>
  );
}
