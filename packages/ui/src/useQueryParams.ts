import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/** Default list page and page size (SPEC 9). */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
/** The page sizes the list screens offer. */
export const LIST_PAGE_SIZES = [5, 10, 25, 50] as const;

export interface ListQueryParams {
  page: number;
  limit: number;
  /** The name filter; '' when absent. */
  name: string;
}

function positiveInt(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return fallback;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/**
 * The list screens' `page`, `limit` and `name` query parameters, with defaults for absent or
 * malformed values, and a setter that merges a change into the URL (blank names are dropped,
 * other parameters are kept).
 */
export function useQueryParams(defaults: Partial<Pick<ListQueryParams, 'page' | 'limit'>> = {}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const defaultPage = defaults.page ?? DEFAULT_PAGE;
  const defaultLimit = defaults.limit ?? DEFAULT_LIMIT;

  const params = useMemo<ListQueryParams>(
    () => ({
      page: positiveInt(searchParams.get('page'), defaultPage),
      limit: positiveInt(searchParams.get('limit'), defaultLimit),
      name: searchParams.get('name') ?? '',
    }),
    [searchParams, defaultPage, defaultLimit],
  );

  const setParams = useCallback(
    (change: Partial<ListQueryParams>) => {
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        if (change.page !== undefined) next.set('page', String(change.page));
        if (change.limit !== undefined) next.set('limit', String(change.limit));
        if (change.name !== undefined) {
          const name = change.name.trim();
          if (name) next.set('name', name);
          else next.delete('name');
        }
        return next;
      });
    },
    [setSearchParams],
  );

  return { ...params, setParams };
}
