/**
 * The CSV exports of an audience: its contacts (email first, then every header, then the latest consent,
 * one row per contact in file order) and its consent record (every ledger entry of the audience and its
 * addresses, oldest first).
 *
 * PostgreSQL writes the CSV itself (`COPY (SELECT ...) TO STDOUT (FORMAT csv, FORCE_QUOTE *)`) and
 * the stream goes to the caller chunk by chunk with backpressure, so memory stays flat whatever the
 * size and Node does no per-row work. Cells a spreadsheet would run as a formula (starting with
 * = + - @, tab or CR) get a leading apostrophe from the SQL function csv_inert (migration 0002), and
 * every cell is quoted: the OWASP CSV-injection advice. The consent's words are the screens' own
 * (@mailroom/api-client/labels), written into the statement as literals.
 */
import type { Readable } from 'node:stream';
import { to as copyTo } from 'pg-copy-streams';
import {
  CONSENT_BY_MEMBER,
  CONSENT_EVENT_LABELS,
  CONSENT_VIA_FORM,
  LAWFUL_BASIS_LABELS,
  LAWFUL_BASIS_NOT_STATED,
  SUPPRESSION_REASON_LABELS,
} from '@mailroom/api-client/labels';
import type { Database } from '../../db/database.js';

export interface ExportedAudience {
  id: number;
  name: string;
  headers: string[];
}

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** One CSV cell as the export writes it: inert, quoted. */
export function csvCell(value: string): string {
  const inert = FORMULA_START.has(value.charAt(0)) ? `'${value}` : value;
  return `"${inert.replace(/"/g, '""')}"`;
}

/** The contacts export's last column (an addition, issue 25). */
export const LATEST_CONSENT_COLUMN = 'Latest consent';

export function exportHeaderLine(headers: string[]): string {
  return `${['email', ...headers, LATEST_CONSENT_COLUMN].map(csvCell).join(',')}\n`;
}

type Literal = (value: string) => string;

/** SQL of `value`'s words by the labels of `labels` (a CASE of literals); null for a value without one. */
const wordsOf = (value: string, labels: Readonly<Record<string, string>>, literal: Literal) =>
  `CASE ${value} ${Object.entries(labels)
    .map(([code, words]) => `WHEN ${literal(code)} THEN ${literal(words)}`)
    .join(' ')} END`;

/** A ledger reason (a suppression's, MANUAL for a member's) in words: consentReasonLabel in SQL. */
const reasonWords = (entry: string, literal: Literal) =>
  wordsOf(`${entry}.detail->>'reason'`, { ...SUPPRESSION_REASON_LABELS, MANUAL: SUPPRESSION_REASON_LABELS.MEMBER }, literal);

/**
 * The ledger entry `entry` in a few words, as consentSummary words it on the screen ('Confirmed via form
 * Newsletter', 'Suppressed (hard bounce)'), with its date (UTC) when `dated`.
 */
export function consentSummarySql(entry: string, literal: Literal, dated = true): string {
  return `${wordsOf(`${entry}.event`, CONSENT_EVENT_LABELS, literal)}
          || coalesce(${literal(CONSENT_VIA_FORM)} || ${entry}.form_name, ${literal(CONSENT_BY_MEMBER)} || ${entry}.member_email, '')
          || coalesce(' (' || ${reasonWords(entry, literal)} || ')', '')
          ${dated ? `|| ', ' || to_char(${entry}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : ''}`;
}

/**
 * The COPY that writes the audience's rows (the header line comes first, from exportHeaderLine). COPY
 * takes no bind parameters: the id is a number and the header names are escaped literals. The export
 * benchmark runs it bare, as the ceiling of the export.
 *
 * The latest consent: the contact's newest ledger entry (this audience's or every audience's), else the
 * audience's import entry when the contact came in by it. The rows keep their index order (a join would
 * sort a million rows): a hashed set of the addresses the ledger names for the audience is probed per
 * contact, and only a contact found there looks its newest entry up.
 */
export function exportCopyStatement(audience: Pick<ExportedAudience, 'id' | 'headers'>, escapeLiteral: Literal): string {
  const id = Number(audience.id);
  const mine = `(l.audience_id = ${id} OR l.audience_id IS NULL)`;
  const latest = `CASE WHEN address_key(c.email) IN (SELECT l.address_key FROM consent_ledger l WHERE l.address_key IS NOT NULL AND ${mine})
         THEN (SELECT ${consentSummarySql('l', escapeLiteral)} FROM consent_ledger l
                WHERE l.address_key = address_key(c.email) AND ${mine} ORDER BY l.id DESC LIMIT 1)
         WHEN c.id <= (SELECT (i.detail->>'lastContactId')::bigint FROM imported i)
         THEN (SELECT ${consentSummarySql('i', escapeLiteral)} FROM imported i) END`;
  const columns = [
    'csv_inert(c.email)',
    ...audience.headers.map((h) => `csv_inert(c.data->>${escapeLiteral(h)})`),
    `csv_inert(coalesce(${latest}, ''))`,
  ];
  return `COPY (WITH imported AS MATERIALIZED (SELECT * FROM consent_ledger WHERE audience_id = ${id} AND event = 'IMPORTED' ORDER BY id DESC LIMIT 1)
                SELECT ${columns.join(', ')} FROM contacts c WHERE c.audience_id = ${id} ORDER BY c.seq)
          TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)`;
}

/** The consent export's columns (issue 25), first line. */
export const CONSENT_EXPORT_HEADER = `${[
  'time',
  'address',
  'event',
  'form',
  'wording version',
  'wording',
  'member',
  'lawful basis',
  'client address',
  'agent',
  'detail',
]
  .map(csvCell)
  .join(',')}\n`;

/**
 * The COPY of the audience's consent record, oldest first: its own entries (its import's, which names nobody,
 * included) and those of its contacts' addresses in every audience (audience null). Each address of the audience
 * is one probe of the ledger's address index.
 */
export function consentExportCopyStatement(audienceId: number, literal: Literal): string {
  const id = Number(audienceId);
  const basis = `coalesce(${wordsOf('l.lawful_basis', LAWFUL_BASIS_LABELS, literal)}, CASE WHEN l.event IN ('IMPORTED', 'ADDED') THEN ${literal(LAWFUL_BASIS_NOT_STATED)} END)`;
  const detail = `concat_ws('; ', CASE WHEN l.contacts IS NOT NULL THEN l.contacts || ' contacts' END,
                            CASE WHEN l.detail ? 'reason' THEN 'reason: ' || ${reasonWords('l', literal)} END,
                            CASE WHEN (l.detail->>'freshConsent')::boolean THEN 'fresh consent after an erasure' END)`;
  const cells = [
    `to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    `l.email`,
    wordsOf('l.event', CONSENT_EVENT_LABELS, literal),
    'l.form_name',
    'l.consent_version::text',
    'l.wording',
    'l.member_email',
    basis,
    'l.client_address',
    'l.user_agent',
    `nullif(${detail}, '')`,
  ].map((cell) => `csv_inert(${cell})`);
  return `COPY (SELECT ${cells.join(', ')}
                  FROM consent_ledger l
                 WHERE l.audience_id = ${id}
                    OR (l.audience_id IS NULL AND l.address_key IN (SELECT address_key(email) FROM contacts WHERE audience_id = ${id}))
                 ORDER BY l.created_at, l.id)
          TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)`;
}

/**
 * Streams the export from one snapshot (REPEATABLE READ, read only): the transaction, and its
 * connection, last exactly as long as the stream; it ends when the reader has the whole file, and
 * is rolled back when the stream fails or the reader goes away mid-file.
 */
export async function exportContactsCsv(db: Database, audience: ExportedAudience): Promise<Readable> {
  return db.streamInTransaction((tx) => tx.client.query(copyTo(exportCopyStatement(audience, (value) => tx.client.escapeLiteral(value)))), {
    isolation: 'REPEATABLE READ',
    readOnly: true,
    prefix: exportHeaderLine(audience.headers),
  });
}

/** Streams the audience's consent record (consentExportCopyStatement) from one snapshot, as the contacts export is. */
export async function exportConsentCsv(db: Database, audienceId: number): Promise<Readable> {
  return db.streamInTransaction(
    (tx) => tx.client.query(copyTo(consentExportCopyStatement(audienceId, (value) => tx.client.escapeLiteral(value)))),
    {
      isolation: 'REPEATABLE READ',
      readOnly: true,
      prefix: CONSENT_EXPORT_HEADER,
    },
  );
}
