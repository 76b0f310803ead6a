/**
 * The set of addresses already in an import, for duplicate detection (case-insensitive: callers
 * add lower-cased keys). A plain Set<string> of a million addresses holds a million string objects
 * and, since V8 keeps substrings as slices of their parent, every chunk of the file they were cut
 * from: well over 100 MB. This one keeps the keys' UTF-8 bytes in one growing buffer and an
 * open-addressing table of offsets: about 40 bytes per address, exact (colliding hashes are
 * compared byte for byte).
 */
export class EmailSet {
  private bytes: Buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  /** Start of key i in `bytes` (key i ends where key i + 1 starts, or at `used`). */
  private starts: Int32Array = new Int32Array(1 << 12);
  private count = 0;
  /** Open addressing: 0 empty, else key index + 1. */
  private slots: Int32Array = new Int32Array(1 << 13);
  private hashes: Int32Array = new Int32Array(1 << 13);

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was already there. */
  add(key: string): boolean {
    const maxBytes = key.length * 3;
    if (this.used + maxBytes > this.bytes.length) this.growBytes(this.used + maxBytes);
    const start = this.used;
    const length = this.bytes.write(key, start, 'utf8');
    const hash = fnv1a(this.bytes, start, start + length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) {
        if (this.count === this.starts.length) this.starts = grow(this.starts);
        this.starts[this.count] = start;
        this.count++;
        this.used = start + length;
        this.slots[slot] = this.count;
        this.hashes[slot] = hash;
        if (this.count * 2 > this.slots.length) this.rehash();
        return true;
      }
      if (this.hashes[slot] === hash) {
        const other = entry - 1;
        const otherStart = this.starts[other]!;
        const otherEnd = other + 1 < this.count ? this.starts[other + 1]! : this.used;
        if (this.bytes.compare(this.bytes, start, start + length, otherStart, otherEnd) === 0) return false;
      }
    }
  }

  private growBytes(minimum: number): void {
    let size = this.bytes.length * 2;
    while (size < minimum) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.bytes.copy(bigger, 0, 0, this.used);
    this.bytes = bigger;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const hashes = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let i = 0; i < this.slots.length; i++) {
      const entry = this.slots[i]!;
      if (entry === 0) continue;
      const hash = this.hashes[i]!;
      let slot = hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry;
      hashes[slot] = hash;
    }
    this.slots = slots;
    this.hashes = hashes;
  }
}

function grow(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

function fnv1a(bytes: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, 0x01000193);
  }
  // Spread the low bits (the table index) over the whole hash.
  hash ^= hash >>> 15;
  return hash | 0;
}
