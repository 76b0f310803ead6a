/**
 * Turns CSV records into contact rows, in PostgreSQL COPY text format, for one import.
 *
 * Numbering: an audience receives contacts once (an import needs an audience without a source) and
 * contacts are never edited one by one, so the import numbers them densely: `seq` over all rows in
 * file order, `valid_seq` over the valid ones, `error_seq` over those with an error. A page is then
 * a range of one of those numbers (see repository.ts), O(page size) even for the last page.
 */
import { DUPLICATE_EMAIL, INVALID_EMAIL, isValidEmail, MISSING_EMAIL, unsendableReason } from '../contacts/email.js';
import { ImportFileError } from './csv.js';
import { EmailSet } from './email-set.js';

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

export function copyText(value: string): string {
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : value;
}

/** The columns of the COPY, in the order rows are written. */
export const CONTACT_COPY_COLUMNS = '(audience_id, seq, valid_seq, error_seq, email, error_message, data)';

export class ContactRowWriter {
  count = 0;
  errorCount = 0;
  /** Rows marked as duplicates: by hash, so the importer confirms them (email-set.ts). */
  duplicateCount = 0;
  private validCount = 0;
  /** Lower-cased valid addresses seen so far: duplicates are case-insensitive. */
  private readonly seen: EmailSet;
  /** `"header":` JSON prefixes, computed once. */
  private readonly keys: string[];

  /** `seed`: of the hashes that find duplicates (EmailSet). */
  constructor(
    private readonly audienceId: number,
    readonly layout: HeaderLayout,
    seed = 0,
  ) {
    this.seen = new EmailSet(seed);
    this.keys = layout.headers.map((header, i) => `${i === 0 ? '{' : ','}${JSON.stringify(header)}:`);
  }

  /** One contact as a COPY text line (with its newline). */
  row(record: string[]): string {
    const { emailIndex, headerIndexes } = this.layout;
    const email = (record[emailIndex] ?? '').trim();
    let error: string | null = null;
    if (email === '') error = MISSING_EMAIL;
    else if (!isValidEmail(email)) error = INVALID_EMAIL;
    else error = unsendableReason(email) ?? null;
    if (error === null && !this.seen.add(email.toLowerCase())) {
      error = DUPLICATE_EMAIL;
      this.duplicateCount++;
    }

    // The data json, built by hand: JSON.stringify of an object per row costs more than the parse.
    let json = '{}';
    if (headerIndexes.length > 0) {
      json = '';
      for (let i = 0; i < headerIndexes.length; i++) {
        json += this.keys[i]! + JSON.stringify((record[headerIndexes[i]!] ?? '').trim());
      }
      json += '}';
    }
    // NUL cannot be stored in text or jsonb; the decoder has refused files that contain one.

    this.count++;
    const seq = this.count;
    let validSeq = '\\N';
    let errorSeq = '\\N';
    if (error === null) validSeq = String(++this.validCount);
    else errorSeq = String(++this.errorCount);
    return `${this.audienceId}\t${seq}\t${validSeq}\t${errorSeq}\t${copyText(email)}\t${error ?? '\\N'}\t${
      json.includes('\\') ? json.replace(/\\/g, '\\\\') : json
    }\n`;
  }
}
