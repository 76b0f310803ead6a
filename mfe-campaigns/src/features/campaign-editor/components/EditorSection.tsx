import { AccordionHeader, AccordionItem, AccordionPanel, Caption1, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkCircleFilled } from '@fluentui/react-icons/svg/checkmark-circle';
import { CircleRegular } from '@fluentui/react-icons/svg/circle';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  item: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  heading: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, paddingBlock: tokens.spacingVerticalS },
  title: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase400 },
  summary: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  icon: { fontSize: '24px', display: 'inline-flex' },
  done: { color: tokens.colorPaletteGreenForeground1 },
  notDone: { color: tokens.colorNeutralForeground3 },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    rowGap: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalL,
  },
});

export interface EditorSectionProps {
  /** The accordion item's value: 'to', 'from', 'subject' or 'content'. */
  value: string;
  title: string;
  /** What the section holds now, shown under the title. */
  summary: string;
  done: boolean;
  children: ReactNode;
}

/** One of the editor's four accordion sections, with its done or not-done icon. */
export function EditorSection({ value, title, summary, done, children }: EditorSectionProps) {
  const styles = useStyles();
  const icon = done ? (
    <span className={mergeClasses(styles.icon, styles.done)} role="img" aria-label="done">
      <CheckmarkCircleFilled />
    </span>
  ) : (
    <span className={mergeClasses(styles.icon, styles.notDone)} role="img" aria-label="not done">
      <CircleRegular />
    </span>
  );
  return (
    <AccordionItem value={value} className={styles.item}>
      <AccordionHeader as="h2" size="large" icon={icon} expandIconPosition="end">
        <span className={styles.heading}>
          <span className={styles.title}>{title}</span>
          <Caption1 className={styles.summary}>{summary}</Caption1>
        </span>
      </AccordionHeader>
      <AccordionPanel className={styles.panel}>{children}</AccordionPanel>
    </AccordionItem>
  );
}
