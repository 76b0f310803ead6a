/**
 * A column's values as the import stores them (the storage rule: packages/api-client/src/fields.ts): JSON text of
 * the typed value for contacts.data, '' for no value, or null for a value that does not fit its field (the row is
 * then an error row, and parseFieldValue says why).
 *
 * parseFieldValue is the rule; this is the same rule at a million rows. The shapes nearly every file holds
 * (plain numbers, 'YYYY-MM-DD' dates, an exact option) are read by scanning characters, with no regex and no
 * object per value; anything else goes to parseFieldValue itself, so the two cannot disagree on what they accept
 * (typed-values.test.ts compares them).
 */
import { MAX_TEXT_LENGTH, parseFieldValue, parseYesNo, type FieldRule } from '@mailroom/api-client/fields';

export type ValueReader = (raw: string) => string | null;

/** A plain number's integer digits: with at most 14, no fraction rounds it up to parseNumber's bound (1e15). */
const MAX_PLAIN_DIGITS = 14;

export function valueReader(field: FieldRule): ValueReader {
  const required = field.required === true;
  const general: ValueReader = (raw) => {
    const parsed = parseFieldValue(field, raw);
    if (!parsed.ok) return null;
    return parsed.value === null ? '' : JSON.stringify(parsed.value);
  };
  const blank = required ? null : '';
  switch (field.type) {
    case 'TEXT':
      return (raw) => {
        const text = raw.trim();
        if (text === '') return blank;
        return text.length > MAX_TEXT_LENGTH || text.includes('\u0000') ? null : JSON.stringify(text);
      };
    case 'NUMBER':
      return (raw) => {
        const text = raw.trim();
        if (text === '') return blank;
        return isPlainNumber(text) ? String(Number(text)) : general(text);
      };
    case 'DATE':
      return (raw) => {
        const text = raw.trim();
        if (text === '') return blank;
        const day = plainDate(text);
        return day === undefined ? general(text) : day ? `"${text}"` : null;
      };
    case 'YES_NO':
      return (raw) => {
        const text = raw.trim();
        if (text === '') return blank;
        const value = parseYesNo(text);
        return value === null ? null : value ? 'true' : 'false';
      };
    case 'CHOICE': {
      // The option as the field spells it, found exactly or else without regard to case (parseFieldValue's order).
      const exact = new Map<string, string>();
      const folded = new Map<string, string>();
      for (const option of field.options ?? []) {
        if (!exact.has(option)) exact.set(option, JSON.stringify(option));
        if (!folded.has(option.toLowerCase())) folded.set(option.toLowerCase(), JSON.stringify(option));
      }
      return (raw) => {
        const text = raw.trim();
        if (text === '') return blank;
        return exact.get(text) ?? folded.get(text.toLowerCase()) ?? null;
      };
    }
  }
}

/** '-12', '42', '3.25': an optional sign, 1 to 14 digits, and optionally a point and digits. */
function isPlainNumber(text: string): boolean {
  let i = 0;
  const first = text.charCodeAt(0);
  if (first === 43 || first === 45) i = 1; // + -
  const start = i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  const digits = i - start;
  if (digits === 0 || digits > MAX_PLAIN_DIGITS) return false;
  if (i === text.length) return true;
  if (text.charCodeAt(i) !== 46) return false; // .
  const fraction = ++i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i > fraction && i === text.length;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** 'YYYY-MM-DD': true for a real day (year 1000 on), false for a date that is not one, undefined for another shape. */
function plainDate(text: string): boolean | undefined {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 0 || day < 0) return undefined;
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + code - 48;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
