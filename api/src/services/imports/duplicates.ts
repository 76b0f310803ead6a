/**
 * Duplicate addresses within one import (docs/product.md: 'Duplicate email address in this
 * audience'): a valid contact whose address, lower-cased, a valid contact earlier in the file
 * already has. Exact, in memory that does not grow with the file.
 *
 * The importer stores the file in segments, one after the other, and marks each segment's
 * duplicates before it writes it:
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
   * Marks the duplicates of the next segment of the file (error DUPLICATE_EMAIL). Called with the
   * segments in file order, each once every segment before it is stored.
   */
  async mark(segment: ContactRow[]): Promise<void> {
    /** The segment's valid addresses, lower-cased: the first contact of each is not a duplicate within the segment. */
    const firsts = new Set<string>();
    const unsure: { contact: ContactRow; address: string }[] = [];
    for (const contact of segment) {
      if (contact.error !== null) continue;
      const address = contact.email.toLowerCase();
      if (firsts.has(address)) {
        contact.error = DUPLICATE_EMAIL;
        continue;
      }
      firsts.add(address);
      if (this.filter.mayHave(address)) unsure.push({ contact, address });
    }
    if (unsure.length > 0) {
      // The database finds them by address_key (the same Unicode lower-casing); compared here again as the file is.
      const stored = new Set((await this.storedAddresses(unsure.map(({ contact }) => contact.email))).map((email) => email.toLowerCase()));
      for (const { contact, address } of unsure) if (stored.has(address)) contact.error = DUPLICATE_EMAIL;
    }
    for (const address of firsts) this.filter.add(address);
  }
}
