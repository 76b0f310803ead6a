import type { PageMeta } from '@mailroom/api-client';
import { useCallback, type ReactNode } from 'react';
import { NameSearchForm } from './NameSearchForm';
import { PagedTableFooter } from './PagedTableFooter';
import { QueryStateSwitch, type QueryStateLike } from './QueryStateSwitch';
import { isEmptyList, usePageInRange } from './usePageInRange';
import type { ListQueryParams, SetParamsOptions } from './useQueryParams';

/** A list's page, page size and name filter with their setter: what useQueryParams returns for a screen. */
export interface ListParams extends ListQueryParams {
  /** Merges a change in; a name is trimmed. `replace` corrects the address rather than adding to the history. */
  setParams: (change: Partial<ListQueryParams>, options?: SetParamsOptions) => void;
}

export interface PagedListSectionProps<T> {
  /** What is listed, plural and capitalised, e.g. 'Audiences': the footer's name, and in lower case the texts'. */
  noun: string;
  params: ListParams;
  /** The page's read; `isPlaceholderData` when it still shows another page while this one loads. */
  query: QueryStateLike<{ items: T[]; meta: Pick<PageMeta, 'totalItems'> }> & { isPlaceholderData?: boolean };
  /** The empty state's icon and what to do while there are none at all, e.g. 'Create an audience, then import its contacts.'. */
  empty?: { icon?: ReactNode; hint?: string };
  searchLabel?: string;
  /** The page sizes offered; without them the page size is fixed (pickers). */
  pageSizeOptions?: readonly number[];
  /** The table of one page's items. */
  children: (items: T[]) => ReactNode;
}

/**
 * The body of a list searched by name and paged: the search, then a spinner, an error with Retry, the empty
 * state or the table with its footer. Every search or page-size change goes back to page 1, since the old
 * page may no longer exist. A page past the last one moves to the last (usePageInRange): the empty state is for
 * an empty list only. It renders no box of its own, so the parent's layout spaces the search and the list.
 */
export function PagedListSection<T>({ noun, params, query, empty, searchLabel, pageSizeOptions, children }: PagedListSectionProps<T>) {
  const { page, limit, name, setParams } = params;
  const items = noun.toLowerCase();
  const toPage = useCallback((last: number) => setParams({ page: last }, { replace: true }), [setParams]);
  const shown = usePageInRange(query, { page, pageSize: limit, onPageChange: toPage });
  return (
    <>
      <NameSearchForm label={searchLabel} value={name} onSearch={(text) => setParams({ name: text, page: 1 })} />
      <QueryStateSwitch
        query={shown}
        loadingLabel={`Loading ${items}...`}
        errorTitle={`Failed to load ${items}`}
        isEmpty={isEmptyList}
        empty={{
          icon: empty?.icon,
          title: name ? `No ${items} match “${name}”` : `No ${items} yet`,
          description: name ? 'Try another name.' : empty?.hint,
        }}
      >
        {(data) => (
          <div>
            {children(data.items)}
            <PagedTableFooter
              label={noun}
              page={page}
              pageSize={limit}
              totalItems={data.meta.totalItems}
              pageSizeOptions={pageSizeOptions}
              onPageChange={(next) => setParams({ page: next })}
              onPageSizeChange={pageSizeOptions && ((size) => setParams({ limit: size === 'all' ? limit : size, page: 1 }))}
            />
          </div>
        )}
      </QueryStateSwitch>
    </>
  );
}
