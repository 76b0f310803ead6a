/**
 * Reading pages of an audience's contacts, fast at a million contacts, for any page.
 *
 * - No filter, or the status filter alone: the page is a range of the dense numbers the import gave
 *   (seq, valid_seq, error_seq; see contact-rows.ts), read from their (audience_id, n) indexes:
 *   O(page size) for the first and the last page alike. The totals are the audience's stored counts:
 *   no row is counted per request.
 * - Email filter (a case-insensitive substring): exact whatever the number of matches. The search's
 *   matching contacts are read once into a SearchIndex (search-index.ts: their numbers in the file and
 *   whether each has an error), kept while the audience's contacts stay as they are (its number of
 *   contacts and its updated_at, which a member's change to one contact bumps, are in the key). The
 *   trigram index on address_key(email) finds rare matches, a scan of the audience frequent ones; every page
 *   of either status is then a scan of the index's bytes and a read of the page's contacts by number.
 */
import type { Contact } from '@mailroom/api-client';
import type { Sql } from '../../db/database.js';
import { countOf, pageOf, searchIndexOf, stateFilter, STATES, termKey, type SearchCache } from '../search-index.js';
import { erasedAtOf, suppressionReasonOf } from '../suppressions/erased.js';

/** A search index's state of a contact with an error; 0 for a valid one. */
const HAS_ERROR = 1;
const WITH_ERROR = stateFilter((state) => state === HAS_ERROR);
const VALID = stateFilter((state) => state !== HAS_ERROR);
const EITHER = stateFilter(() => true);

export interface ContactPageQuery {
  page: number;
  limit: number;
  /** Applied when non-empty after trimming. */
  email?: string | undefined;
  /** true: contacts with an error; false: valid contacts; undefined: all. */
  hasError?: boolean | undefined;
}

export interface AudienceContactCounts {
  id: number;
  numberOfContacts: number;
  numberOfContactsWithErrors: number;
}

/** A contact as the contract defines it. */
export type ContactItem = Contact;

export interface ContactPage {
  items: ContactItem[];
  totalItems: number;
}

interface ContactRow {
  id: number;
  email: string;
  error_message: string | null;
  data: Record<string, string>;
  suppression_reason: Contact['suppressionReason'];
  erased_at: Date | null;
  unsubscribed_at: Date | null;
}

const toItem = (row: ContactRow): ContactItem => ({
  id: row.id,
  email: row.email,
  errorMessage: row.error_message,
  data: row.data,
  suppressionReason: row.suppression_reason,
  // Only on an erased address imported again: every other contact reads as before.
  ...(row.erased_at ? { erasedAt: row.erased_at.toISOString() } : {}),
  // Only on a contact that left this audience in the preference centre (issue 25).
  ...(row.unsubscribed_at ? { unsubscribedAt: row.unsubscribed_at.toISOString() } : {}),
});

/**
 * A page's columns: with the reason its address is suppressed for (an addition to the spec: the list
 * shows an unsubscribed contact as suppressed, not as valid), probes of the suppressions' key per row; an
 * address erased before (services/people) is flagged with the date, as a later import of it must be.
 */
const CONTACT_COLUMNS = `id, email, error_message, data, unsubscribed_at,
  ${suppressionReasonOf('email')} AS suppression_reason, ${erasedAtOf('email')} AS erased_at`;

/** LIKE wildcards in a search term are searched for literally. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A page of an audience's contacts; `searches` keeps the indexes of email searches for their next pages. */
export async function findContactPage(
  db: Sql,
  audience: AudienceContactCounts,
  query: ContactPageQuery,
  searches: SearchCache,
): Promise<ContactPage> {
  const offset = (query.page - 1) * query.limit;
  const term = query.email?.trim() ?? '';

  if (term === '') {
    const column = query.hasError === undefined ? 'seq' : query.hasError ? 'error_seq' : 'valid_seq';
    const totalItems =
      query.hasError === undefined
        ? audience.numberOfContacts
        : query.hasError
          ? audience.numberOfContactsWithErrors
          : audience.numberOfContacts - audience.numberOfContactsWithErrors;
    if (offset >= totalItems) return { items: [], totalItems };
    const { rows } = await db.query<ContactRow>(
      `SELECT ${CONTACT_COLUMNS} FROM contacts
        WHERE audience_id = $1 AND ${column} > $2 AND ${column} <= $3
        ORDER BY ${column}`,
      [audience.id, offset, offset + query.limit],
    );
    return { items: rows.map(toItem), totalItems };
  }

  if (audience.numberOfContacts === 0) return { items: [], totalItems: 0 };
  // A member's change to one contact bumps the audience's updated_at (numbering-repository.ts): an index
  // of contacts' numbers made before it may point at other contacts now.
  const { rows: version } = await db.query<{ v: string }>(`SELECT updated_at::text AS v FROM audiences WHERE id = $1`, [audience.id]);
  const index = await searches.get(`${audience.id}|${audience.numberOfContacts}|${version[0]?.v ?? ''}|${termKey(term)}`, async () => {
    const { rows } = await db.query<{ bytes: Buffer | null }>(
      `SELECT string_agg(int8send(seq::bigint * ${STATES} + CASE WHEN error_message IS NULL THEN 0 ELSE ${HAS_ERROR} END), ''::bytea) AS bytes
         FROM contacts WHERE audience_id = $1 AND address_key(email) LIKE address_key($2)`,
      [audience.id, likeContains(term)],
    );
    return searchIndexOf(rows[0]!.bytes);
  });
  const filter = query.hasError === undefined ? EITHER : query.hasError ? WITH_ERROR : VALID;
  const seqs = pageOf(index, filter, offset, query.limit);
  const { rows } =
    seqs.length === 0
      ? { rows: [] }
      : await db.query<ContactRow>(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE audience_id = $1 AND seq = ANY($2::int[]) ORDER BY seq`, [
          audience.id,
          seqs,
        ]);
  return { items: rows.map(toItem), totalItems: countOf(index, filter) };
}

/** Deletes up to `limit` contacts of an audience (the purge's batch); resolves with how many went. */
export async function deleteContactBatch(tx: Sql, audienceId: number, limit: number): Promise<number> {
  const { rowCount } = await tx.query(
    `DELETE FROM contacts WHERE id IN (SELECT id FROM contacts WHERE audience_id = $1 LIMIT ${Number(limit)})`,
    [audienceId],
  );
  return rowCount;
}
