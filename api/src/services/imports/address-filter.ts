/**
 * The addresses already seen in an import, as a Bloom filter of a fixed size: `check` never
 * answers false for an address that was added, and answers true for one that was not only rarely
 * (a false positive). Its memory is the same for ten rows or twenty million, unlike a set of the
 * addresses or of their hashes, which grows with the file (duplicates.ts says how a "maybe" is
 * settled exactly).
 *
 * Blocked: an address's 7 bits are all in one 64-byte block of the 2^27 bits (16 MiB), so a check
 * costs one cache miss, not seven. About 1 false positive in 250 addresses at ten million
 * addresses, 1 in 20 at twenty million (about the most the default IMPORT_MAX_BYTES, 200 MB, holds
 * of the shortest addresses); each of them costs a lookup, nothing more.
 */
const DEFAULT_BITS = 2 ** 27;
const BLOCK_BITS = 512;
const PROBES = 7;

export class AddressFilter {
  private readonly words: Uint32Array;
  private readonly blockMask: number;

  /** `bits`: a power of two of at least 512 (tests take a tiny filter, to meet false positives at once). `seed`: of the hashes. */
  constructor(
    private readonly seed = 0,
    bits = DEFAULT_BITS,
  ) {
    if (!Number.isInteger(Math.log2(bits)) || bits < BLOCK_BITS) {
      throw new Error(`an AddressFilter takes a power of two of at least ${BLOCK_BITS} bits, not ${bits}`);
    }
    this.words = new Uint32Array(bits / 32);
    this.blockMask = bits / BLOCK_BITS - 1;
  }

  /** Bytes the filter takes, whatever was added. */
  get byteLength(): number {
    return this.words.byteLength;
  }

  /** Adds the key; answers whether it may have been added before (false: certainly not). */
  check(key: string): boolean {
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
    // The block from a's low bits; the bits in it by double hashing on b and a's high bits (odd, so the probes differ).
    const block = (a & this.blockMask) * (BLOCK_BITS / 32);
    const step = (a >>> 16) | 1;
    let seen = true;
    for (let i = 0; i < PROBES; i++) {
      const bit = (b + Math.imul(i, step)) & (BLOCK_BITS - 1);
      const word = block + (bit >>> 5);
      const flag = 1 << (bit & 31);
      if ((this.words[word]! & flag) === 0) {
        seen = false;
        this.words[word] = this.words[word]! | flag;
      }
    }
    return seen;
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
