/**
 * What is held about one address (issue 24), read by its key: the address folded by address_key() in
 * the database, the fold every comparison of addresses uses. Each read is a probe of an index on that
 * key, so a person is found in milliseconds whatever the number of contacts and mails:
 *  - contacts: one probe of (audience_id, address_key(email)) per audience (migration 0017), no scan;
 *  - mails: campaign_jobs_email_key (migration 0022); their opens and clicks by (job_id, kind);
 *  - the suppression and its removals by key, the imports' entries by (object_type, object_id).
 * The person's page is one statement (one snapshot, one round trip), its parts built as JSON by
 * PostgreSQL; the export reads the same parts, and more, in one snapshot. Raw SQL: these are reads
 * across features, each shaped for its index. Their one parameter, $1, is the key.
 */
import type {
  Person,
  PersonActivity,
  PersonContact,
  PersonExportMail,
  PersonHit,
  PersonSuppression,
  PersonSuppressionRemoval,
} from '@mailroom/api-client';
import type { Sql } from '../../db/database.js';

/** How many mails the person's page lists, newest first (the export holds every one). */
export const LISTED_MAILS = 100;

/** A time as the API writes every time: ISO 8601 in UTC with milliseconds, as Date.toISOString(). */
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Whether the contact `contact` came into its audience by the import whose IMPORTED ledger entry is `entry`
 * (issue 25; docs/decisions/sign-up.md, "Consent record"): the import wrote contact ids up to its detail's
 * lastContactId, and an audience with contacts takes no import, so every contact at or below it existed when
 * the import finished and every later one (added by hand, signed up) is above it. An entry without that
 * detail counts every contact of the audience that the ledger does not show added by hand or signed up.
 */
export const cameByImport = (entry: string, contact: string) => `
  CASE WHEN ${entry}.detail ? 'lastContactId' THEN ${contact}.id <= (${entry}.detail->>'lastContactId')::bigint
       ELSE NOT EXISTS (SELECT 1 FROM consent_ledger joined
                         WHERE joined.audience_id = ${entry}.audience_id AND joined.address_key = address_key(${contact}.email)
                           AND joined.event IN ('ADDED', 'SUBSCRIBED')) END`;

/**
 * How a contact came into its audience, from the consent ledger (issue 25) where it knows: the newest entry of
 * the contact's own joining (`joined`: added by hand, signed up or confirmed through a form), else the import
 * that brought it in (`imported`, cameByImport). For a contact that came in before the ledger recorded imports
 * and additions (`logged`): the activity log's contact-add entry naming its id, else its audience's latest
 * import-finished entry, else the import's queuing, else the audience's creation once the log's retention has
 * swept those. LATERAL joins of the contact `contact` of audience `audience`; shared by the person's page and
 * the contact drawer.
 */
export const consentJoin = (audience: string, contact: string) => `
  LEFT JOIN LATERAL (SELECT CASE WHEN event = 'ADDED' THEN 'hand' ELSE 'form' END AS kind,
                            CASE WHEN event = 'ADDED' THEN member_email ELSE form_name END AS by, created_at
                       FROM consent_ledger
                      WHERE audience_id = ${audience}.id AND address_key = address_key(${contact}.email)
                        AND event IN ('ADDED', 'SUBSCRIBED', 'CONFIRMED')
                      ORDER BY id DESC LIMIT 1) joined ON true
  LEFT JOIN LATERAL (SELECT l.member_email AS by, l.created_at FROM consent_ledger l
                      WHERE l.audience_id = ${audience}.id AND l.event = 'IMPORTED' AND ${cameByImport('l', contact)}
                      ORDER BY l.id DESC LIMIT 1) imported ON true
  LEFT JOIN LATERAL (SELECT CASE WHEN kind = 'contact-add' THEN 'hand' ELSE 'import' END AS kind, member_email AS by, created_at FROM activity
                      WHERE joined.kind IS NULL AND imported.created_at IS NULL
                        AND object_type = 'audience' AND object_id = ${audience}.id
                        AND (kind IN ('import-finished', 'import') OR (kind = 'contact-add' AND details->>'contactId' = ${contact}.id::text))
                      ORDER BY kind = 'contact-add' DESC, kind = 'import-finished' DESC, created_at DESC LIMIT 1) logged ON true`;

/** The columns of consentJoin, as the contract's PersonContact names them (a form's "by" is its name, as the person gave it). */
export const consentColumns = (audience: string) => `
   ${iso(`coalesce(joined.created_at, imported.created_at, logged.created_at, ${audience}.created_at)`)} AS "importedAt",
   CASE WHEN joined.kind IS NOT NULL THEN joined.by WHEN imported.created_at IS NOT NULL THEN imported.by
        ELSE coalesce(logged.by, ${audience}.created_by_email) END AS "importedBy",
   coalesce(joined.kind, CASE WHEN imported.created_at IS NOT NULL THEN 'import' END, logged.kind, 'import') AS "addedHow"`;

/** The address's contacts in live audiences, with how each came in (consentJoin). */
const CONTACTS = `
  SELECT a.id AS "audienceId", a.name AS "audienceName", c.id AS "contactId", c.email, c.error_message AS "errorMessage", c.data,
         ${consentColumns('a')}
    FROM audiences a
    JOIN LATERAL (SELECT id, email, error_message, data FROM contacts c WHERE c.audience_id = a.id AND address_key(c.email) = $1) c ON true
    ${consentJoin('a', 'c')}
   WHERE a.deleted_at IS NULL
   ORDER BY a.id, c.id`;

/**
 * The opens and clicks on each of the address's mails, people's and machines' apart (tracking_events.machine).
 * The hidden link's hits are evidence, not clicks, as in every figure of the reports.
 */
const HITS_BY_MAIL = `
  SELECT e.job_id AS job,
         count(*) FILTER (WHERE e.kind = 'OPEN' AND NOT e.machine)::int AS opens_people,
         count(*) FILTER (WHERE e.kind = 'OPEN' AND e.machine)::int AS opens_machines,
         count(*) FILTER (WHERE e.kind = 'CLICK' AND NOT e.machine AND NOT coalesce(l.hidden, false))::int AS clicks_people,
         count(*) FILTER (WHERE e.kind = 'CLICK' AND e.machine AND NOT coalesce(l.hidden, false))::int AS clicks_machines
    FROM campaign_jobs j
    JOIN tracking_events e ON e.job_id = j.id
    LEFT JOIN campaign_links l ON l.id = e.link_id
   WHERE address_key(j.email) = $1
   GROUP BY e.job_id`;

const hitsOf = (prefix: string) =>
  `json_build_object('people', coalesce(sum(${prefix}_people), 0)::int, 'machines', coalesce(sum(${prefix}_machines), 0)::int)`;

/** The address's mails (a CTE `hits` of HITS_BY_MAIL in scope), newest first, with `more` columns. */
const mails = (more = '') => `
  SELECT j.id, j.campaign_id AS "campaignId", c.name AS "campaignName", c.subject, j.status, ${iso('j.created_at')} AS "createdAt",
         ${iso('j.sent_at')} AS "sentAt", j.bounce_type AS "bounceType", ${iso('j.bounce_time')} AS "bounceTime",
         j.complaint_type AS "complaintType", ${iso('j.complaint_time')} AS "complaintTime",
         json_build_object('people', coalesce(h.opens_people, 0), 'machines', coalesce(h.opens_machines, 0)) AS opens,
         json_build_object('people', coalesce(h.clicks_people, 0), 'machines', coalesce(h.clicks_machines, 0)) AS clicks ${more}
    FROM campaign_jobs j JOIN campaigns c ON c.id = j.campaign_id LEFT JOIN hits h ON h.job = j.id
   WHERE address_key(j.email) = $1
   ORDER BY j.id DESC`;

/** The address's suppression, under its own key, with the campaign it came from. */
const SUPPRESSION = `
  SELECT s.reason, ${iso('s.created_at')} AS "createdAt", s.campaign_id AS "campaignId", c.name AS "campaignName", s.added_by_email AS "addedBy"
    FROM suppressions s LEFT JOIN campaigns c ON c.id = s.campaign_id
   WHERE s.email_lower = $1`;

/** When the address was erased, if it was: its erased key (that of its key) is on the suppression list as ERASED. */
const ERASED_AT = `SELECT ${iso('created_at')} FROM suppressions WHERE email_lower = erased_key($1) AND reason = 'ERASED'`;

/** The rows of `query` as one JSON array, in the order `order` (of the rows' own columns, as x.column). */
const list = (query: string, order: string) => `(SELECT coalesce(json_agg(x ORDER BY ${order}), '[]') FROM (${query}) x)`;
const BY_CONTACT = 'x."audienceId", x."contactId"';
const NEWEST_FIRST = 'x.id DESC';

/** The address's key and erased key, both computed by the database (address_key, erased_key). */
export async function keysOf(sql: Sql, address: string): Promise<{ key: string; erasedKey: string }> {
  const { rows } = await sql.query<{ key: string; erasedKey: string }>(`SELECT address_key($1) AS key, erased_key($1) AS "erasedKey"`, [
    address,
  ]);
  return rows[0]!;
}

/** What the person's page shows of the address but its consent events, in one statement. */
export async function personOf(sql: Sql, key: string): Promise<Omit<Person, 'consent'>> {
  const { rows } = await sql.query<Omit<Person, 'consent'>>(
    `WITH hits AS (${HITS_BY_MAIL})
     SELECT $1::text AS email, (${ERASED_AT}) AS "erasedAt", ${list(CONTACTS, BY_CONTACT)} AS audiences, ${list(`${mails()} LIMIT ${LISTED_MAILS}`, NEWEST_FIRST)} AS mails,
            (SELECT count(*)::int FROM campaign_jobs WHERE address_key(email) = $1) AS "totalMails",
            (SELECT ${hitsOf('opens')} FROM hits) AS opens, (SELECT ${hitsOf('clicks')} FROM hits) AS clicks,
            (SELECT row_to_json(x) FROM (${SUPPRESSION}) x) AS suppression`,
    [key],
  );
  return rows[0]!;
}

/** The consent events of those contacts: how each came in (consentJoin: the ledger, else the activity log of before it). */
export function consentOf(contacts: PersonContact[]): Person['consent'] {
  const seen = new Set<number>();
  return contacts
    .filter((contact) => !seen.has(contact.audienceId) && seen.add(contact.audienceId))
    .map((contact) => ({
      kind: contact.addedHow,
      at: contact.importedAt,
      by: contact.importedBy,
      audienceId: contact.audienceId,
      audienceName: contact.audienceName,
    }));
}

/** The parts of the export, each a list (or the suppression) read by its own statement on `sql` (one snapshot). */
export function exportParts(sql: Sql, key: string) {
  const read = async <T>(query: string): Promise<T> => {
    const { rows } = await sql.query<{ value: T }>(`WITH hits AS (${HITS_BY_MAIL}) SELECT ${query} AS value`, [key]);
    return rows[0]!.value;
  };
  return {
    erasedAt: () => read<string | null>(`(${ERASED_AT})`),
    audiences: () => read<PersonContact[]>(list(CONTACTS, BY_CONTACT)),
    /** Every mail, with what the export adds: the address as written on it, the messages, the first hits. */
    mails: () =>
      read<PersonExportMail[]>(
        list(
          mails(`, j.email, c.from_email AS "fromEmail", j.bounce_message AS "bounceMessage", j.error_message AS "errorMessage",
                 ${iso('j.opened_at')} AS "openedAt", ${iso('j.clicked_at')} AS "clickedAt",
                 ${iso('j.human_opened_at')} AS "humanOpenedAt", ${iso('j.human_clicked_at')} AS "humanClickedAt"`),
          NEWEST_FIRST,
        ),
      ),
    /** Every open and click on the address's mails, oldest first, with its evidence. */
    hits: () =>
      read<PersonHit[]>(
        list(
          `SELECT e.job_id AS "mailId", e.kind, ${iso('e.created_at')} AS at, l.href AS link, NOT e.machine AS "byPerson",
                     e.machine_reason AS "machineReason", e.user_agent AS "userAgent", host(e.client_ip) AS "clientIp"
                FROM campaign_jobs j
                JOIN tracking_events e ON e.job_id = j.id
                LEFT JOIN campaign_links l ON l.id = e.link_id
               WHERE address_key(j.email) = $1`,
          'x.at, x."mailId"',
        ),
      ),
    suppression: () => read<PersonSuppression | null>(`(SELECT row_to_json(x) FROM (${SUPPRESSION}) x)`),
    /** The earlier suppressions of the address that members removed (suppression_removals, migration 0013). */
    removals: () =>
      read<PersonSuppressionRemoval[]>(
        list(
          `SELECT reason, ${iso('suppressed_at')} AS "suppressedAt", ${iso('removed_at')} AS "removedAt",
                     removed_by_email AS "removedBy", campaign_id AS "campaignId"
                FROM suppression_removals WHERE email_lower = $1`,
          'x."removedAt"',
        ),
      ),
    /**
     * The activity log's entries that name the address: the person's own unsubscribe (they are its
     * actor), a member's removal of its suppression, an export of the person. Each from its own index range.
     */
    activity: () =>
      read<PersonActivity[]>(
        list(
          `SELECT ${iso('created_at')} AS at, kind, object_type AS "objectType", object_id AS "objectId",
                     object_name AS "objectName", details
                FROM (SELECT * FROM activity WHERE member_email = $1 AND kind = 'unsubscribe'
                      UNION ALL
                      SELECT * FROM activity
                       WHERE kind IN ('suppression-remove', 'export') AND object_type IN ('suppression', 'person') AND object_name = $1) named`,
          'x.at',
        ),
      ),
  };
}
