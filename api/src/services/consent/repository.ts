/**
 * The consent ledger (migrations 0026 and 0028; docs/decisions/sign-up.md): every change of a person's
 * subscription, appended in the transaction that makes the change and never edited afterwards (a trigger
 * refuses it; an erasure alone may replace the address by its erased key). Every writer goes through
 * `appendConsent` or `appendImport`, so the ledger speaks one vocabulary.
 */
import type { Sql } from '../../db/database.js';

/** What happened to the person's subscription. */
export type ConsentEvent =
  /** Submitted a form (with the wording version the person saw). */
  | 'SUBSCRIBED'
  /** Confirmed a sign-up by the mail's link. */
  | 'CONFIRMED'
  /** A member added the contact by hand, with the lawful basis chosen. */
  | 'ADDED'
  /** Changed fields or audiences in the preference centre (detail says what). */
  | 'PREFERENCES'
  /** Left an audience (audienceId) or everything (audienceId null). */
  | 'UNSUBSCRIBED'
  /** Came back: to an audience switched on again, or through a confirmed sign-up after unsubscribing. */
  | 'RESUBSCRIBED'
  /** Put on the suppression list (audienceId null): detail.reason is HARD_BOUNCE, COMPLAINT, UNSUBSCRIBE or MANUAL. */
  | 'SUPPRESSED';

/** Why the organisation may mail what a member imports or adds (GDPR art. 6(1)): the wizard's choice. */
export const LAWFUL_BASES = ['CONSENT', 'LEGITIMATE_INTEREST', 'CONTRACT', 'LEGAL_OBLIGATION', 'VITAL_INTEREST', 'PUBLIC_TASK'] as const;
export type LawfulBasis = (typeof LAWFUL_BASES)[number];

export interface ConsentEntry {
  event: ConsentEvent;
  /** Null: the entry concerns the person in every audience (the organisation-wide unsubscribe, a suppression). */
  audienceId: number | null;
  email: string;
  formId?: number | null;
  formName?: string | null;
  consentVersion?: number | null;
  wording?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  memberEmail?: string | null;
  lawfulBasis?: LawfulBasis | null;
  /** What changed, in the product's words (never more personal data than the change itself). */
  detail?: Record<string, unknown> | null;
  /** Default: now. A SUBSCRIBED entry written at confirmation keeps the time of the submission. */
  at?: Date;
}

/** Appends one entry about one person. */
export async function appendConsent(sql: Sql, entry: ConsentEntry): Promise<void> {
  await sql.query(
    `INSERT INTO consent_ledger (audience_id, address_key, email, event, form_id, form_name, consent_version, wording,
       client_address, user_agent, member_email, lawful_basis, detail, created_at)
     VALUES ($1, address_key($2), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, coalesce($13, now()))`,
    [
      entry.audienceId,
      entry.email,
      entry.event,
      entry.formId ?? null,
      entry.formName ?? null,
      entry.consentVersion ?? null,
      entry.wording ?? null,
      entry.clientAddress ?? null,
      entry.userAgent?.slice(0, 500) ?? null,
      entry.memberEmail ?? null,
      entry.lawfulBasis ?? null,
      entry.detail ? JSON.stringify(entry.detail) : null,
      entry.at ?? null,
    ],
  );
}

/**
 * Appends the one entry of an import: every contact it brought shares it (their history joins it by
 * audience), so a million-row import writes one row here, not a million.
 */
export async function appendImport(
  sql: Sql,
  entry: {
    audienceId: number;
    memberEmail: string | null;
    lawfulBasis: LawfulBasis | null;
    contacts: number;
    /** lastContactId: the highest contact id the import wrote, so a contact's history knows whether it came in by it. */
    detail?: Record<string, unknown> | null;
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO consent_ledger (audience_id, event, member_email, lawful_basis, contacts, detail) VALUES ($1, 'IMPORTED', $2, $3, $4, $5)`,
    [entry.audienceId, entry.memberEmail, entry.lawfulBasis, entry.contacts, entry.detail ? JSON.stringify(entry.detail) : null],
  );
}

/** SQL expressions (over the rows of `consentInsertFrom`) for the columns of entries written in bulk. */
export interface ConsentColumnsSql {
  /** The address as written; its key is computed from it, as appendConsent does. */
  email: string;
  audienceId?: string;
  memberEmail?: string;
  lawfulBasis?: string;
  clientAddress?: string;
  userAgent?: string;
  /** A jsonb expression. */
  detail?: string;
}

/**
 * The ledger's insert as SQL, for a statement that makes a change and records it at once (a data-modifying
 * CTE: `WITH changed AS (... RETURNING ...), recorded AS (${consentInsertFrom(...)}) ...`): one entry of
 * `event` per row of `rows`, whatever their number, in the same statement and round trip as the change.
 * The event comes from the ledger's vocabulary (a literal of ConsentEvent, never input); the columns are
 * SQL over `rows`, whose values come from bind parameters or the change's own rows.
 */
export function consentInsertFrom(event: ConsentEvent, rows: string, columns: ConsentColumnsSql): string {
  const or = (expression: string | undefined) => expression ?? 'NULL';
  return `INSERT INTO consent_ledger (audience_id, address_key, email, event, member_email, lawful_basis, client_address, user_agent, detail)
          SELECT ${or(columns.audienceId)}::bigint, address_key(${columns.email}), ${columns.email}, '${event}', ${or(columns.memberEmail)}::text,
                 ${or(columns.lawfulBasis)}::text, ${or(columns.clientAddress)}::text, left(${or(columns.userAgent)}::text, 500), ${or(columns.detail)}::jsonb
            FROM ${rows}`;
}
