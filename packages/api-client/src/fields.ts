/**
 * An audience's typed fields (an addition to the spec: docs/decisions/audiences-and-imports.md): the rules both
 * sides of the contract apply, so that the import, the API's edits, the contact drawer and the import wizard's
 * guesses agree on what a value of each type is.
 *
 * A field's value lives in the contact's `data` (jsonb) under the field's key, typed:
 *  - TEXT: a string;
 *  - NUMBER: a JSON number;
 *  - DATE: a calendar date written 'YYYY-MM-DD' (no time, no zone: a birthday is the same day everywhere);
 *  - YES_NO: true or false;
 *  - CHOICE: one of the field's options, as the field spells it.
 * An empty value is absent from `data` (a missing field, as an empty cell always was).
 */

export const FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'YES_NO', 'CHOICE'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export type FieldValue = string | number | boolean;

/** What a rule needs of a field: the API's AudienceField has these and more. */
export interface FieldRule {
  label: string;
  type: FieldType;
  /** CHOICE only: the allowed values, in the order offered. */
  options?: readonly string[] | null;
  required?: boolean;
}

/** The longest TEXT value kept: longer is refused, never cut. */
export const MAX_TEXT_LENGTH = 4000;
/** Bounds of a CHOICE field's list, and of one option. */
export const MAX_OPTIONS = 100;
export const MAX_OPTION_LENGTH = 100;
export const MAX_LABEL_LENGTH = 100;
export const MAX_KEY_LENGTH = 64;
/** Beyond 2^53 a JSON number no longer holds every integer: 15 digits stay exact. */
const MAX_NUMBER = 1e15;

export type ParsedValue = { ok: true; value: FieldValue | null } | { ok: false; error: string };

const NUMBER_TEXT = /^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const YES = new Set(['yes', 'y', 'true', '1', 'on']);
const NO = new Set(['no', 'n', 'false', '0', 'off']);

function quoted(raw: string): string {
  return raw.length > 40 ? `'${raw.slice(0, 40)}…'` : `'${raw}'`;
}

/** A number written plainly ('1234', '-12.5', '1,234.50'), or null. */
export function parseNumber(raw: string): number | null {
  const text = raw.trim();
  if (!NUMBER_TEXT.test(text)) return null;
  const value = Number(text.replace(/,/g, ''));
  return Number.isFinite(value) && Math.abs(value) < MAX_NUMBER ? value : null;
}

/** 'YYYY-MM-DD' of a real calendar day (a time after it is dropped), or null. */
export function parseDate(raw: string): string | null {
  const match = ISO_DATE.exec(raw.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

export function parseYesNo(raw: string): boolean | null {
  const word = raw.trim().toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  return null;
}

/**
 * A value as written by a person or a file, read for its field. Blank is no value (refused when the field is
 * required). The error names the field and says what would be accepted, for an import's error row or a form.
 */
export function parseFieldValue(field: FieldRule, raw: string): ParsedValue {
  const text = raw.trim();
  if (text === '') return field.required ? { ok: false, error: `${field.label} is required.` } : { ok: true, value: null };
  switch (field.type) {
    case 'TEXT':
      if (text.includes('\u0000')) return { ok: false, error: `${field.label} holds a NUL character.` };
      return text.length > MAX_TEXT_LENGTH
        ? { ok: false, error: `${field.label} is longer than ${MAX_TEXT_LENGTH.toLocaleString('en')} characters.` }
        : { ok: true, value: text };
    case 'NUMBER': {
      const value = parseNumber(text);
      return value === null
        ? { ok: false, error: `${field.label}: ${quoted(text)} is not a number (write it like 1234.5).` }
        : { ok: true, value };
    }
    case 'DATE': {
      const value = parseDate(text);
      return value === null
        ? { ok: false, error: `${field.label}: ${quoted(text)} is not a date (write it as YYYY-MM-DD).` }
        : { ok: true, value };
    }
    case 'YES_NO': {
      const value = parseYesNo(text);
      return value === null ? { ok: false, error: `${field.label}: ${quoted(text)} is not yes or no.` } : { ok: true, value };
    }
    case 'CHOICE': {
      const options = field.options ?? [];
      const value = options.find((option) => option === text) ?? options.find((option) => option.toLowerCase() === text.toLowerCase());
      return value === undefined
        ? { ok: false, error: `${field.label}: ${quoted(text)} is not one of ${options.map((option) => `'${option}'`).join(', ')}.` }
        : { ok: true, value };
    }
  }
}

/**
 * A value already typed (a JSON body, a stored value) checked against its field: the API's edits send typed
 * values, and a string is read as a person would have written it.
 */
export function checkFieldValue(field: FieldRule, value: unknown): ParsedValue {
  if (value === null || value === undefined) return parseFieldValue(field, '');
  if (typeof value === 'string') return parseFieldValue(field, value);
  if (typeof value === 'number' && field.type === 'NUMBER') {
    return Number.isFinite(value) && Math.abs(value) < MAX_NUMBER
      ? { ok: true, value }
      : { ok: false, error: `${field.label}: the number is too large.` };
  }
  if (typeof value === 'boolean' && field.type === 'YES_NO') return { ok: true, value };
  return { ok: false, error: `${field.label} takes ${typeDescription(field.type)}.` };
}

export function typeDescription(type: FieldType): string {
  return { TEXT: 'text', NUMBER: 'a number', DATE: 'a date', YES_NO: 'yes or no', CHOICE: 'one of its options' }[type];
}

/** The type a column's sample suggests: the narrowest that every non-blank value fits, else TEXT. */
export function guessFieldType(samples: readonly string[]): FieldType {
  const values = samples.map((sample) => sample.trim()).filter((sample) => sample !== '');
  if (values.length === 0) return 'TEXT';
  // '1' and '0' are numbers first: a column of them is a count more often than a flag.
  if (values.every((value) => parseNumber(value) !== null)) return 'NUMBER';
  if (values.every((value) => parseDate(value) !== null)) return 'DATE';
  if (values.every((value) => parseYesNo(value) !== null)) return 'YES_NO';
  return 'TEXT';
}

/** A new field's key is a merge tag's name: a letter, then letters, digits or '_'. */
const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Keys a field cannot take: the contact's own address is not a field. */
const RESERVED_KEYS = new Set(['email']);

/** Why a key cannot name a new field, or null. `taken` are the audience's keys (compared without case). */
export function fieldKeyError(key: string, taken: Iterable<string> = []): string | null {
  if (key.length === 0) return 'A field needs a key.';
  if (key.length > MAX_KEY_LENGTH) return `A key is at most ${MAX_KEY_LENGTH} characters.`;
  if (!KEY.test(key)) return 'A key starts with a letter and holds only letters, digits and _.';
  if (RESERVED_KEYS.has(key.toLowerCase())) return `'${key}' is the contact's address, not a field.`;
  const lower = key.toLowerCase();
  for (const other of taken) if (other.toLowerCase() === lower) return `The audience already has a field '${other}'.`;
  return null;
}

/** A key made from a column's name ('First Name' -> 'firstName'), not among `taken`. */
export function suggestFieldKey(name: string, taken: Iterable<string> = []): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let base = words
    .map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('')
    .slice(0, MAX_KEY_LENGTH - 4);
  if (!/^[A-Za-z]/.test(base)) base = `field${base.charAt(0).toUpperCase()}${base.slice(1)}`.slice(0, MAX_KEY_LENGTH - 4);
  if (RESERVED_KEYS.has(base.toLowerCase())) base = `${base}Field`;
  const used = new Set([...taken].map((key) => key.toLowerCase()));
  let key = base;
  for (let n = 2; used.has(key.toLowerCase()); n++) key = `${base}${n}`;
  return key;
}

/**
 * A stored value as a mail or a screen writes it, in the organisation's locale: numbers grouped as the locale
 * groups them, dates in its long form (the day as stored, whatever the reader's zone), yes/no as words.
 */
export function formatFieldValue(type: FieldType, value: FieldValue | null | undefined, locale: string): string {
  if (value === null || value === undefined) return '';
  return fieldFormatter(type, locale)(value);
}

export type ValueFormatter = (value: FieldValue) => string;

const formatters = new Map<string, ValueFormatter>();

/**
 * formatFieldValue for one type and locale, its Intl formatter built once: a mail merge calls it for every contact,
 * and building an Intl formatter costs a hundred times its use. A value of another shape than the type's (a legacy
 * string in a NUMBER field) is written as it is.
 */
export function fieldFormatter(type: FieldType, locale: string): ValueFormatter {
  const id = `${type}\u0000${locale}`;
  let format = formatters.get(id);
  if (format) return format;
  if (type === 'NUMBER') {
    const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
    format = (value) => (typeof value === 'number' ? numbers.format(value) : String(value));
  } else if (type === 'DATE') {
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    format = (value) =>
      typeof value === 'string' && parseDate(value) !== null ? dates.format(new Date(`${value.slice(0, 10)}T00:00:00Z`)) : String(value);
  } else if (type === 'YES_NO') {
    format = (value) => (typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));
  } else {
    format = (value) => (typeof value === 'string' ? value : String(value));
  }
  formatters.set(id, format);
  return format;
}

/** Whether a locale tag is one Intl knows (ORG_LOCALE is checked with it at start). */
export function isKnownLocale(locale: string): boolean {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length === 1 && Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

/**
 * A stored value moved to a field's new type (a type change): what it becomes, or why it cannot. To TEXT every value
 * converts (a number as written plainly, yes/no as the words); to another type a stored string is read as a person
 * would have written it, and a typed value keeps its type only when it fits.
 */
export function convertFieldValue(field: FieldRule, value: unknown): ParsedValue {
  if (field.type === 'TEXT') {
    if (typeof value === 'number') return { ok: true, value: String(value) };
    if (typeof value === 'boolean') return { ok: true, value: value ? 'Yes' : 'No' };
  }
  if (field.type === 'CHOICE' && (typeof value === 'number' || typeof value === 'boolean')) {
    return parseFieldValue(field, typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));
  }
  // A value already stored is kept when blank: `required` holds for new values, not for old contacts.
  return checkFieldValue({ ...field, required: false }, value);
}

/**
 * Values kept a while before they are stored (a sign-up waiting for its confirmation) fitted to the audience's fields as
 * they are now: a value whose field went is dropped, one whose field changed type is converted as a type change converts
 * stored values, and one that no longer converts is dropped rather than stored under the wrong type.
 */
export function fitFieldValues(
  fields: ReadonlyMap<string, FieldRule>,
  values: Readonly<Record<string, unknown>>,
): Record<string, FieldValue> {
  const fitted: Record<string, FieldValue> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = fields.get(key);
    const converted = field ? convertFieldValue(field, value) : undefined;
    if (converted?.ok && converted.value !== null) fitted[key] = converted.value;
  }
  return fitted;
}

/* The import wizard's mapping (issue 24): which column of a file goes to which field. The browser builds it and the
 * API checks it (api/src/services/imports/mapping.ts); both name a file's columns the same way. */

const EMAIL_COLUMN_NAMES = new Set(['email', 'emailaddress']);

/** 'Email', ' EMAIL ', 'e-mail', 'E-mail Address', 'email_address' all name the email column. */
export function isEmailColumnName(name: string): boolean {
  return EMAIL_COLUMN_NAMES.has(name.toLowerCase().replace(/[\s_-]+/g, ''));
}

/**
 * A file's columns as the import names them: each header trimmed, a blank one 'Column N' (N from 1), and a
 * repeated one (without regard to case) 'Name (2)', 'Name (3)'..., so every column has a name of its own.
 */
export function fileColumnNames(header: readonly string[]): string[] {
  const used = new Set<string>();
  return header.map((raw, index) => {
    const base = raw.trim() || `Column ${index + 1}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** Where one column of a file goes: an existing field (by key), a new field, or nowhere. */
export type ColumnTarget =
  | { column: string; to: 'field'; key: string }
  | { column: string; to: 'new'; key: string; label: string; type: FieldType; options?: string[] | null; required?: boolean }
  | { column: string; to: 'none' };

/** The mapping sent with an upload (the multipart field `mapping`, JSON). A column it does not list is not imported. */
export interface ImportMapping {
  /** The column that holds the address. */
  emailColumn: string;
  columns: ColumnTarget[];
}

/** The longest mapping the API reads, in characters of JSON. */
export const MAX_MAPPING_CHARS = 128 * 1024;
