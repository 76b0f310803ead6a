/**
 * Duplicate addresses within one import (docs/product.md: 'Duplicate email address in this
 * audience'): a valid contact whose address, lower-cased, a valid contact earlier in the file
 * already has. Exact, in memory that does not grow with the file.
 *
 * The importer stores the file in segments, one after the other, and marks each segment's
 * duplicates before it writes it (its numbers depend on them):
 *  - within the segment, with a set of the segment's own addresses (a segment is bounded);
 *  - against the segments already stored, with a Bloom filter of their addresses
 *    (address-filter.ts, fixed size): most addresses are certainly new; for the few it cannot rule
 *    out (the duplicates, and its rare false positives) PostgreSQL answers, from the contacts the
 *    import has already copied in its transaction, through their (audience, address key) index.
 *
 * Rejected: a set of every address (or of their hashes) in the worker, which grows with the file
 * (314 MB at ten million rows); a staging table numbered with window functions, which writes every
 * row twice; a table of seen addresses with a unique key, which doubles the index work of the COPY.
 */
import { randomInt } from 'node:crypto';
import { DUPLICATE_EMAIL } from '../contacts/email.js';
import { AddressFilter } from './address-filter.js';
import type { ContactRow } from './contact-rows.js';

/** The stored valid addresses equal to some of `emails` under the address key (the database's lower-casing). */
export type StoredAddresses = (emails: string[]) => Promise<string[]>;

export class DuplicateFinder {
  private readonly filter: AddressFilter;

  /** `filterBits`: tests take a tiny filter, so that false positives come at once. */
  constructor(
    private readonly storedAddresses: StoredAddresses,
    filterBits?: number,
  ) {
    // Seeded at random: no file can be made to send every address to the database.
    this.filter = new AddressFilter(randomInt(2 ** 31), filterBits);
  }

  /**
   * Marks the duplicates of the next segment of the file (error DUPLICATE_EMAIL) that need nothing
   * stored: those within the segment. Called with the segments in file order. Answers the
   * contacts that may have an address of an earlier segment, for `markStored` once every segment
   * before this one is stored.
   */
  markWithin(segment: ContactRow[]): Unsure[] {
    /** The segment's valid addresses, lower-cased: the first contact of each is not a duplicate within the segment. */
    const firsts = new Set<string>();
    const unsure: Unsure[] = [];
    for (const contact of segment) {
      if (contact.error !== null) continue;
      const address = contact.email.toLowerCase();
      if (firsts.has(address)) {
        contact.error = DUPLICATE_EMAIL;
        continue;
      }
      firsts.add(address);
      // A "maybe" may also come from an address earlier in this segment: one lookup more, no harm.
      if (this.filter.check(address)) unsure.push({ contact, address });
    }
    return unsure;
  }

  /** Marks those of `unsure` whose address a stored contact has; answers how many. */
  async markStored(unsure: Unsure[]): Promise<number> {
    if (unsure.length === 0) return 0;
    // The database finds them by address_key (the same Unicode lower-casing); compared here again as the file is.
    const stored = new Set((await this.storedAddresses(unsure.map(({ contact }) => contact.email))).map((email) => email.toLowerCase()));
    let marked = 0;
    for (const { contact, address } of unsure) {
      if (!stored.has(address)) continue;
      contact.error = DUPLICATE_EMAIL;
      marked++;
    }
    return marked;
  }
}

/** A contact whose address the filter cannot rule out: it may be a duplicate of an earlier segment's. */
export interface Unsure {
  contact: ContactRow;
  address: string;
}
