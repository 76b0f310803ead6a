/**
 * Exact address searches at a million rows (the audience's contacts list and the report's Email
 * Performance). A substring search cannot be counted from an index: a term shared by most addresses
 * ("gmail") matches hundreds of thousands of rows, and counting them takes a scan (about a second at
 * a million). So a search's matches are read once into a SearchIndex, kept in the process's memory:
 * the key of every matching row in display order (ascending keys) and one byte of its state (what
 * the other filters look at). Every page of every filter of that search is then a scan of those bytes (about a
 * millisecond at a million) and a read of the page's rows by key, and its count is exact.
 *
 * An index is only as good as its key: the caller puts into it everything the matches depend on
 * (for the report, a version of the campaign's jobs read in the page's own snapshot), so an index is
 * never reused once its rows could have changed; it is then built again.
 */

/** The matching rows of one search, in display order. */
export interface SearchIndex {
  /** The rows' keys (a job id, a contact's number in the file). */
  keys: Float64Array;
  /** One state byte per row, for the other filters. */
  states: Uint8Array;
  /** How many rows have each state. */
  counts: Uint32Array;
}

/** Which states a filter keeps: a table of STATES booleans. */
export type StateFilter = Uint8Array;

export function stateFilter(keep: (state: number) => boolean): StateFilter {
  return Uint8Array.from({ length: STATES }, (_, state) => (keep(state) ? 1 : 0));
}

/**
 * A state is below this (one byte): a row travels as one int8, key * STATES + state, read back into
 * a double, exact for keys below 2^45 (35 trillion).
 */
export const STATES = 256;

/**
 * Reads what a build statement answers: the concatenated `int8send(key * STATES + state)` of every
 * row, in any order (an ordered aggregate would sort in PostgreSQL, one process and spilling to disk
 * past work_mem; a typed array sorts a million numbers in tens of milliseconds).
 */
export function searchIndexOf(bytes: Buffer | null): SearchIndex {
  const n = bytes ? bytes.length / 8 : 0;
  const rows = new Float64Array(n);
  if (bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < n; i++) rows[i] = Number(view.getBigInt64(i * 8));
  }
  rows.sort();
  const keys = new Float64Array(n);
  const states = new Uint8Array(n);
  const counts = new Uint32Array(STATES);
  for (let i = 0; i < n; i++) {
    const state = rows[i]! % STATES;
    keys[i] = (rows[i]! - state) / STATES;
    states[i] = state;
    counts[state]!++;
  }
  return { keys, states, counts };
}

/** Rows of the index that `filter` keeps. */
export function countOf(index: SearchIndex, filter: StateFilter): number {
  let total = 0;
  for (let state = 0; state < STATES; state++) if (filter[state]) total += index.counts[state]!;
  return total;
}

/**
 * The keys of rows `offset` to `offset + limit` of those `filter` keeps, in display order, read from
 * the nearer end.
 */
export function pageOf(index: SearchIndex, filter: StateFilter, offset: number, limit: number): number[] {
  const total = countOf(index, filter);
  if (offset >= total || limit <= 0) return [];
  const take = Math.min(limit, total - offset);
  const fromEnd = total - offset - take;
  const { keys, states } = index;
  const page: number[] = [];
  if (fromEnd < offset) {
    let skip = fromEnd;
    for (let i = keys.length - 1; i >= 0 && page.length < take; i--) {
      if (!filter[states[i]!]) continue;
      if (skip > 0) skip--;
      else page.push(keys[i]!);
    }
    return page.reverse();
  }
  let skip = offset;
  for (let i = 0; i < keys.length && page.length < take; i++) {
    if (!filter[states[i]!]) continue;
    if (skip > 0) skip--;
    else page.push(keys[i]!);
  }
  return page;
}

/**
 * A search term as a cache key: 'GMAIL' and 'gmail' find the same rows. Only ASCII is folded here;
 * PostgreSQL's lower() may fold other letters otherwise than JavaScript does, so such a term stays as typed.
 */
export const termKey = (term: string): string => (/^[\x20-\x7e]*$/.test(term) ? term.toLowerCase() : term);

const bytesOf = (index: SearchIndex) => index.keys.byteLength + index.states.byteLength + index.counts.byteLength;

/**
 * The indexes of recent searches, least recently used dropped first past `maxBytes` (an index of a
 * million rows takes 9 MB). Two requests for the same key share one build.
 */
export function createSearchCache(maxBytes = 64 * 1024 * 1024) {
  const kept = new Map<string, SearchIndex>();
  const building = new Map<string, Promise<SearchIndex>>();
  let bytes = 0;

  const keep = (key: string, index: SearchIndex) => {
    if (kept.has(key)) return;
    kept.set(key, index);
    bytes += bytesOf(index);
    for (const [oldKey, old] of kept) {
      if (bytes <= maxBytes || oldKey === key) break;
      kept.delete(oldKey);
      bytes -= bytesOf(old);
    }
  };

  return {
    async get(key: string, build: () => Promise<SearchIndex>): Promise<SearchIndex> {
      const found = kept.get(key);
      if (found) {
        // Most recently used last.
        kept.delete(key);
        kept.set(key, found);
        return found;
      }
      const pending = building.get(key);
      if (pending) return pending;
      const promise = build().then(
        (index) => {
          building.delete(key);
          keep(key, index);
          return index;
        },
        (err: unknown) => {
          building.delete(key);
          throw err;
        },
      );
      building.set(key, promise);
      return promise;
    },
    /** How many indexes are kept (tests). */
    get size() {
      return kept.size;
    },
  };
}

export type SearchCache = ReturnType<typeof createSearchCache>;
