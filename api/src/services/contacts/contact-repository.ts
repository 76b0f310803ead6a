/**
 * One contact's reads and checks, for its drawer and a member's changes (issue 24; the numbering of
 * additions and deletions is numbering-repository.ts). Each read is a probe of an index:
 *  - the contact by id (its audience checked: another audience's contact is not found);
 *  - an address in the audience by (audience_id, address_key(email)) (migration 0017);
 *  - the contact's mails by the campaigns of its audience and (campaign_id, contact_id), so they are
 *    found whatever address they went to, one probe a campaign;
 *  - its suppression and erasure by key (suppressions/erased.ts).
 */
import type { ContactDetail, PersonMail, PersonSuppression } from '@mailroom/api-client';
import type { Sql, Tx } from '../../db/database.js';
import { cameByImport, consentColumns, consentJoin, iso } from '../people/repository.js';
import type { NumberedContact } from './numbering-repository.js';

/** How many of a contact's mails its drawer lists, newest first (`totalMails` counts them all). */
export const LISTED_CONTACT_MAILS = 50;

export interface StoredContact extends NumberedContact {
  /** Its audience's fields' keys in order. */
  headers: string[];
  email: string;
  errorMessage: string | null;
  data: Record<string, unknown>;
}

/** The contact `contactId` of the audience `audienceId` (live), with its numbers; undefined otherwise. */
export async function findContact(sql: Sql, audienceId: number, contactId: number, lock = false): Promise<StoredContact | undefined> {
  const { rows } = await sql.query<StoredContact>(
    `SELECT c.id, c.audience_id AS "audienceId", c.seq, c.valid_seq AS "validSeq", c.error_seq AS "errorSeq",
            c.email, c.error_message AS "errorMessage", c.data, a.headers
       FROM contacts c JOIN audiences a ON a.id = c.audience_id AND a.deleted_at IS NULL
      WHERE c.id = $2 AND c.audience_id = $1 ${lock ? 'FOR UPDATE OF c' : ''}`,
    [audienceId, contactId],
  );
  return rows[0];
}

/** One consent ledger entry `l` as the contract's ConsentRecordEntry. */
const CONSENT_ENTRY = `l.id, ${iso('l.created_at')} AS at, l.event, l.audience_id AS "audienceId", l.form_id AS "formId", l.form_name AS "formName",
         l.consent_version AS "consentVersion", l.wording, l.member_email AS "memberEmail", l.lawful_basis AS "lawfulBasis",
         l.client_address AS "clientAddress", l.contacts, l.detail`;

/**
 * The contact's consent history (issue 25), oldest first, for the CTE `contact`: the audience's IMPORTED entry
 * when the contact came in by it (cameByImport), then the ledger's entries of this audience and address and those
 * of the address in every audience (audience null). Two probes, one a branch: the imports' index and the address's.
 */
const CONSENT_HISTORY = `
  SELECT ${CONSENT_ENTRY} FROM contact c JOIN consent_ledger l
      ON l.audience_id = c.audience_id AND l.event = 'IMPORTED' AND ${cameByImport('l', 'c')}
  UNION ALL
  SELECT ${CONSENT_ENTRY} FROM contact c JOIN consent_ledger l
      ON l.address_key = address_key(c.email) AND (l.audience_id = c.audience_id OR l.audience_id IS NULL)`;

/** The contact's consent events and history, mails (newest first) and suppression, in one statement (one snapshot). */
export async function contactHistory(
  sql: Sql,
  audienceId: number,
  contactId: number,
): Promise<Pick<ContactDetail, 'consent' | 'consentHistory' | 'mails' | 'totalMails' | 'suppression'>> {
  const { rows } = await sql.query<{
    consent: ContactDetail['consent'];
    consentHistory: ContactDetail['consentHistory'];
    mails: PersonMail[];
    totalMails: number;
    suppression: PersonSuppression | null;
  }>(
    `WITH contact AS (SELECT * FROM contacts WHERE id = $2 AND audience_id = $1),
          jobs AS (SELECT j.*, c.name AS campaign_name, c.subject AS campaign_subject
                     FROM campaigns c JOIN campaign_jobs j ON j.campaign_id = c.id AND j.contact_id = $2
                    WHERE c.audience_id = $1)
     SELECT (SELECT coalesce(json_agg(x), '[]') FROM (
               SELECT "addedHow" AS kind, "importedAt" AS at, "importedBy" AS by, a.id AS "audienceId", a.name AS "audienceName"
                 FROM (SELECT a.*, ${consentColumns('a')} FROM audiences a JOIN contact c ON true ${consentJoin('a', 'c')}
                        WHERE a.id = $1) a) x) AS consent,
            (SELECT coalesce(json_agg(x ORDER BY x.at, x.id), '[]') FROM (${CONSENT_HISTORY}) x) AS "consentHistory",
            (SELECT coalesce(json_agg(x ORDER BY x.id DESC), '[]') FROM (
               SELECT j.id, j.campaign_id AS "campaignId", j.campaign_name AS "campaignName", j.campaign_subject AS subject, j.status,
                      ${iso('j.created_at')} AS "createdAt", ${iso('j.sent_at')} AS "sentAt", j.bounce_type AS "bounceType",
                      ${iso('j.bounce_time')} AS "bounceTime", j.complaint_type AS "complaintType", ${iso('j.complaint_time')} AS "complaintTime",
                      json_build_object('people', h.opens_people, 'machines', h.opens_machines) AS opens,
                      json_build_object('people', h.clicks_people, 'machines', h.clicks_machines) AS clicks
                 FROM jobs j
                 CROSS JOIN LATERAL (
                   SELECT count(*) FILTER (WHERE e.kind = 'OPEN' AND NOT e.machine)::int AS opens_people,
                          count(*) FILTER (WHERE e.kind = 'OPEN' AND e.machine)::int AS opens_machines,
                          count(*) FILTER (WHERE e.kind = 'CLICK' AND NOT e.machine AND NOT coalesce(l.hidden, false))::int AS clicks_people,
                          count(*) FILTER (WHERE e.kind = 'CLICK' AND e.machine AND NOT coalesce(l.hidden, false))::int AS clicks_machines
                     FROM tracking_events e LEFT JOIN campaign_links l ON l.id = e.link_id WHERE e.job_id = j.id) h
                ORDER BY j.id DESC LIMIT ${LISTED_CONTACT_MAILS}) x) AS mails,
            (SELECT count(*)::int FROM jobs) AS "totalMails",
            (SELECT row_to_json(x) FROM (
               SELECT s.reason, ${iso('s.created_at')} AS "createdAt", s.campaign_id AS "campaignId", k.name AS "campaignName",
                      s.added_by_email AS "addedBy"
                 FROM contact c JOIN suppressions s ON s.email_lower IN (address_key(c.email), erased_key(c.email))
                 LEFT JOIN campaigns k ON k.id = s.campaign_id
                ORDER BY s.reason = 'ERASED' DESC LIMIT 1) x) AS suppression`,
    [audienceId, contactId],
  );
  return rows[0]!;
}

/** Another contact of the audience with the same address (compared as every address is: address_key). */
export async function sameAddressInAudience(sql: Sql, audienceId: number, email: string, exceptId?: number): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM contacts WHERE audience_id = $1 AND address_key(email) = address_key($2) AND id IS DISTINCT FROM $3 LIMIT 1`,
    [audienceId, email, exceptId ?? null],
  );
  return rows.length > 0;
}

/** When the address was erased (its erased key is on the suppression list as ERASED), or null. */
export async function erasedAt(sql: Sql, email: string): Promise<Date | null> {
  const { rows } = await sql.query<{ at: Date }>(
    `SELECT created_at AS at FROM suppressions WHERE email_lower = erased_key($1) AND reason = 'ERASED'`,
    [email],
  );
  return rows[0]?.at ?? null;
}

/**
 * The person gave consent again: their erased key leaves the suppression list, so the address can be
 * mailed (the mails kept under the key stay as they are).
 */
export async function liftErasure(tx: Tx, email: string): Promise<void> {
  await tx.query(`DELETE FROM suppressions WHERE email_lower = erased_key($1) AND reason = 'ERASED'`, [email]);
}
