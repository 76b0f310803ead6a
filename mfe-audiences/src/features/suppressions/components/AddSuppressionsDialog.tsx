import { Button, Field, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons';
import { errorMessage, type SuppressionAddResult } from '@mailroom/api-client';
import { FormDialog } from '@mailroom/ui';
import { useRef, useState } from 'react';
import { useAddSuppressions } from '../api/suppressions';

/** The API's bound on the text (openapi.yaml). */
export const MAX_TEXT_CHARS = 5_000_000;

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  invalid: { maxHeight: '10rem', overflowY: 'auto', margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
});

/** The outcome in words: what was added, what was there already, and each line that was not added. */
function AddOutcome({ result }: { result: SuppressionAddResult }) {
  const styles = useStyles();
  return (
    <div role="status">
      <Text>
        {result.added} added, {result.alreadySuppressed} already suppressed
        {result.invalidLines > 0 ? `, ${result.invalidLines} lines not added:` : '.'}
      </Text>
      {result.invalid.length > 0 && (
        <ul className={styles.invalid} aria-label="Lines not added">
          {result.invalid.map((line) => (
            <li key={line.line}>
              Line {line.line}: {line.value || '(empty)'} ({line.message})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Adds the organisation's own do-not-mail list: pasted addresses, or a CSV file's (read in the browser). */
export function AddSuppressionsDialog({ onClose }: { onClose: () => void }) {
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
        add.mutate(text, { onError: (error) => setProblem(errorMessage(error, 'Failed to add the addresses')) });
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
        {add.data && <AddOutcome result={add.data} />}
      </div>
    </FormDialog>
  );
}
