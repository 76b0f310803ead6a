import { Table, makeStyles, mergeClasses, tokens, type TableProps } from '@fluentui/react-components';

const useStyles = makeStyles({
  scroller: {
    maxWidth: '100%',
    overflowX: 'auto',
    ':focus-visible': {
      outlineWidth: tokens.strokeWidthThick,
      outlineStyle: 'solid',
      outlineColor: tokens.colorStrokeFocus2,
    },
  },
  // Fluent's table splits its width evenly between the columns (fixed layout), so on a phone a long
  // value ran over its neighbours. Here every column is as wide as its content on one line (values
  // are cut at 30 characters by TruncatedText, the whole text in its tooltip) and a table wider than
  // the screen scrolls sideways inside its box, never the page.
  table: {
    tableLayout: 'auto',
    '& th, & td': { whiteSpace: 'nowrap' },
  },
});

export type ScrollingTableProps = TableProps & { 'aria-label': string };

/**
 * A Fluent table whose cells never overlap at any width: it scrolls sideways when it does not fit.
 * The scrolling box is a named, focusable region so a keyboard can scroll it too.
 */
export function ScrollingTable({ className, ...props }: ScrollingTableProps) {
  const styles = useStyles();
  return (
    <div role="region" aria-label={`${props['aria-label']} table`} tabIndex={0} className={styles.scroller}>
      <Table {...props} className={mergeClasses(styles.table, className)} />
    </div>
  );
}
