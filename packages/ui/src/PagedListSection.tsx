import type { PageMeta } from '@mailroom/api-client';
import type { ReactNode } from 'react';
import { NameSearchForm } from './NameSearchForm';
import { PagedTableFooter } from './PagedTableFooter';
import { QueryStateSwitch, type QueryStateLike } from './QueryStateSwitch';
import type { ListQueryParams } from './useQueryParams';

/** A list's page, page size and name filter with their setter: what useQueryParams returns for a screen. */
export interface ListParams extends ListQueryParams {
  /** Merges a change in; a name is trimmed. */
  setParams: (change: Partial<ListQueryParams>) => void;
}

export interface PagedListSectionProps<T> {
  /** What is listed, plural and capitalised, e.g. 'Audiences': the footer's name, and in lower case the texts'. */
  noun: string;
  params: ListParams;
  query: QueryStateLike<{ items: T[]; meta: Pick<PageMeta, 'totalItems'> }>;
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
 * page may no longer exist. It renders no box of its own, so the parent's layout spaces the search and the list.
 */
export function PagedListSection<T>({ noun, params, query, empty, searchLabel, pageSizeOptions, children }: PagedListSectionProps<T>) {
  const { page, limit, name, setParams } = params;
  const items = noun.toLowerCase();
  return (
    <>
      <NameSearchForm label={searchLabel} value={name} onSearch={(text) => setParams({ name: text, page: 1 })} />
      <QueryStateSwitch
        query={query}
        loadingLabel={`Loading ${items}...`}
        errorTitle={`Failed to load ${items}`}
        isEmpty={(data) => data.items.length === 0}
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
