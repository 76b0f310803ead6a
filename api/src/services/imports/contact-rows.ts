/**
 * Turns CSV records into contact rows, in PostgreSQL COPY text format, for one import.
 *
 * Numbering: an audience receives one import, into an empty audience (no source, no contact added by
 * hand), so the import numbers its rows densely from 1: `seq` over all rows in
 * file order, `valid_seq` over the valid ones, `error_seq` over those with an error. A page is then
 * a range of one of those numbers (see repository.ts), O(page size) even for the last page. A member's
 * change to one contact (an addition, a deletion, an erasure) keeps them dense: contacts/numbering-repository.ts.
 */
import { fileColumnNames, isEmailColumnName, parseFieldValue, type FieldRule } from '@mailroom/api-client/fields';
import { INVALID_EMAIL, isValidEmail, MISSING_EMAIL, unsendableReason } from '../contacts/email.js';
import { ImportFileError } from './csv.js';
import { valueReader, type ValueReader } from './typed-values.js';

export { isEmailColumnName };

export const NO_EMAIL_COLUMN = 'The file has no email column.';

export interface HeaderLayout {
  /** Position of the email column in a record. */
  emailIndex: number;
  /** The keys of the fields the imported columns go to, in file order. */
  headers: string[];
  /** Position of each imported column in a record. */
  headerIndexes: number[];
  /** Each imported column's field: what its values must be. */
  fields: FieldRule[];
}

/** Which column holds the address, and which columns go to which fields (by key): mapping.ts makes it. */
export interface ColumnPlan {
  emailColumn: string;
  columns: { column: string; key: string }[];
}

/**
 * The layout of a file imported without a mapping (an API client, the spec's flow): the first column named like
 * an email is the address; every other column, named as fileColumnNames names it, goes to a TEXT field of that name.
 */
export function headerLayout(record: string[]): HeaderLayout {
  const emailIndex = record.findIndex(isEmailColumnName);
  if (emailIndex === -1) throw new ImportFileError(NO_EMAIL_COLUMN);
  const names = fileColumnNames(record);
  const layout: HeaderLayout = { emailIndex, headers: [], headerIndexes: [], fields: [] };
  names.forEach((name, index) => {
    if (index === emailIndex) return;
    layout.headers.push(name);
    layout.headerIndexes.push(index);
    layout.fields.push({ label: name, type: 'TEXT' });
  });
  return layout;
}

export const columnGone = (column: string) => `The file has no column '${column}' that the mapping names; please import it again.`;

/** The layout of a file imported with a plan: its columns found by name, each with its field (by key, from `fields`). */
export function plannedLayout(record: string[], plan: ColumnPlan, fields: ReadonlyMap<string, FieldRule>): HeaderLayout {
  const names = fileColumnNames(record);
  const indexOf = (column: string) => {
    const index = names.indexOf(column);
    if (index === -1) throw new ImportFileError(columnGone(column));
    return index;
  };
  const layout: HeaderLayout = { emailIndex: indexOf(plan.emailColumn), headers: [], headerIndexes: [], fields: [] };
  for (const { column, key } of plan.columns) {
    const field = fields.get(key);
    // The fields were read in the import's transaction, under the audience's lock: one missing was removed since the upload.
    if (!field) throw new ImportFileError(`The field '${key}' was removed after the upload; please import again.`);
    layout.headers.push(key);
    layout.headerIndexes.push(indexOf(column));
    layout.fields.push(field);
  }
  return layout;
}

// COPY text format: backslash, and the row/column separators, are escaped with a backslash.
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format. */
export function escapeCopyText(value: string): string {
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : value;
}

/** The columns of the COPY, in the order rows are written. */
export const CONTACT_COPY_COLUMNS = '(audience_id, seq, valid_seq, error_seq, email, error_message, data)';

/**
 * One contact of the file, read: its address (trimmed), what is wrong with it (null: nothing yet;
 * the importer marks duplicates, which need the whole file before it) and its data as JSON text.
 */
export interface ContactRow {
  email: string;
  error: string | null;
  data: string;
}

/** One import's contacts: reads records into ContactRows, then writes them as COPY text, numbered in file order. */
export class ContactRows {
  count = 0;
  errorCount = 0;
  private validCount = 0;
  /** `"key":` JSON prefixes, computed once. */
  private readonly keys: string[];
  /** Each imported column's reader (typed-values.ts), made once. */
  private readonly readers: ValueReader[];
  /** The data json's parts, reused from row to row. */
  private readonly parts: string[] = ['{'];

  constructor(
    private readonly audienceId: number,
    readonly layout: HeaderLayout,
  ) {
    this.keys = layout.headers.map((header) => `${JSON.stringify(header)}:`);
    this.readers = layout.fields.map(valueReader);
  }

  /**
   * A record as a contact: its address checked (all but duplicates), its values typed. A value that does not fit
   * its field makes the contact an error row; the address's problem comes first, else every field's, in file order.
   */
  read(record: string[]): ContactRow {
    const { emailIndex, headerIndexes } = this.layout;
    const email = (record[emailIndex] ?? '').trim();
    let error: string | null = null;
    if (email === '') error = MISSING_EMAIL;
    else if (!isValidEmail(email)) error = INVALID_EMAIL;
    else error = unsendableReason(email) ?? null;

    // The data json, built by hand: JSON.stringify of an object per row costs more than the parse. Its parts are
    // joined into one flat string: concatenated, they were a tree of some twenty strings per contact, held until the
    // segment is written, which the garbage collector copied and promoted (most of the worker's CPU at a million
    // rows). A blank value is absent (the storage rule).
    const parts = this.parts;
    parts.length = 1;
    let fieldErrors: string | null = null;
    for (let i = 0; i < headerIndexes.length; i++) {
      const raw = record[headerIndexes[i]!] ?? '';
      const json = this.readers[i]!(raw);
      if (json === null) {
        const reason = fieldError(this.layout.fields[i]!, raw);
        fieldErrors = fieldErrors === null ? reason : `${fieldErrors} ${reason}`;
      } else if (json !== '') {
        if (parts.length > 1) parts.push(',');
        parts.push(this.keys[i]!, json);
      }
    }
    parts.push('}');
    const data = parts.join('');
    // NUL cannot be stored in text or jsonb; the decoder has refused files that contain one.
    return { email, error: error ?? fieldErrors, data };
  }

  /**
   * The next contacts of the file as COPY text lines, in UTF-8, one write each into a buffer outside the heap
   * (a string of the segment's lines would be a megabyte in the old generation, converted again by the COPY).
   * The buffer is sized for the worst case, three bytes for each UTF-16 unit (escapes take two).
   */
  copyText(contacts: ContactRow[]): Buffer {
    let size = 0;
    for (const contact of contacts) size += contact.email.length + (contact.error?.length ?? 0) + contact.data.length + 64;
    const buffer = Buffer.allocUnsafe(size * 3);
    let offset = 0;
    for (const contact of contacts) {
      const line = this.copyLine(contact);
      offset += buffer.write(line, offset);
    }
    return buffer.subarray(0, offset);
  }

  /** The next contact of the file as a COPY text line (with its newline). */
  copyLine({ email, error, data }: ContactRow): string {
    this.count++;
    const seq = this.count;
    let validSeq = '\\N';
    let errorSeq = '\\N';
    if (error === null) validSeq = String(++this.validCount);
    else errorSeq = String(++this.errorCount);
    return `${this.audienceId}\t${seq}\t${validSeq}\t${errorSeq}\t${escapeCopyText(email)}\t${error === null ? '\\N' : escapeCopyText(error)}\t${
      data.includes('\\') ? data.replace(/\\/g, '\\\\') : data
    }\n`;
  }
}

/** Why a value does not fit its field, as parseFieldValue words it. */
function fieldError(field: FieldRule, raw: string): string {
  const parsed = parseFieldValue(field, raw);
  return parsed.ok ? `${field.label} is not valid.` : parsed.error;
}
