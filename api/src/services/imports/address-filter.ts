/**
 * The addresses already seen in an import, as a Bloom filter of a fixed size: `mayHave` never
 * answers false for an address that was added, and answers true for one that was not only rarely
 * (a false positive). Its memory is the same for ten rows or twenty million, unlike a set of the
 * addresses or of their hashes, which grows with the file (duplicates.ts says how a "maybe" is
 * settled exactly).
 *
 * 2^27 bits (16 MiB) and 7 bits an address: about 1 false positive in 500 addresses at ten
 * million addresses, 1 in 20 at twenty million (what IMPORT_MAX_BYTES lets through at most for the
 * shortest addresses); every one of them costs only a lookup.
 */
const DEFAULT_BITS = 2 ** 27;
const PROBES = 7;

export class AddressFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;

  /** `bits`: a power of two (tests take a tiny filter, to meet false positives at once). `seed`: of the hashes. */
  constructor(
    private readonly seed = 0,
    bits = DEFAULT_BITS,
  ) {
    if (!Number.isInteger(Math.log2(bits)) || bits < 32)
      throw new Error(`an AddressFilter takes a power of two of at least 32 bits, not ${bits}`);
    this.words = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** Bytes the filter takes, whatever was added. */
  get byteLength(): number {
    return this.words.byteLength;
  }

  add(key: string): void {
    this.probe(key, true);
  }

  /** False: the key was never added. True: it was, or (rarely) another key shares its bits. */
  mayHave(key: string): boolean {
    return this.probe(key, false);
  }

  /** Double hashing: the i-th probe is a + i * b over the bits (b odd, so the probes differ). */
  private probe(key: string, set: boolean): boolean {
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
    b = fmix32(b ^ a) | 1;
    let found = true;
    for (let i = 0; i < PROBES; i++) {
      const bit = (a + Math.imul(i, b)) & this.mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if ((this.words[word]! & flag) === 0) {
        if (!set) return false;
        found = false;
        this.words[word] = this.words[word]! | flag;
      }
    }
    return found;
  }
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
