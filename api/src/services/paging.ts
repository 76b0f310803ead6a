/**
 * One page type and helper for every list of the API (`{ items, meta }`, docs/product.md, What the screens hold).
 * The contract bounds `page` and `limit` so that `offset` below stays a safe integer.
 */
import type { PageMeta } from '@mailroom/api-client';

export interface PageQuery {
  /** 1-based. */
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  meta: PageMeta;
}

/** Rows to skip before the page. */
export const offsetOf = ({ page, limit }: PageQuery): number => (page - 1) * limit;

/** The meta of a page of `itemCount` items (for a page streamed item by item, known at its end). */
export function pageMeta(itemCount: number, totalItems: number, { page, limit }: PageQuery): PageMeta {
  return { currentPage: page, itemCount, itemsPerPage: limit, totalItems, totalPages: Math.ceil(totalItems / limit) };
}

export function toPage<T>(items: T[], totalItems: number, query: PageQuery): Page<T> {
  return { items, meta: pageMeta(items.length, totalItems, query) };
}
