/**
 * Reading pages of an audience's contacts, fast at a million contacts, for any page.
 *
 * - No filter, or the status filter alone: the page is a range of the dense numbers the import gave
 *   (seq, valid_seq, error_seq; see contact-rows.ts), read from their (audience_id, n) indexes:
 *   O(page size) for the first and the last page alike. The totals are the audience's stored counts:
 *   no row is counted per request.
 * - Email filter (a case-insensitive substring): the trigram index on lower(email) finds rare
 *   matches, and a walk of the (audience_id, seq) index finds frequent ones early; PostgreSQL's
 *   planner picks. A search is about finding someone, so it covers the first SEARCH_CAP matches in
 *   file order: the count, and the OFFSET inside it, are bounded by that cap whatever the term
 *   ("example" matching a million rows costs the same as a term matching 10,000).
 */
import type { Contact } from '@mailroom/api-client';
import type pg from 'pg';

/** Matches of an email search that can be counted and paged through. */
export const SEARCH_CAP = 10_000;

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
}

const toItem = (row: ContactRow): ContactItem => ({
  id: row.id,
  email: row.email,
  errorMessage: row.error_message,
  data: row.data,
});

/** LIKE wildcards in a search term are searched for literally. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function findContactPage(
  db: pg.Pool | pg.PoolClient,
  audience: AudienceContactCounts,
  query: ContactPageQuery,
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
      `SELECT id, email, error_message, data FROM contacts
        WHERE audience_id = $1 AND ${column} > $2 AND ${column} <= $3
        ORDER BY ${column}`,
      [audience.id, offset, offset + query.limit],
    );
    return { items: rows.map(toItem), totalItems };
  }

  const status = query.hasError === undefined ? '' : query.hasError ? 'AND error_message IS NOT NULL' : 'AND error_message IS NULL';
  // One statement: the capped set of matching (seq, id), its size, and the page joined back.
  const { rows } = await db.query<ContactRow & { total: number }>(
    `WITH matches AS MATERIALIZED (
       SELECT id, seq FROM contacts
        WHERE audience_id = $1 AND lower(email) LIKE lower($2) ${status}
        ORDER BY seq LIMIT ${SEARCH_CAP}
     ), page AS (
       SELECT id, seq FROM matches ORDER BY seq LIMIT $3 OFFSET $4
     )
     SELECT t.total, c.id, c.email, c.error_message, c.data
       FROM (SELECT count(*)::int AS total FROM matches) t
       LEFT JOIN (page p JOIN contacts c ON c.id = p.id) ON true
      ORDER BY p.seq`,
    [audience.id, likeContains(term), query.limit, offset],
  );
  const totalItems = rows[0]?.total ?? 0;
  return { items: rows.filter((row) => row.id !== null).map(toItem), totalItems };
}
