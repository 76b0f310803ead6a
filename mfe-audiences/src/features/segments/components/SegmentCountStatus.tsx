import { Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { counted } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minHeight: '32px' },
});

export interface SegmentCountStatusProps {
  /** The last count answered (for the current rule or, while it is counted, the one before). */
  count: number | undefined;
  counting: boolean;
  unfinished: number;
  failed: boolean;
}

/** The live count, read out politely as it changes (never interrupting the member's typing). */
export function SegmentCountStatus({ count, counting, unfinished, failed }: SegmentCountStatusProps) {
  const styles = useStyles();
  const words =
    unfinished > 0
      ? `Finish ${counted(unfinished, 'condition')} to count the contacts`
      : failed
        ? 'The contacts could not be counted'
        : count === undefined
          ? 'Counting contacts...'
          : `${counted(count, 'contact')} ${count === 1 ? 'matches' : 'match'}`;
  return (
    <div className={styles.root}>
      <Text role="status" aria-live="polite" weight="semibold" data-testid="segment-count">
        {words}
      </Text>
      {counting && unfinished === 0 && <Spinner size="extra-tiny" aria-label="Counting" />}
    </div>
  );
}
