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
import type { Sql } from '../../db/database.js';
import { DUPLICATE_EMAIL } from './email.js';

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

export async function findContactPage(db: Sql, audience: AudienceContactCounts, query: ContactPageQuery): Promise<ContactPage> {
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

/** Deletes up to `limit` contacts of an audience (the purge's batch); resolves with how many went. */
export async function deleteContactBatch(tx: Sql, audienceId: number, limit: number): Promise<number> {
  const { rowCount } = await tx.query(
    `DELETE FROM contacts WHERE id IN (SELECT id FROM contacts WHERE audience_id = $1 LIMIT ${Number(limit)})`,
    [audienceId],
  );
  return rowCount;
}

/** A contact as the import stored it: its place in the file, among its contacts with an error, and its address. */
export interface StoredAddress {
  seq: number;
  errorSeq: number | null;
  email: string;
}

/**
 * Contacts of an audience marked as duplicates (by the import, which finds them by hash) that
 * PostgreSQL cannot confirm: no valid contact before them has the same address, compared with
 * ASCII case folding. Equal under ASCII folding means equal under any case folding, so what this
 * confirms is certain; what it leaves (`ZOË` after `zoë`, or a hash collision) the caller compares
 * itself. At most `limit` of them after `afterErrorSeq`, in file order.
 *
 * The duplicates come from the error_seq index; the valid contacts are read once, each looked up
 * in a hash of the duplicates' addresses. `COLLATE "C"` makes lower() fold ASCII letters only,
 * whatever the database's locale. `db`: the import's transaction, before its commit: the planner's
 * statistics do not count the new contacts yet, so it would guess a row or two on each side and loop
 * over the duplicates once per contact (five minutes at 200,000 contacts). Hash joins only, then,
 * for this statement.
 */
export async function unconfirmedDuplicates(db: Sql, audienceId: number, afterErrorSeq: number, limit: number): Promise<StoredAddress[]> {
  const { rows: settings } = await db.query<{ nestloop: string; mergejoin: string }>(
    `SELECT current_setting('enable_nestloop') AS nestloop, current_setting('enable_mergejoin') AS mergejoin,
            set_config('enable_nestloop', 'off', true), set_config('enable_mergejoin', 'off', true)`,
  );
  const { rows } = await db.query<StoredAddress>(
    `WITH duplicates AS MATERIALIZED (
       SELECT seq, error_seq, email, lower(email COLLATE "C") AS address FROM contacts
        WHERE audience_id = $1 AND error_seq > $3 AND error_message = $2
     ), firsts AS (
       SELECT lower(email COLLATE "C") AS address, min(seq) AS seq FROM contacts
        WHERE audience_id = $1 AND valid_seq IS NOT NULL AND lower(email COLLATE "C") IN (SELECT address FROM duplicates)
        GROUP BY 1
     )
     SELECT d.seq, d.error_seq AS "errorSeq", d.email FROM duplicates d LEFT JOIN firsts f ON f.address = d.address
      WHERE f.seq IS NULL OR f.seq > d.seq
      ORDER BY d.error_seq LIMIT $4`,
    [audienceId, DUPLICATE_EMAIL, afterErrorSeq, limit],
  );
  await db.query(`SELECT set_config('enable_nestloop', $1, true), set_config('enable_mergejoin', $2, true)`, [
    settings[0]!.nestloop,
    settings[0]!.mergejoin,
  ]);
  return rows;
}

/** Valid contacts of an audience in file order, `limit` at a time after `afterSeq`. */
export async function validAddressesAfter(db: Sql, audienceId: number, afterSeq: number, limit: number): Promise<StoredAddress[]> {
  const { rows } = await db.query<StoredAddress>(
    `SELECT seq, error_seq AS "errorSeq", email FROM contacts
      WHERE audience_id = $1 AND seq > $2 AND valid_seq IS NOT NULL ORDER BY seq LIMIT $3`,
    [audienceId, afterSeq, limit],
  );
  return rows;
}
