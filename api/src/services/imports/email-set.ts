/**
 * The addresses already in an import, for duplicate detection (case-insensitive: callers add
 * lower-cased keys), in about 10 bytes per address whatever its length, so that a list of ten
 * million contacts stays well within a worker's memory. (A set of the addresses themselves costs
 * more than 40 bytes per address: the text, its offsets, the table.)
 *
 * What is kept of a key is a 60-bit hash: 12 bits choose one of 4,096 small open-addressing tables,
 * each growing on its own (so no growth ever copies the whole set), and 48 bits are stored in it.
 * An added key is always found again: `add` never calls a key it has seen new. It may, very rarely,
 * call a new key seen, when its hash equals an earlier key's (for ten million addresses, about once
 * in 20,000 imports); the importer therefore confirms the duplicates against the addresses it
 * stored and, in that case, imports again with another `seed`, which gives other hashes.
 */
const PART_BITS = 12;
const INITIAL_SLOTS = 8;
/** A table doubles past this share of used slots: linear probing stays short below it. */
const MAX_LOAD = 0.8;
const EMPTY = new Uint16Array(0);

export class EmailSet {
  /** Per table, three 16-bit words per slot (one cache line per probe); a first word of 0 is an empty slot. */
  private readonly tables: Uint16Array[] = Array.from({ length: 1 << PART_BITS }, () => EMPTY);
  private readonly counts = new Int32Array(1 << PART_BITS);
  private count = 0;

  constructor(private readonly seed = 0) {}

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was already there (or, very rarely, a key of the same hash was). */
  add(key: string): boolean {
    // Two 32-bit hashes of the UTF-16 code units, seeded, then finalised (murmur3's fmix32).
    let a = 0x811c9dc5 ^ this.seed;
    let b = Math.imul(0x9e3779b9, this.seed + 1) ^ key.length;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b + c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = fmix32(a ^ key.length);
    b = fmix32(b ^ a);
    const first = a >>> 16 || 1;
    const second = a & 0xffff;
    const third = b & 0xffff;
    const part = b >>> (32 - PART_BITS);

    let table = this.tables[part]!;
    if (table === EMPTY) table = this.tables[part] = new Uint16Array(INITIAL_SLOTS * 3);
    const mask = table.length / 3 - 1;
    for (let slot = home(first, second, mask); ; slot = (slot + 1) & mask) {
      const at = slot * 3;
      const stored = table[at]!;
      if (stored === 0) {
        table[at] = first;
        table[at + 1] = second;
        table[at + 2] = third;
        this.count++;
        if (++this.counts[part]! > (mask + 1) * MAX_LOAD) this.tables[part] = grow(table);
        return true;
      }
      if (stored === first && table[at + 1] === second && table[at + 2] === third) return false;
    }
  }
}

/** A key's first slot, from the stored words only, so that a growing table can place it again. */
function home(first: number, second: number, mask: number): number {
  return ((first << 16) | second) & mask;
}

function grow(table: Uint16Array): Uint16Array {
  const bigger = new Uint16Array(table.length * 2);
  const mask = bigger.length / 3 - 1;
  for (let at = 0; at < table.length; at += 3) {
    const first = table[at]!;
    if (first === 0) continue;
    let slot = home(first, table[at + 1]!, mask);
    while (bigger[slot * 3] !== 0) slot = (slot + 1) & mask;
    bigger[slot * 3] = first;
    bigger[slot * 3 + 1] = table[at + 1]!;
    bigger[slot * 3 + 2] = table[at + 2]!;
  }
  return bigger;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
