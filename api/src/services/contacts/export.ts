/**
 * The CSV export of an audience: email first, then every header, one row per contact in file order.
 *
 * PostgreSQL writes the CSV itself (`COPY (SELECT ...) TO STDOUT (FORMAT csv, FORCE_QUOTE *)`) and
 * the stream goes to the caller chunk by chunk with backpressure, so memory stays flat whatever the
 * size and Node does no per-row work. Cells a spreadsheet would run as a formula (starting with
 * = + - @, tab or CR) get a leading apostrophe from the SQL function csv_inert (migration 0002), and
 * every cell is quoted: the OWASP CSV-injection advice.
 */
import type { Readable } from 'node:stream';
import { to as copyTo } from 'pg-copy-streams';
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

export function exportHeaderLine(headers: string[]): string {
  return `${['email', ...headers].map(csvCell).join(',')}\n`;
}

/**
 * The COPY that writes the audience's rows (the header line comes first, from exportHeaderLine). COPY
 * takes no bind parameters: the id is a number and the header names are escaped literals. The export
 * benchmark runs it bare, as the ceiling of the export.
 */
export function exportCopyStatement(audience: Pick<ExportedAudience, 'id' | 'headers'>, escapeLiteral: (value: string) => string): string {
  const columns = ['csv_inert(email)', ...audience.headers.map((h) => `csv_inert(data->>${escapeLiteral(h)})`)];
  return `COPY (SELECT ${columns.join(', ')} FROM contacts WHERE audience_id = ${Number(audience.id)} ORDER BY seq)
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
