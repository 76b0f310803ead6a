import { Button, Field, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons';
import { errorMessage, type SuppressionAddResult } from '@mailroom/api-client';
import { FormDialog } from '@mailroom/ui';
import { useRef, useState } from 'react';
import { useAddSuppressions } from '../api/suppressions';

/** The API's bound on the text (openapi.yaml). */
export const MAX_TEXT_CHARS = 5_000_000;

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/**
 * Adds the organisation's own do-not-mail list: pasted addresses, or a CSV file's (read in the browser).
 * Once the API has answered, `onAdded` takes the outcome (the screen shows and announces it) and the
 * dialog is done; a refusal (a quote left open, a text too large) keeps it open with its text.
 */
export function AddSuppressionsDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (result: SuppressionAddResult) => void }) {
  const styles = useStyles();
  const add = useAddSuppressions();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    const content = await file.text();
    if (content.length > MAX_TEXT_CHARS) setProblem(`The file is larger than ${MAX_TEXT_CHARS} characters`);
    else {
      setProblem(undefined);
      setText(content);
    }
  };

  return (
    <FormDialog
      title="Add suppressions"
      submitLabel="Add"
      busy={add.isPending}
      onClose={onClose}
      onSubmit={() => {
        if (text.trim() === '') {
          setProblem('Paste addresses or choose a CSV file');
          return;
        }
        setProblem(undefined);
        add.mutate(text, {
          onSuccess: onAdded,
          onError: (error) => setProblem(errorMessage(error, 'Failed to add the addresses')),
        });
      }}
    >
      <div className={styles.body}>
        <Field
          label="Addresses (one a line, or a CSV with an email column)"
          validationMessage={problem}
          validationState={problem ? 'error' : 'none'}
        >
          <Textarea value={text} onChange={(_, data) => setText(data.value)} rows={8} resize="vertical" />
        </Field>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          hidden
          aria-label="CSV file"
          onChange={(event) => void readFile(event.target.files?.[0])}
        />
        <Button icon={<ArrowUploadRegular />} onClick={() => fileInput.current?.click()}>
          Choose a CSV file
        </Button>
      </div>
    </FormDialog>
  );
}
