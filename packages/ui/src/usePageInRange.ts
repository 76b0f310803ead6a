import { useEffect } from 'react';
import { totalPagesOf, type PageSize } from './PagedTableFooter';
import type { QueryStateLike } from './QueryStateSwitch';

/** What a paged list's read answers: one page's items and the count of the whole list. */
export interface PageOfItems {
  items: readonly unknown[];
  meta: { totalItems: number };
}

export interface PageInRangeOptions {
  page: number;
  pageSize: PageSize;
  /** Rows per page when pageSize is 'all' (see PagedTableFooter). */
  allPageSize?: number;
  /** Moves the list to another page; called with the last page that exists. */
  onPageChange: (page: number) => void;
}

/** A page that answered no items although the list holds some: it is past the last page. */
export const isPastTheEnd = (data: PageOfItems) => data.items.length === 0 && data.meta.totalItems > 0;

/** The list itself is empty (not merely the page asked for): only then does a list show its empty state. */
export const isEmptyList = (data: PageOfItems) => data.items.length === 0 && data.meta.totalItems === 0;

/**
 * Keeps a paged list on a page that exists. A page past the last one (an old `?page=` link, or the only
 * row of the last page deleted while the list keeps its page) answers no items although earlier pages
 * hold some; once the server's count is known (not a placeholder kept from another page), the list moves
 * to its last page. Answers the query as QueryStateSwitch should show it: still loading while the page is
 * past the end, so such a page never reads as an empty list.
 */
export function usePageInRange<T extends PageOfItems>(
  query: QueryStateLike<T> & { isPlaceholderData?: boolean },
  { page, pageSize, allPageSize, onPageChange }: PageInRangeOptions,
): QueryStateLike<T> {
  const settled = query.data !== undefined && !query.isPlaceholderData ? query.data : undefined;
  const lastPage = settled ? totalPagesOf(settled.meta.totalItems, pageSize, allPageSize) : undefined;
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) onPageChange(lastPage);
  }, [lastPage, page, onPageChange]);
  // A placeholder kept while the next page loads tells nothing of that page's range, only whether it was past the end itself.
  const pastTheEnd = !query.isError && query.data !== undefined && isPastTheEnd(query.data) && (lastPage === undefined || page > lastPage);
  return pastTheEnd ? { ...query, isPending: true } : query;
}
