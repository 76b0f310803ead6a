/**
 * Turns CSV records into contact rows, in PostgreSQL COPY text format, for one import.
 *
 * Numbering: an audience receives one import, into an empty audience (no source, no contact added by
 * hand), so the import numbers its rows densely from 1: `seq` over all rows in
 * file order, `valid_seq` over the valid ones, `error_seq` over those with an error. A page is then
 * a range of one of those numbers (see repository.ts), O(page size) even for the last page. A member's
 * change to one contact (an addition, a deletion, an erasure) keeps them dense: contacts/numbering-repository.ts.
 */
import { INVALID_EMAIL, isValidEmail, MISSING_EMAIL, unsendableReason } from '../contacts/email.js';
import { ImportFileError } from './csv.js';

export const NO_EMAIL_COLUMN = 'The file has no email column.';

export interface HeaderLayout {
  /** Position of the email column in a record. */
  emailIndex: number;
  /** The other columns' names, in file order (the audience's headers). */
  headers: string[];
  /** Position of each header's column in a record. */
  headerIndexes: number[];
}

const EMAIL_NAMES = new Set(['email', 'emailaddress']);

/** 'Email', ' EMAIL ', 'e-mail', 'E-mail Address', 'email_address' all name the email column. */
export function isEmailColumnName(name: string): boolean {
  return EMAIL_NAMES.has(name.toLowerCase().replace(/[\s_-]+/g, ''));
}

/**
 * Reads the header record: the first column named like an email is the address; every other column
 * is kept, in file order, with its name trimmed. A blank name becomes 'Column N' and a repeated one
 * gets ' (2)', ' (3)'... so every header is a distinct key of the contact's data.
 */
export function headerLayout(record: string[]): HeaderLayout {
  const emailIndex = record.findIndex(isEmailColumnName);
  if (emailIndex === -1) throw new ImportFileError(NO_EMAIL_COLUMN);
  const headers: string[] = [];
  const headerIndexes: number[] = [];
  const used = new Set<string>();
  record.forEach((raw, index) => {
    if (index === emailIndex) return;
    const base = raw.trim() || `Column ${index + 1}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    used.add(name.toLowerCase());
    headers.push(name);
    headerIndexes.push(index);
  });
  return { emailIndex, headers, headerIndexes };
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

export interface Numbering {
  count: number;
  errorCount: number;
  validCount: number;
}

/** One import's contacts: reads records into ContactRows, then writes them as COPY text, numbered in file order. */
export class ContactRows {
  count = 0;
  errorCount = 0;
  private validCount = 0;
  /** `"header":` JSON prefixes, computed once. */
  private readonly keys: string[];

  constructor(
    private readonly audienceId: number,
    readonly layout: HeaderLayout,
  ) {
    this.keys = layout.headers.map((header, i) => `${i === 0 ? '{' : ','}${JSON.stringify(header)}:`);
  }

  /** A record as a contact, its address checked (all but duplicates). */
  read(record: string[]): ContactRow {
    const { emailIndex, headerIndexes } = this.layout;
    const email = (record[emailIndex] ?? '').trim();
    let error: string | null = null;
    if (email === '') error = MISSING_EMAIL;
    else if (!isValidEmail(email)) error = INVALID_EMAIL;
    else error = unsendableReason(email) ?? null;

    // The data json, built by hand: JSON.stringify of an object per row costs more than the parse.
    let data = '{}';
    if (headerIndexes.length > 0) {
      data = '';
      for (let i = 0; i < headerIndexes.length; i++) {
        data += this.keys[i]! + JSON.stringify((record[headerIndexes[i]!] ?? '').trim());
      }
      data += '}';
    }
    // NUL cannot be stored in text or jsonb; the decoder has refused files that contain one.
    return { email, error, data };
  }

  /** The next contacts of the file as COPY text lines. */
  copyText(contacts: ContactRow[]): string {
    let text = '';
    for (const contact of contacts) text += this.copyLine(contact);
    return text;
  }

  /** The numbers given so far: `rewind` to it numbers contacts again (after more of them turned out duplicates). */
  get numbering(): Numbering {
    return { count: this.count, errorCount: this.errorCount, validCount: this.validCount };
  }

  rewind({ count, errorCount, validCount }: Numbering): void {
    this.count = count;
    this.errorCount = errorCount;
    this.validCount = validCount;
  }

  /** The next contact of the file as a COPY text line (with its newline). */
  copyLine({ email, error, data }: ContactRow): string {
    this.count++;
    const seq = this.count;
    let validSeq = '\\N';
    let errorSeq = '\\N';
    if (error === null) validSeq = String(++this.validCount);
    else errorSeq = String(++this.errorCount);
    return `${this.audienceId}\t${seq}\t${validSeq}\t${errorSeq}\t${escapeCopyText(email)}\t${error ?? '\\N'}\t${
      data.includes('\\') ? data.replace(/\\/g, '\\\\') : data
    }\n`;
  }
}
