import { makeStyles, tokens } from '@fluentui/react-components';
import { ArrowNextRegular, ArrowPreviousRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { IconButton } from './IconButton';

export interface KeysetPagerProps {
  /** What the list holds, for the controls' accessible names, e.g. 'Activity'. */
  label: string;
  /** The cursor of the next newer page (null: this is the newest page). */
  newer: number | null;
  /** The cursor of the next older page (null: this is the oldest page). */
  older: number | null;
  onNewest: () => void;
  onNewer: (after: number) => void;
  onOlder: (before: number) => void;
  onOldest: () => void;
}

const useStyles = makeStyles({
  root: { display: 'flex', justifyContent: 'flex-end', columnGap: tokens.spacingHorizontalXS, paddingBlock: tokens.spacingVerticalS },
});

/**
 * The footer of a list paged by keyset (a log of any length: every page costs the same, and there is no
 * total to count): newest, newer, older, oldest.
 */
export function KeysetPager({ label, newer, older, onNewest, onNewer, onOlder, onOldest }: KeysetPagerProps) {
  const styles = useStyles();
  return (
    <div className={styles.root} role="group" aria-label={`${label} pagination`}>
      <IconButton label="Newest page" icon={<ArrowPreviousRegular />} disabled={newer === null} onClick={onNewest} />
      <IconButton
        label="Newer page"
        icon={<ChevronLeftRegular />}
        disabled={newer === null}
        onClick={() => newer !== null && onNewer(newer)}
      />
      <IconButton
        label="Older page"
        icon={<ChevronRightRegular />}
        disabled={older === null}
        onClick={() => older !== null && onOlder(older)}
      />
      <IconButton label="Oldest page" icon={<ArrowNextRegular />} disabled={older === null} onClick={onOldest} />
    </div>
  );
}
