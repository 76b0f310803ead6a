/**
 * The CSV export of an audience: email first, then every header, one row per contact in file order.
 *
 * PostgreSQL writes the CSV itself (`COPY (SELECT ...) TO STDOUT (FORMAT csv, FORCE_QUOTE *)`) and
 * the stream goes to the caller chunk by chunk with backpressure, so memory stays flat whatever the
 * size and Node does no per-row work. Cells a spreadsheet would run as a formula (starting with
 * = + - @, tab or CR) get a leading apostrophe from the SQL function csv_inert (migration 0002), and
 * every cell is quoted: the OWASP CSV-injection advice.
 */
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

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
 * `<name>-contacts.csv` for Content-Disposition (RFC 6266): an ASCII fallback `filename` and the
 * UTF-8 `filename*`; no path separators, quotes or control characters in either.
 */
export function exportFileName(audienceName: string): { ascii: string; utf8: string } {
  const base = audienceName.replace(/[\p{Cc}/\\"\s]+/gu, ' ').trim() || 'audience';
  const ascii = base
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9._ -]+/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  return { ascii: `${ascii || 'audience'}-contacts.csv`, utf8: `${base}-contacts.csv` };
}

export function contentDisposition(audienceName: string): string {
  const { ascii, utf8 } = exportFileName(audienceName);
  const encoded = encodeURIComponent(utf8).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Streams the export. The connection is released when the stream ends, and closed when it fails
 * or is destroyed (a reader that goes away mid-file must not leave PostgreSQL half-way in a COPY).
 */
export async function exportContactsCsv(pool: pg.Pool, audience: ExportedAudience): Promise<Readable> {
  const client = await pool.connect();
  const columns = ['csv_inert(email)', ...audience.headers.map((h) => `csv_inert(data->>${client.escapeLiteral(h)})`)];
  // COPY takes no bind parameters: the id is a number and the header names are escaped literals.
  const sql = `COPY (SELECT ${columns.join(', ')} FROM contacts WHERE audience_id = ${Number(audience.id)} ORDER BY seq)
               TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)`;
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  out.write(exportHeaderLine(audience.headers));
  pipeline(client.query(copyTo(sql)), out).then(
    () => client.release(),
    () => client.release(true),
  );
  return out;
}
