import { Button, Input, Title1, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular, EditRegular, SaveRegular } from '@fluentui/react-icons';
import { errorMessage, type Audience } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { useState, type KeyboardEvent } from 'react';
import { useRenameAudience } from '../api/audiences';
import { RENAME_FAILURE, RENAME_SUCCESS } from './RenameAudienceDialog';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, minHeight: '40px' },
  input: { minWidth: '320px' },
});

/** The audience's name as the page title; the pencil switches to editing (Enter saves, Escape cancels). */
export function AudienceTitle({ audience }: { audience: Audience }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const renameAudience = useRenameAudience();
  const [draft, setDraft] = useState<string | null>(null);

  const editing = draft !== null;
  const trimmed = draft?.trim() ?? '';
  const canSave = trimmed !== '' && !renameAudience.isPending;

  const cancel = () => setDraft(null);
  const save = () => {
    if (!canSave) return;
    renameAudience.mutate(
      { id: audience.id, name: trimmed },
      {
        onSuccess: () => {
          notify('success', RENAME_SUCCESS);
          setDraft(null);
        },
        onError: (error) => notify('error', errorMessage(error, RENAME_FAILURE)),
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  };

  if (!editing) {
    return (
      <div className={styles.root}>
        <Title1 as="h1">{audience.name}</Title1>
        <Tooltip content="Edit audience name" relationship="label">
          <Button appearance="subtle" icon={<EditRegular />} onClick={() => setDraft(audience.name)} />
        </Tooltip>
      </div>
    );
  }

  return (
    <div className={styles.root}>
      <Input
        className={styles.input}
        size="large"
        aria-label="Audience name"
        value={draft}
        autoFocus
        maxLength={200}
        disabled={renameAudience.isPending}
        onChange={(_, data) => setDraft(data.value)}
        onKeyDown={onKeyDown}
      />
      <Tooltip content="Save audience name" relationship="label">
        <Button appearance="subtle" icon={<SaveRegular />} disabled={!canSave} onClick={save} />
      </Tooltip>
      <Tooltip content="Cancel editing" relationship="label">
        <Button appearance="subtle" icon={<DismissRegular />} onClick={cancel} />
      </Tooltip>
    </div>
  );
}
