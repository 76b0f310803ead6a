import { Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular, ErrorCircleRegular } from '@fluentui/react-icons';
import type { Contact } from '@mailroom/api-client';

const useStyles = makeStyles({
  icon: { display: 'inline-flex', fontSize: '20px' },
  error: { color: tokens.colorPaletteRedForeground1 },
  valid: { color: tokens.colorPaletteGreenForeground1 },
});

/** An error icon carrying the contact's error message (tooltip), or a success check. */
export function ContactStatus({ contact }: { contact: Contact }) {
  const styles = useStyles();
  if (contact.errorMessage) {
    return (
      <Tooltip content={contact.errorMessage} relationship="label">
        <span className={mergeClasses(styles.icon, styles.error)} role="img" tabIndex={0}>
          <ErrorCircleRegular />
        </span>
      </Tooltip>
    );
  }
  return (
    <span className={mergeClasses(styles.icon, styles.valid)} role="img" aria-label="Valid">
      <CheckmarkCircleRegular />
    </span>
  );
}
