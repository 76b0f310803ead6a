/** Elements after which the text goes on a new line. */
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DIV',
  'DL',
  'DT',
  'DD',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);
const SKIPPED = new Set(['HEAD', 'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TITLE']);

/**
 * The plain-text part of an email from its html: the visible text, a line per block, links followed
 * by their address. Parsed with DOMParser, which neither runs scripts nor loads anything.
 */
export function htmlToPlainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const lines: string[] = [];
  let line = '';
  const breakLine = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    if (SKIPPED.has(element.tagName)) return;
    const block = BLOCKS.has(element.tagName);
    if (block) breakLine();
    element.childNodes.forEach(walk);
    const href = element.tagName === 'A' ? element.getAttribute('href') : null;
    if (href && /^(https?:|mailto:)/i.test(href) && !line.includes(href)) line += ` (${href})`;
    if (block) breakLine();
  };
  if (doc.body) walk(doc.body);
  breakLine();
  return lines.join('\n');
}
