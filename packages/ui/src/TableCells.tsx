import { Caption1, TableHeader, TableHeaderCell, TableRow, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { RouterLink } from './routing';
import { DATE_TIME_FORMAT, formatDateTime } from './format';

/** A column's header: its text, or its text with a class that fixes its width. */
export type ColumnHeader = string | { header: string; className: string };

/** A table's header row, one cell a column. */
export function ColumnHeaders({ columns }: { columns: readonly ColumnHeader[] }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((column, index) => {
          const { header, className } = typeof column === 'string' ? { header: column, className: undefined } : column;
          // Keyed by place: headers can repeat (an audience's own 'Status' column beside the contact status).
          return (
            <TableHeaderCell key={index} className={className}>
              {header}
            </TableHeaderCell>
          );
        })}
      </TableRow>
    </TableHeader>
  );
}

const useStyles = makeStyles({
  items: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  named: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalXXS },
  // Names and addresses have no spaces to break at: they break anywhere rather than widen the column.
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  detail: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
});

/** Several things side by side in one cell (a status and its action, a row's buttons), centred on the line. */
export function CellItems({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <span className={styles.items}>{children}</span>;
}

export interface NameWithDetailsProps {
  name: string;
  /** Where the name leads (an editor, a report). */
  to: string;
  /** DetailLines under the name. */
  children: ReactNode;
  className?: string;
}

/** A row's name as a link, in bold, with lines of detail under it. */
export function NameWithDetails({ name, to, children, className }: NameWithDetailsProps) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.named, className)}>
      <RouterLink to={to} className={styles.name}>
        {name}
      </RouterLink>
      {children}
    </div>
  );
}

/** One line of detail under a row's name, in small secondary text. */
export function DetailLine({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <Caption1 className={styles.detail}>{children}</Caption1>;
}

export interface LastEditedProps {
  /** A template or campaign: when it was last saved, and by whom when known. */
  item: { updatedAt: string; updatedByEmail: string | null };
  /** Templates show minutes, campaigns seconds (docs/product.md, Limits and constants). */
  format?: string;
}

/** 'Last edited: on {date} by {email}'; without 'by' when no editor is recorded (the API may send none). */
export function LastEdited({ item, format = DATE_TIME_FORMAT }: LastEditedProps) {
  const on = `Last edited: on ${formatDateTime(item.updatedAt, format)}`;
  return <DetailLine>{item.updatedByEmail ? `${on} by ${item.updatedByEmail}` : on}</DetailLine>;
}
