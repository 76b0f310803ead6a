import { Field, Input, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { FormDialog } from './FormDialog';

export interface NameDialogProps {
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  busy: boolean;
  /** Shown under the field once a blank name was typed or submitted, e.g. 'Fill your audience name'. */
  blankMessage: string;
  /** Shown inside the dialog, e.g. the server's message after a failed request. */
  error?: string | null;
  /**
   * 'disable' (create): the submit button is disabled while the name is blank.
   * 'mark' (rename): submitting a blank name marks the field as an error and does nothing.
   */
  blankName: 'disable' | 'mark';
  /** Receives the trimmed, non-blank name. */
  onSubmit: (name: string) => void;
  onClose: () => void;
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/** The dialog that asks for a name (create, rename) of an audience, template or campaign. Mount it to open it. */
export function NameDialog({
  title,
  label,
  submitLabel,
  initialName = '',
  busy,
  blankMessage,
  error,
  blankName,
  onSubmit,
  onClose,
}: NameDialogProps) {
  const styles = useStyles();
  const [name, setName] = useState(initialName);
  const [touched, setTouched] = useState(false);
  const blank = name.trim() === '';
  const showBlank = blank && touched;

  const submit = () => {
    setTouched(true);
    if (!blank) onSubmit(name.trim());
  };

  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      busy={busy}
      submitDisabled={blankName === 'disable' && blank}
      onSubmit={submit}
      onClose={onClose}
      contentClassName={styles.content}
    >
      <Field label={label} required validationState={showBlank ? 'error' : 'none'} validationMessage={showBlank ? blankMessage : undefined}>
        <Input
          value={name}
          autoFocus
          maxLength={200}
          onChange={(_, data) => {
            setName(data.value);
            setTouched(true);
          }}
        />
      </Field>
      {error && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
    </FormDialog>
  );
}
