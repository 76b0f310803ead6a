import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';

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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (blank || busy) return;
    onSubmit(name.trim());
  };

  return (
    <Dialog
      open
      onOpenChange={(_, data) => {
        if (!data.open && !busy) onClose();
      }}
    >
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field
                label={label}
                required
                validationState={showBlank ? 'error' : 'none'}
                validationMessage={showBlank ? blankMessage : undefined}
              >
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
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={busy} onClick={onClose}>
                Cancel
              </Button>
              <Button
                type="submit"
                appearance="primary"
                disabled={busy || (blankName === 'disable' && blank)}
                icon={busy ? <Spinner size="tiny" /> : undefined}
              >
                {submitLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
