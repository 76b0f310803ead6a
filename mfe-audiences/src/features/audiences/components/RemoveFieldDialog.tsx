import { makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type AudienceField } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { ConfirmDialog, RouterLink } from '@mailroom/ui';
import { useState } from 'react';
import { useRemoveField, type RemovalOutcome } from '../api/fields';

const useStyles = makeStyles({
  text: { margin: 0 },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
});

type InUse = Extract<RemovalOutcome, { removed: false }>;

/**
 * Removing a field: a first confirmation says its values leave every contact. When templates use it as a merge tag
 * the server names them, and the member is asked again with the list (each template linked) before it goes.
 */
export function RemoveFieldDialog({ audienceId, field, onClose }: { audienceId: number; field: AudienceField; onClose: () => void }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const remove = useRemoveField(audienceId);
  const [inUse, setInUse] = useState<InUse>();

  const go = (confirm: boolean) =>
    remove.mutate(
      { key: field.key, confirm },
      {
        onSuccess: (outcome) => {
          if (!outcome.removed) {
            setInUse(outcome);
            return;
          }
          notify('success', `Field ${field.label} removed`);
          onClose();
        },
        onError: (error) => {
          notify('error', errorMessage(error, 'Failed to remove the field'));
          onClose();
        },
      },
    );

  if (!inUse)
    return (
      <ConfirmDialog open title="Remove field" confirmLabel="Remove" busy={remove.isPending} onCancel={onClose} onConfirm={() => go(false)}>
        Remove the field {field.label} ({`{{${field.key}}}`})? Its values are removed from every contact of the audience.
      </ConfirmDialog>
    );
  return (
    <ConfirmDialog
      open
      title="Templates use this field"
      confirmLabel="Remove anyway"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() => go(true)}
    >
      <p className={styles.text}>
        The merge tag {`{{${field.key}}}`} is used by {inUse.templates.length === 1 ? 'this template' : 'these templates'}:
      </p>
      <ul className={styles.list} aria-label="Templates that use the field">
        {inUse.templates.map((template) => (
          <li key={template.id}>
            <RouterLink to={`${REMOTES.templates.basePath}/edit/${template.id}`}>{template.name}</RouterLink> (#{template.id})
          </li>
        ))}
      </ul>
      <p className={styles.text}>Without the field the tag is left empty in their emails (or shows its fallback). Remove it anyway?</p>
    </ConfirmDialog>
  );
}
