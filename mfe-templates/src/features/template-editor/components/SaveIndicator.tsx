import { Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular, ErrorCircleRegular } from '@fluentui/react-icons';
import type { SaveStatus } from '../hooks/useAutosave';

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS, minHeight: '24px' },
  saved: { color: tokens.colorPaletteGreenForeground1, display: 'inline-flex' },
  failed: { color: tokens.colorPaletteRedForeground1, display: 'inline-flex' },
});

/** 'Saving...' and 'Saved' (docs/product.md), plus what the member should know in between. */
export function SaveIndicator({ status }: { status: SaveStatus }) {
  const styles = useStyles();
  return (
    <span className={styles.root} role="status" aria-live="polite">
      {status === 'saving' && (
        <>
          <Spinner size="extra-tiny" aria-hidden />
          <Text>Saving...</Text>
        </>
      )}
      {status === 'saved' && (
        <>
          <CheckmarkCircleRegular className={styles.saved} aria-hidden />
          <Text>Saved</Text>
        </>
      )}
      {status === 'unsaved' && <Text>Unsaved changes</Text>}
      {status === 'failed' && (
        <>
          <ErrorCircleRegular className={styles.failed} aria-hidden />
          <Text>Not saved</Text>
        </>
      )}
    </span>
  );
}
