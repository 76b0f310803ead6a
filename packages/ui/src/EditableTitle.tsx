import { Button, Input, Title1, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular, EditRegular, SaveRegular } from '@fluentui/react-icons';
import { useState, type KeyboardEvent } from 'react';
import type { Role } from '@mailroom/mf-contract/roles';
import { RoleGate } from './RoleGate';

export interface EditableTitleProps {
  /** The saved name, shown as the page's h1. */
  name: string;
  /**
   * Receives the trimmed, non-blank name. Editing ends when the promise resolves and goes on when it
   * rejects (the caller tells the user why).
   */
  onSave: (name: string) => Promise<unknown>;
  /** Accessible names of the controls, e.g. 'Edit name', 'Name...', 'Save', 'Cancel'. */
  labels: { edit: string; input: string; save: string; cancel: string };
  /**
   * The lowest role allowed to rename (the operation's x-mailroom-role): below it the pencil is left out, as an icon's
   * tooltip is its name, with no room to say who can. Unset: everyone's.
   */
  needs?: Role;
}

const useStyles = makeStyles({
  root: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, minHeight: '40px' },
  title: { overflowWrap: 'anywhere' },
  input: { minWidth: 'min(320px, 100%)' },
});

/** A page title that edits in place: the pencil opens a box; Enter or Save saves, Escape or Cancel cancels. */
export function EditableTitle({ name, onSave, labels, needs }: EditableTitleProps) {
  const styles = useStyles();
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const trimmed = draft?.trim() ?? '';
  const canSave = trimmed !== '' && !saving;

  const cancel = () => setDraft(null);
  const save = () => {
    if (!canSave) return;
    setSaving(true);
    onSave(trimmed).then(
      () => {
        setSaving(false);
        setDraft(null);
      },
      () => setSaving(false),
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

  if (draft === null) {
    const pencil = (
      <Tooltip content={labels.edit} relationship="label">
        <Button appearance="subtle" icon={<EditRegular />} onClick={() => setDraft(name)} />
      </Tooltip>
    );
    return (
      <div className={styles.root}>
        <Title1 as="h1" className={styles.title}>
          {name}
        </Title1>
        {needs ? (
          <RoleGate needs={needs} action="rename" hide>
            {() => pencil}
          </RoleGate>
        ) : (
          pencil
        )}
      </div>
    );
  }

  return (
    <div className={styles.root}>
      <Input
        className={styles.input}
        size="large"
        aria-label={labels.input}
        placeholder={labels.input}
        value={draft}
        autoFocus
        maxLength={200}
        disabled={saving}
        onChange={(_, data) => setDraft(data.value)}
        onKeyDown={onKeyDown}
      />
      <Tooltip content={labels.save} relationship="label">
        <Button appearance="subtle" icon={<SaveRegular />} disabled={!canSave} onClick={save} />
      </Tooltip>
      <Tooltip content={labels.cancel} relationship="label">
        <Button appearance="subtle" icon={<DismissRegular />} onClick={cancel} />
      </Tooltip>
    </div>
  );
}
