/**
 * Merge tags (docs/architecture.md, Mail and tracking): `{{name}}` in a template, subject or preview text, replaced for
 * each contact from the contact's data by the audience's field keys. `{{email}}` is the contact's address.
 *
 * A tag names a field of the audience: the exact key first, else the one that differs only in
 * case (the editor offers both `{{fullName}}` and `{{fullname}}`). The tags of a campaign are
 * resolved once against the audience's fields (`resolveFields`), each with the formatter of its type
 * in the organisation's locale built then, so the per-contact work is a property read (and, for a
 * number, a date or a yes/no, one call of a ready formatter); validation can ask PostgreSQL the same question.
 *
 * A tag may give a fallback, `{{firstName|friend}}` (spaces around `|` allowed): the text written when the
 * contact has no value. It is literal text, escaped in html as a value is, and at most MAX_FALLBACK_LENGTH
 * characters of anything but braces, `|` and line breaks; a tag with a longer one is no tag and stays as written.
 *
 * A tag without a value (no such field, or no value) is a "missing field" for that contact and
 * renders as its fallback, or an empty string.
 */
import { fieldFormatter, type FieldType, type FieldValue, type ValueFormatter } from '@mailroom/api-client/fields';

export const MAX_FALLBACK_LENGTH = 200;

/**
 * `{{ name }}` or `{{ name | fallback }}`: a name of letters, digits, and `_ . -` or spaces inside (CSV headers
 * such as "Full Name"), and a fallback of anything but braces, `|` and line breaks.
 */
// The fallback's bound is MAX_FALLBACK_LENGTH.
const TAG = /\{\{\s*([A-Za-z0-9_][\w .-]{0,99}?)\s*(?:\|\s*([^{}|\r\n]{0,200}?)\s*)?\}\}/g;

export const EMAIL_TAG = 'email';

/** The locale merge tags write numbers and dates in when none is given (ORG_LOCALE's default). */
export const DEFAULT_LOCALE = 'en-GB';

/** Where a tag's value comes from: the contact's address, one key of its data (written by its type), or nowhere. */
export type FieldSource = { kind: 'email' } | { kind: 'data'; key: string; format: ValueFormatter } | { kind: 'none' };

/** Tag name -> source, for the tags used by one campaign. */
export type ResolvedFields = ReadonlyMap<string, FieldSource>;

/** A field tags resolve against: its key and type. A bare string is a TEXT field of that key (a header). */
export type MergeField = string | { key: string; type: FieldType };

export interface MergeContact {
  email: string;
  /** The contact's values by key, typed as the storage rule has them (legacy values are strings). */
  data: Readonly<Record<string, FieldValue | null | undefined>>;
}

export interface TagOccurrence {
  name: string;
  /** The text after `|`, trimmed; undefined for a tag without one. */
  fallback: string | undefined;
  /** Offsets of the whole `{{ ... }}` in the text. */
  start: number;
  end: number;
}

export function tagOccurrences(text: string): TagOccurrence[] {
  return [...text.matchAll(TAG)].map((match) => ({
    name: match[1]!,
    fallback: match[2],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** The distinct tag names used by the texts, in order of first appearance. */
export function mergeTagsIn(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) if (text) for (const { name } of tagOccurrences(text)) names.add(name);
  return [...names];
}

/** The distinct tag names used at least once without a fallback: those a contact must have a value for. */
export function tagsWithoutFallbackIn(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) if (text) for (const { name, fallback } of tagOccurrences(text)) if (fallback === undefined) names.add(name);
  return [...names];
}

/** Resolves each tag against the audience's fields, their values to be written in `locale`. */
export function resolveFields(tags: Iterable<string>, fields: readonly MergeField[], locale: string = DEFAULT_LOCALE): ResolvedFields {
  const typed = fields.map((field) => (typeof field === 'string' ? { key: field, type: 'TEXT' as const } : field));
  const byLowerCase = new Map<string, { key: string; type: FieldType }>();
  for (const field of typed) if (!byLowerCase.has(field.key.toLowerCase())) byLowerCase.set(field.key.toLowerCase(), field);
  const exact = new Map(typed.map((field) => [field.key, field]));
  const resolved = new Map<string, FieldSource>();
  for (const tag of tags) {
    const field = exact.get(tag) ?? (tag.toLowerCase() === EMAIL_TAG ? undefined : byLowerCase.get(tag.toLowerCase()));
    if (field) resolved.set(tag, { kind: 'data', key: field.key, format: fieldFormatter(field.type, locale) });
    else resolved.set(tag, tag.toLowerCase() === EMAIL_TAG ? { kind: 'email' } : { kind: 'none' });
  }
  return resolved;
}

/** The tags that name neither a field nor the address: the audience lacks them. */
export function lackingTags(fields: ResolvedFields, tags: Iterable<string> = fields.keys()): string[] {
  return [...tags].filter((tag) => fields.get(tag)?.kind === 'none');
}

export function fieldValue(source: FieldSource | undefined, contact: MergeContact | undefined): string {
  if (!contact || !source) return '';
  if (source.kind === 'email') return contact.email;
  if (source.kind === 'none') return '';
  const value = contact.data[source.key];
  return value === undefined || value === null || value === '' ? '' : source.format(value);
}

/** The tags that have no value for this contact, in the order `fields` lists them. */
export function missingFields(fields: ResolvedFields, contact: MergeContact): string[] {
  const missing: string[] = [];
  for (const [tag, source] of fields) if (fieldValue(source, contact) === '') missing.push(tag);
  return missing;
}

/** The html a template's editor wrote for a fallback's text, read back as the text (`&amp;` is `&`). */
export function htmlText(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_whole, name: string) => HTML_ENTITIES[name]!);
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: '\u00a0' };

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const HTML_SPECIAL = /[&<>"']/g;

/** Text made safe for html content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(HTML_SPECIAL, (c) => HTML_ESCAPES[c]!);
}

/** Line breaks in a value would break a header (subject) or a line of text: they become spaces. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/**
 * Fills the tags of a one-line text (subject, preview text): values on one line, not escaped.
 * Tags the fields do not know are resolved as missing.
 */
export function fillLine(text: string, fields: ResolvedFields, contact: MergeContact | undefined): string {
  return text.replace(TAG, (_whole, name: string, fallback?: string) =>
    singleLine(fieldValue(fields.get(name), contact) || (fallback ?? '')),
  );
}

/** Fills the tags of a plain-text body: values as they are. */
export function fillText(text: string, fields: ResolvedFields, contact: MergeContact | undefined): string {
  return text.replace(TAG, (_whole, name: string, fallback?: string) => fieldValue(fields.get(name), contact) || (fallback ?? ''));
}
