import { Field, Input } from '@fluentui/react-components';
import { useState } from 'react';
import { FormDialog } from './FormDialog';

export interface RenameDialogProps {
  /** E.g. 'Rename campaign'. */
  title: string;
  /** The name now; the field starts with it. */
  initialName: string;
  label?: string;
  /** While true the buttons are disabled and Rename shows a spinner. */
  busy?: boolean;
  /** Receives the trimmed, non-blank new name. */
  onSubmit: (name: string) => void;
  /** Called on Cancel, Escape or a click outside (not while busy). */
  onClose: () => void;
}

/**
 * The product's rename dialog (SPEC 5): submitting a blank name marks the field as an error and does
 * nothing. Mount it to open it.
 */
export function RenameDialog({ title, initialName, label = 'New name', busy = false, onSubmit, onClose }: RenameDialogProps) {
  const [name, setName] = useState(initialName);
  const [blankSubmitted, setBlankSubmitted] = useState(false);
  const blank = name.trim() === '';

  const submit = () => {
    if (blank) setBlankSubmitted(true);
    else onSubmit(name.trim());
  };

  return (
    <FormDialog title={title} submitLabel="Rename" busy={busy} onSubmit={submit} onClose={onClose}>
      <Field
        label={label}
        required
        validationState={blankSubmitted && blank ? 'error' : 'none'}
        validationMessage={blankSubmitted && blank ? 'The name cannot be blank' : undefined}
      >
        <Input value={name} autoFocus maxLength={200} onChange={(_, data) => setName(data.value)} />
      </Field>
    </FormDialog>
  );
}
