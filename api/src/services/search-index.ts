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
 * the searches fold other letters with address_key (migration 0017: ICU's tables, whose Unicode
 * version may differ from this Node's in rare letters), so such a term stays as typed.
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

/** Where a keyset page starts: the newest rows, rows older than `after`, newer than `before`, or the oldest. */
export interface KeysetCursor {
  after?: number | undefined;
  before?: number | undefined;
  end?: boolean | undefined;
}

export interface KeysetPage {
  /** The page's keys, newest (largest) first. */
  keys: number[];
  hasNewer: boolean;
  hasOlder: boolean;
  /** How many kept rows come before the page in newest-first order. */
  offset: number;
}

/** The first index whose key is above `key` (keys ascend). */
function upperBound(keys: Float64Array, key: number): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keys[mid]! <= key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * A keyset page over an index shown newest (largest key) first, for lists paged by cursor rather
 * than by number (the suppressions): a binary search for the cursor, then a walk of the bytes. The
 * offset costs one more walk from the nearer end, at most half the rows.
 */
export function keysetPageOf(index: SearchIndex, filter: StateFilter, cursor: KeysetCursor, limit: number): KeysetPage {
  const { keys, states } = index;
  const kept = (i: number) => filter[states[i]!] === 1;
  const walk = (from: number, step: 1 | -1, take: number): number[] => {
    const found: number[] = [];
    for (let i = from; i >= 0 && i < keys.length && found.length < take; i += step) if (kept(i)) found.push(i);
    return found;
  };
  let positions: number[];
  if (cursor.end) positions = walk(0, 1, limit).reverse();
  else if (cursor.before !== undefined) positions = walk(upperBound(keys, cursor.before), 1, limit).reverse();
  else if (cursor.after !== undefined) positions = walk(upperBound(keys, cursor.after - 1) - 1, -1, limit);
  else positions = walk(keys.length - 1, -1, limit);
  const newest = positions[0];
  const oldest = positions[positions.length - 1];
  // Kept rows newer than the page, counted from the nearer end (the total comes from the state counts).
  let offset = 0;
  if (newest !== undefined) {
    if (newest >= keys.length / 2) for (let i = newest + 1; i < keys.length; i++) offset += filter[states[i]!]!;
    else {
      let upTo = 0;
      for (let i = 0; i <= newest; i++) upTo += filter[states[i]!]!;
      offset = countOf(index, filter) - upTo;
    }
  }
  const exists = (from: number, step: 1 | -1) => walk(from, step, 1).length > 0;
  return {
    keys: positions.map((i) => keys[i]!),
    hasNewer: newest !== undefined ? exists(newest + 1, 1) : cursor.after !== undefined && exists(upperBound(keys, cursor.after - 1), 1),
    hasOlder:
      oldest !== undefined ? exists(oldest - 1, -1) : cursor.before !== undefined && exists(upperBound(keys, cursor.before) - 1, -1),
    offset,
  };
}
