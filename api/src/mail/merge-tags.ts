/**
 * Merge tags (docs/architecture.md, Mail and tracking): `{{name}}` in a template, subject or preview text, replaced for
 * each contact from the contact's data by header name. `{{email}}` is the contact's address.
 *
 * A tag names a header of the audience: the exact name first, else the one that differs only in
 * case (the editor offers both `{{fullName}}` and `{{fullname}}`). The tags of a campaign are
 * resolved once against the audience's headers (`resolveFields`), so the per-contact work is a
 * property read, and validation can ask PostgreSQL the same question.
 *
 * A tag without a value (no such header, or an empty cell) is a "missing field" for that contact
 * and renders as an empty string.
 */

/** `{{ name }}`: letters, digits, and `_ . -` or spaces inside (CSV headers such as "Full Name"). */
const TAG = /\{\{\s*([A-Za-z0-9_][\w .-]{0,99}?)\s*\}\}/g;

export const EMAIL_TAG = 'email';

/** Where a tag's value comes from: the contact's address, one key of its data, or nowhere. */
export type FieldSource = { kind: 'email' } | { kind: 'data'; key: string } | { kind: 'none' };

/** Tag name -> source, for the tags used by one campaign. */
export type ResolvedFields = ReadonlyMap<string, FieldSource>;

export interface MergeContact {
  email: string;
  data: Readonly<Record<string, string>>;
}

export interface TagOccurrence {
  name: string;
  /** Offsets of the whole `{{ ... }}` in the text. */
  start: number;
  end: number;
}

export function tagOccurrences(text: string): TagOccurrence[] {
  return [...text.matchAll(TAG)].map((match) => ({ name: match[1]!, start: match.index, end: match.index + match[0].length }));
}

/** The distinct tag names used by the texts, in order of first appearance. */
export function mergeTagsIn(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) if (text) for (const { name } of tagOccurrences(text)) names.add(name);
  return [...names];
}

/** Resolves each tag against the audience's headers. */
export function resolveFields(tags: Iterable<string>, headers: readonly string[]): ResolvedFields {
  const byLowerCase = new Map<string, string>();
  for (const header of headers) if (!byLowerCase.has(header.toLowerCase())) byLowerCase.set(header.toLowerCase(), header);
  const exact = new Set(headers);
  const fields = new Map<string, FieldSource>();
  for (const tag of tags) {
    if (exact.has(tag)) fields.set(tag, { kind: 'data', key: tag });
    else if (tag.toLowerCase() === EMAIL_TAG) fields.set(tag, { kind: 'email' });
    else {
      const key = byLowerCase.get(tag.toLowerCase());
      fields.set(tag, key === undefined ? { kind: 'none' } : { kind: 'data', key });
    }
  }
  return fields;
}

export function fieldValue(source: FieldSource | undefined, contact: MergeContact | undefined): string {
  if (!contact || !source) return '';
  if (source.kind === 'email') return contact.email;
  if (source.kind === 'none') return '';
  const value: unknown = contact.data[source.key];
  // Typed fields (issue 24) hold numbers and booleans too; until merge tags write them in the organisation's
  // locale they are written plainly rather than taken for missing.
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return typeof value === 'string' ? value : '';
}

/** The tags that have no value for this contact, in the order `fields` lists them. */
export function missingFields(fields: ResolvedFields, contact: MergeContact): string[] {
  const missing: string[] = [];
  for (const [tag, source] of fields) if (fieldValue(source, contact) === '') missing.push(tag);
  return missing;
}

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
  return text.replace(TAG, (_whole, name: string) => singleLine(fieldValue(fields.get(name), contact)));
}

/** Fills the tags of a plain-text body: values as they are. */
export function fillText(text: string, fields: ResolvedFields, contact: MergeContact | undefined): string {
  return text.replace(TAG, (_whole, name: string) => fieldValue(fields.get(name), contact));
}
