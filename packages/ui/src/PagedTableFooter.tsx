import { Label, Select, Text, makeStyles, tokens, useId } from '@fluentui/react-components';
import { ArrowNextRegular, ArrowPreviousRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import { IconButton } from './IconButton';

/** A page size, or 'all' for one page holding every item. */
export type PageSize = number | 'all';

export interface PagedTableFooterProps {
  /** 1-based current page. */
  page: number;
  pageSize: PageSize;
  totalItems: number;
  onPageChange: (page: number) => void;
  /** Omit to hide the page-size selector. The caller resets the page when the size changes. */
  onPageSizeChange?: (size: PageSize) => void;
  /** The sizes offered; the current size is added when it is not one of them. */
  pageSizeOptions?: readonly PageSize[];
  /** Rows per page when pageSize is 'all' and the server caps the page size; defaults to every item. */
  allPageSize?: number;
  /** What the table lists, for the controls' accessible names, e.g. 'Contacts'. */
  label?: string;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'flex-end',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    paddingBlock: tokens.spacingVerticalS,
  },
  size: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  buttons: { display: 'flex', columnGap: tokens.spacingHorizontalXS },
});

/** The offered sizes, plus the current one when the URL asked for another (e.g. ?limit=7), in order, 'all' last. */
export function pageSizeChoices(options: readonly PageSize[], current: PageSize): readonly PageSize[] {
  if (options.includes(current)) return options;
  const numbers = [...options, current].filter((size): size is number => size !== 'all').sort((a, b) => a - b);
  return options.includes('all') || current === 'all' ? [...numbers, 'all'] : numbers;
}

export function totalPagesOf(totalItems: number, pageSize: PageSize, allPageSize?: number): number {
  const size = pageSize === 'all' ? (allPageSize ?? totalItems) : pageSize;
  if (size <= 0) return 1;
  return Math.max(1, Math.ceil(totalItems / size));
}

/** The footer of a paged table: rows-per-page options, the range shown, and first/previous/next/last. */
export function PagedTableFooter({
  page,
  pageSize,
  totalItems,
  onPageChange,
  onPageSizeChange,
  pageSizeOptions = [5, 10, 25],
  allPageSize,
  label = 'Rows',
}: PagedTableFooterProps) {
  const styles = useStyles();
  const sizeId = useId('page-size');
  const totalPages = totalPagesOf(totalItems, pageSize, allPageSize);
  const current = Math.min(Math.max(1, page), totalPages);
  const size = pageSize === 'all' ? (allPageSize ?? totalItems) : pageSize;
  const from = totalItems === 0 ? 0 : (current - 1) * size + 1;
  const to = Math.min(current * size, totalItems);
  const atStart = current <= 1;
  const atEnd = current >= totalPages;

  const pageButton = (name: string, icon: ReactElement, target: number, disabled: boolean) => (
    <IconButton label={name} icon={icon} disabled={disabled} onClick={() => onPageChange(target)} />
  );

  return (
    <div className={styles.root} role="group" aria-label={`${label} pagination`}>
      {onPageSizeChange && (
        <div className={styles.size}>
          <Label htmlFor={sizeId}>Rows per page</Label>
          <Select
            id={sizeId}
            size="small"
            value={String(pageSize)}
            onChange={(_, data) => onPageSizeChange(data.value === 'all' ? 'all' : Number(data.value))}
          >
            {pageSizeChoices(pageSizeOptions, pageSize).map((option) => (
              <option key={option} value={String(option)}>
                {option === 'all' ? 'All' : option}
              </option>
            ))}
          </Select>
        </div>
      )}
      <Text aria-live="polite">
        {from}–{to} of {totalItems}
      </Text>
      <div className={styles.buttons}>
        {pageButton('First page', <ArrowPreviousRegular />, 1, atStart)}
        {pageButton('Previous page', <ChevronLeftRegular />, current - 1, atStart)}
        {pageButton('Next page', <ChevronRightRegular />, current + 1, atEnd)}
        {pageButton('Last page', <ArrowNextRegular />, totalPages, atEnd)}
      </div>
    </div>
  );
}
