/**
 * The little html reading that sending needs: the `<a>` start tags of an email with their
 * attributes and where they sit, entity decoding, and a plain-text rendering. Email html comes
 * from our own editor, so a tolerant scanner (quoted values may hold `>`) is enough; no DOM.
 */

export interface Attribute {
  /** Lower-cased. */
  name: string;
  /** As written (entities not decoded); undefined for a bare attribute. */
  value: string | undefined;
  /** Offsets in the html of the whole attribute (`name="value"`). */
  start: number;
  end: number;
}

export interface StartTag {
  /** Offsets in the html of the whole tag, `<a` to `>`. */
  start: number;
  end: number;
  /** Offset just after the tag name. */
  nameEnd: number;
  attributes: Attribute[];
}

const ANCHOR_START = /<a(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Every `<a ...>` start tag, in document order. */
export function anchorTags(html: string): StartTag[] {
  const tags: StartTag[] = [];
  for (const match of html.matchAll(ANCHOR_START)) {
    const nameEnd = match.index + 2;
    const body = match[1]!;
    const attributes: Attribute[] = [];
    for (const attr of body.matchAll(ATTRIBUTE)) {
      const start = nameEnd + attr.index;
      attributes.push({
        name: attr[1]!.toLowerCase(),
        value: attr[2] ?? attr[3] ?? attr[4],
        start,
        end: start + attr[0].length,
      });
    }
    tags.push({ start: match.index, end: match.index + match[0].length, nameEnd, attributes });
  }
  return tags;
}

export function attribute(tag: StartTag, name: string): Attribute | undefined {
  return tag.attributes.find((attr) => attr.name === name);
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  bull: '\u2022',
  middot: '\u00b7',
  euro: '\u20ac',
  zwnj: '\u200c',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,8}));/g;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

const BLOCK_END = /<\/(?:p|div|h[1-6]|tr|table|ul|ol|li|blockquote|section|article|header|footer|center)\s*>/gi;
const BLOCK_START = /<(?:p|div|h[1-6]|table|blockquote|center)(?=[\s>])[^>]*>/gi;

/**
 * A readable plain-text part for a template that has none: text in reading order, one block per
 * line, links as `text (https://...)`, Outlook-only markup (conditional comments) left out.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a(?=[\s>])((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/a\s*>/gi, (_whole, attrs: string, inner: string) => {
      const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
      const target = decodeEntities(href?.[1] ?? href?.[2] ?? href?.[3] ?? '').trim();
      const label = inner.replace(/<[^>]*>/g, '').trim();
      if (!/^https?:\/\//i.test(target) || decodeEntities(label) === target) return label;
      return label ? `${label} (${target})` : target;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li(?=[\s>])[^>]*>/gi, '\n- ')
    .replace(BLOCK_END, '\n')
    .replace(BLOCK_START, '\n')
    .replace(/<\/t[dh]\s*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
