/** The search index on its own: what PostgreSQL answers read back in key order, windows from either end, the cache's keys. */
import { describe, expect, it } from 'vitest';
import { countOf, createSearchCache, pageOf, searchIndexOf, stateFilter, STATES, termKey } from './search-index.js';

/** What a build statement answers for these [key, state] rows, in the order given. */
function answer(rows: [number, number][]): Buffer {
  const bytes = Buffer.alloc(rows.length * 8);
  rows.forEach(([key, state], i) => bytes.writeBigInt64BE(BigInt(key * STATES + state), i * 8));
  return bytes;
}

describe('the search index', () => {
  // Keys 1..100 in a shuffled order; state = key % 3.
  const rows = Array.from({ length: 100 }, (_, i) => [((i * 37) % 100) + 1, (((i * 37) % 100) + 1) % 3] as [number, number]);
  const index = searchIndexOf(answer(rows));
  const keys = (state: number) => Array.from({ length: 100 }, (_, i) => i + 1).filter((key) => key % 3 === state);

  it('reads the rows in key order with their states and counts', () => {
    expect(Array.from(index.keys)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(
      countOf(
        index,
        stateFilter((state) => state === 1),
      ),
    ).toBe(keys(1).length);
    expect(
      countOf(
        index,
        stateFilter(() => true),
      ),
    ).toBe(100);
    expect(searchIndexOf(null).keys).toHaveLength(0);
  });

  it('gives every window of a filter, from whichever end is nearer', () => {
    const filter = stateFilter((state) => state === 2);
    const want = keys(2);
    for (let offset = 0; offset <= want.length + 1; offset++)
      for (const limit of [1, 7])
        expect(pageOf(index, filter, offset, limit), `${offset} ${limit}`).toEqual(want.slice(offset, offset + limit));
  });

  it('keeps an index per key, builds a key once for concurrent requests, and drops the least recently used', async () => {
    const cache = createSearchCache(3 * (100 * 9 + STATES * 4));
    let builds = 0;
    const build = async () => {
      builds++;
      return searchIndexOf(answer(rows));
    };
    await Promise.all([cache.get('a', build), cache.get('a', build)]);
    expect(builds).toBe(1);
    await cache.get('b', build);
    await cache.get('c', build);
    await cache.get('a', build);
    await cache.get('d', build);
    expect(builds).toBe(4);
    expect(cache.size).toBe(3);
    await cache.get('a', build);
    expect(builds).toBe(4);
    await cache.get('b', build);
    expect(builds).toBe(5);
  });

  it('folds the case of ASCII terms only', () => {
    expect(termKey('GMail.com')).toBe('gmail.com');
    expect(termKey('İSTANBUL')).toBe('İSTANBUL');
  });
});
