import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/** Default list page and page size (docs/product.md, Limits and constants). */
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
/** The page sizes the list screens offer. */
export const LIST_PAGE_SIZES = [5, 10, 25, 50] as const;
/** The contract's bounds of a list's `limit` (some lists take fewer) and `page`: a larger value is answered 400. */
export const MAX_LIST_LIMIT = 1000;
export const MAX_LIST_PAGE = 9007199254;

export interface ListQueryParams {
  page: number;
  limit: number;
  /** The name filter; '' when absent. */
  name: string;
}

/** How a change is written into the address: `replace` corrects the current entry instead of adding one to the history. */
export interface SetParamsOptions {
  replace?: boolean;
}

function positiveInt(raw: string | null, fallback: number, max: number): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) return fallback;
  return Math.min(value, max);
}

/**
 * The list screens' `page`, `limit` and `name` query parameters, with defaults for absent or
 * malformed values, a page size above what the API accepts (`maxLimit`) cut down to it, and a setter
 * that merges a change into the URL (blank names are dropped, other parameters are kept). A page or
 * size the list could not use as written is corrected in the address too, so it says what is shown.
 */
export function useQueryParams(defaults: Partial<Pick<ListQueryParams, 'page' | 'limit'>> & { maxLimit?: number } = {}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const defaultPage = defaults.page ?? DEFAULT_PAGE;
  const defaultLimit = defaults.limit ?? DEFAULT_LIMIT;
  const maxLimit = defaults.maxLimit ?? MAX_LIST_LIMIT;

  const params = useMemo<ListQueryParams>(
    () => ({
      page: positiveInt(searchParams.get('page'), defaultPage, MAX_LIST_PAGE),
      limit: positiveInt(searchParams.get('limit'), Math.min(defaultLimit, maxLimit), maxLimit),
      name: searchParams.get('name') ?? '',
    }),
    [searchParams, defaultPage, defaultLimit, maxLimit],
  );

  const setParams = useCallback(
    (change: Partial<ListQueryParams>, options: SetParamsOptions = {}) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (change.page !== undefined) next.set('page', String(change.page));
          if (change.limit !== undefined) next.set('limit', String(change.limit));
          if (change.name !== undefined) {
            const name = change.name.trim();
            if (name) next.set('name', name);
            else next.delete('name');
          }
          return next;
        },
        { replace: options.replace ?? false },
      );
    },
    [setSearchParams],
  );

  const written = { page: searchParams.get('page'), limit: searchParams.get('limit') };
  const corrected =
    (written.page !== null && written.page !== String(params.page)) || (written.limit !== null && written.limit !== String(params.limit));
  useEffect(() => {
    if (corrected) setParams({ page: params.page, limit: params.limit }, { replace: true });
  }, [corrected, params.page, params.limit, setParams]);

  return { ...params, setParams };
}
