import { Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  /** A call to action, e.g. a create button. */
  action?: ReactNode;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    textAlign: 'center',
    rowGap: tokens.spacingVerticalS,
    paddingBlock: tokens.spacingVerticalXXL,
    paddingInline: tokens.spacingHorizontalL,
    color: tokens.colorNeutralForeground2,
  },
  icon: { fontSize: '48px', color: tokens.colorNeutralForeground3 },
});

/** What a list shows when it has nothing to show. */
export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  const styles = useStyles();
  return (
    <div className={styles.root} role="status">
      {icon && (
        <span className={styles.icon} aria-hidden>
          {icon}
        </span>
      )}
      <Subtitle2>{title}</Subtitle2>
      {description && <Text>{description}</Text>}
      {action}
    </div>
  );
}
