import { Button, MessageBar, MessageBarActions, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { SuppressionAddResult } from '@mailroom/api-client';
import { counted, plural } from '@mailroom/ui';

const useStyles = makeStyles({
  sentences: { margin: 0 },
  invalid: { maxHeight: '10rem', overflowY: 'auto', margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
});

const wasOrWere = (n: number) => plural(n, 'was', 'were');

/** An add's outcome as sentences: what was added, what was there already, and whether lines were not added. */
export function addOutcomeSentences({ added, alreadySuppressed, invalidLines, invalid }: SuppressionAddResult): string[] {
  const sentences = [
    added === 0 ? 'No address was added.' : `${counted(added, 'address', 'addresses')} ${wasOrWere(added)} added to the suppressions.`,
  ];
  if (alreadySuppressed > 0)
    sentences.push(`${counted(alreadySuppressed, 'address', 'addresses')} ${wasOrWere(alreadySuppressed)} already suppressed.`);
  if (invalidLines > 0) {
    // The answer lists the first lines only (MAX_REPORTED_LINES): say so when some are left out.
    const listed = invalid.length < invalidLines ? `; the first ${invalid.length.toLocaleString('en-US')} are listed:` : ':';
    sentences.push(`${counted(invalidLines, 'line')} ${wasOrWere(invalidLines)} not added${listed}`);
  }
  return sentences;
}

/**
 * The outcome of the last add, on the screen once its dialog has closed: the sentences and each line
 * not added. It is rendered inside the screen's status region, so a screen reader announces it.
 */
export function AddOutcome({ result, onDismiss }: { result: SuppressionAddResult; onDismiss: () => void }) {
  const styles = useStyles();
  return (
    <MessageBar intent={result.invalidLines > 0 ? 'warning' : 'success'} layout="multiline">
      <MessageBarBody>
        <p className={styles.sentences}>{addOutcomeSentences(result).join(' ')}</p>
        {result.invalid.length > 0 && (
          <ul className={styles.invalid} aria-label="Lines not added">
            {result.invalid.map((line) => (
              <li key={line.line}>
                Line {line.line}: {line.value || '(empty)'} ({line.message})
              </li>
            ))}
          </ul>
        )}
      </MessageBarBody>
      <MessageBarActions
        containerAction={<Button appearance="transparent" icon={<DismissRegular />} aria-label="Dismiss" onClick={onDismiss} />}
      />
    </MessageBar>
  );
}
