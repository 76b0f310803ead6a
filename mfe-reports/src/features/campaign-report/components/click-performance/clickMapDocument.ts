import type { CampaignLink } from '@mailroom/api-client';
import { clickTotals, clicksLabel, formatShare, sharePercent, type ClickTotals } from './shares';

/*
 * The click map without running anything of the template.
 *
 * A sent campaign's html is whatever its template held, so it is untrusted, and the map must never run
 * its script in the app's origin. The map is therefore one self-contained document built here and shown
 * as the `srcdoc` of a frame with an empty sandbox: no script runs in that frame at all (neither the
 * template's nor ours) and its origin is opaque, so nothing in it can reach the app, its token or its
 * storage. Since the parent cannot look into such a frame either, everything the map does is plain HTML
 * and CSS inside it:
 * - DOMParser turns the html into an inert document (nothing runs, nothing loads) where it is cleaned as
 *   a second line of defence: scripts, frames, plugins, <base>, <meta http-equiv> (refreshes, a CSP that
 *   would block the map's style), event-handler attributes and javascript: URLs go.
 * - Every link whose data-link-id is one of the campaign's links gets a badge with its clicks and share,
 *   and its href becomes the fragment of that link's details further down the same document; every other
 *   link loses its href, so nothing in the map navigates away.
 * - Hover and keyboard focus highlight a link (:hover, :focus-visible). A click or Enter moves to its
 *   fragment: :target shows that link's Link Details and marks the link; with nothing targeted the Click
 *   Summary shows instead (:has).
 * - The fragments are written as `about:srcdoc#...`: a srcdoc document resolves relative URLs against its
 *   parent's address, so a bare '#x' would load the app's page into the frame instead of moving to the
 *   fragment, and a `<base href="about:srcdoc">` is refused by the app's policy (`base-uri 'none'`, which
 *   srcdoc frames inherit).
 */

const PREFIX = 'mailroom-clickmap';
export const CLICK_MAP_IDS = {
  panel: `${PREFIX}-panel`,
  summary: `${PREFIX}-summary`,
  details: (linkId: number) => `${PREFIX}-link-${linkId}`,
};
/** A link to an element of the map itself (see above for the about:srcdoc). */
const fragment = (id: string) => `about:srcdoc#${id}`;
const CLASSES = { link: `${PREFIX}-link`, badge: `${PREFIX}-badge`, details: `${PREFIX}-details`, bar: `${PREFIX}-bar` };

/**
 * The language of the map's own text, as of the app (its pages are `lang="en"`): the panel is marked
 * with it, and so is the document when the email declares no language of its own (WCAG 3.1.1, 3.1.2).
 */
export const CLICK_MAP_LANGUAGE = 'en';

const DROPPED = 'script, base, iframe, frame, frameset, object, embed, applet, portal, meta[http-equiv]';
const URL_ATTRIBUTES = new Set(['href', 'xlink:href', 'src', 'action', 'formaction', 'background', 'poster']);

interface Palette {
  scheme: 'light' | 'dark';
  background: string;
  foreground: string;
  border: string;
  link: string;
  accent: string;
  onAccent: string;
  track: string;
  hover: string;
}

/** Fluent's web light and dark colours: the frame cannot read the app's theme tokens. */
const PALETTES: Record<'light' | 'dark', Palette> = {
  light: {
    scheme: 'light',
    background: '#ffffff',
    foreground: '#242424',
    border: '#d1d1d1',
    link: '#115ea3',
    accent: '#0f6cbd',
    onAccent: '#ffffff',
    track: '#e0e0e0',
    hover: '#ebf3fc',
  },
  dark: {
    scheme: 'dark',
    background: '#292929',
    foreground: '#ffffff',
    border: '#666666',
    link: '#479ef5',
    accent: '#115ea3',
    onAccent: '#ffffff',
    track: '#3d3d3d',
    hover: '#0e4775',
  },
};

function isScriptUrl(value: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme ('java\tscript:').
  const compact = [...value].filter((char) => char.charCodeAt(0) > 32).join('');
  return /^(javascript|vbscript):/i.test(compact);
}

function clean(doc: Document): void {
  doc.querySelectorAll(DROPPED).forEach((element) => element.remove());
  for (const element of doc.querySelectorAll('*')) {
    for (const { name, value } of [...element.attributes]) {
      const lower = name.toLowerCase();
      if (lower.startsWith('on') || lower === 'target' || (URL_ATTRIBUTES.has(lower) && isScriptUrl(value))) {
        element.removeAttribute(name);
      }
    }
  }
}

function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  props: { text?: string; className?: string; id?: string; href?: string } = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  if (props.text !== undefined) node.textContent = props.text;
  if (props.className) node.className = props.className;
  if (props.id) node.id = props.id;
  if (props.href) node.setAttribute('href', props.href);
  node.append(...children);
  return node;
}

/** The link's badge text: its clicks and their share of all clicks, e.g. '12 clicks · 40.0%'. */
export const badgeText = (link: CampaignLink, totals: ClickTotals) =>
  `${clicksLabel(link.clicks)} · ${formatShare(link.clicks, totals.clicks)}`;

function summary(doc: Document, links: readonly CampaignLink[], totals: ClickTotals): HTMLElement {
  const titleId = `${CLICK_MAP_IDS.summary}-title`;
  const section = element(doc, 'section', { id: CLICK_MAP_IDS.summary }, element(doc, 'h2', { id: titleId, text: 'Click Summary' }));
  section.setAttribute('aria-labelledby', titleId);
  if (links.length === 0) {
    section.append(element(doc, 'p', { text: 'This email has no tracked links.' }));
    return section;
  }
  const list = element(doc, 'ol');
  for (const link of links) {
    const fill = element(doc, 'span');
    fill.style.width = `${sharePercent(link.clicks, totals.clicks).toFixed(1)}%`;
    const bar = element(doc, 'span', { className: CLASSES.bar }, fill);
    bar.setAttribute('aria-hidden', 'true');
    const item = element(
      doc,
      'li',
      {},
      element(
        doc,
        'a',
        { href: fragment(CLICK_MAP_IDS.details(link.id)) },
        element(doc, 'span', { text: link.href, className: `${PREFIX}-url` }),
        bar,
        element(doc, 'span', { text: `${clicksLabel(link.clicks)} (${formatShare(link.clicks, totals.clicks)})` }),
      ),
    );
    item.setAttribute('data-link-id', String(link.id));
    list.append(item);
  }
  section.append(list);
  return section;
}

function details(doc: Document, link: CampaignLink, totals: ClickTotals): HTMLElement {
  const id = CLICK_MAP_IDS.details(link.id);
  const rows: [string, string][] = [
    ['URL', link.href],
    ['Total Clicks', String(link.clicks)],
    ['% of all clicks', formatShare(link.clicks, totals.clicks)],
    ['Unique Clicks', String(link.uniqueClicks)],
    ['% of all unique clicks', formatShare(link.uniqueClicks, totals.uniqueClicks)],
  ];
  const list = element(doc, 'dl');
  for (const [term, value] of rows) list.append(element(doc, 'dt', { text: term }), element(doc, 'dd', { text: value }));
  const section = element(
    doc,
    'section',
    { id, className: CLASSES.details },
    element(doc, 'h2', { id: `${id}-title`, text: 'Link Details' }),
    list,
    element(doc, 'a', { href: fragment(CLICK_MAP_IDS.summary), text: 'Back to Click Summary' }),
  );
  section.setAttribute('aria-labelledby', `${id}-title`);
  return section;
}

function styleSheet(links: readonly CampaignLink[], palette: Palette): string {
  const panel = `#${CLICK_MAP_IDS.panel}`;
  // Link ids are integers from the API, so they are safe inside selectors.
  const perLink = links
    .map(({ id }) => {
      const link = `a.${CLASSES.link}[data-link-id="${id}"]`;
      return `html:has(#${CLICK_MAP_IDS.details(id)}:target) ${link} { outline: 4px double ${palette.accent} !important; outline-offset: 3px; }
html:has(${link}:hover) #${CLICK_MAP_IDS.summary} li[data-link-id="${id}"] { background: ${palette.hover}; }`;
    })
    .join('\n');
  return `
html { margin-right: 340px !important; }
${panel}, ${panel} * { all: revert; box-sizing: border-box; }
${panel} { position: fixed; top: 0; right: 0; bottom: 0; width: 340px; overflow: auto; z-index: 2147483647; padding: 16px;
  background: ${palette.background}; color: ${palette.foreground}; border-left: 1px solid ${palette.border};
  font: 14px/1.43 "Segoe UI", system-ui, sans-serif; color-scheme: ${palette.scheme}; text-align: left; }
${panel} h2 { font-size: 16px; font-weight: 600; margin: 0 0 12px; }
${panel} a { color: ${palette.link}; }
${panel} ol { list-style: none; margin: 0; padding: 0; }
${panel} li { padding: 6px; border-radius: 4px; }
${panel} li a { display: block; text-decoration: none; color: inherit; }
${panel} .${PREFIX}-url { display: block; overflow-wrap: anywhere; color: ${palette.link}; }
${panel} .${CLASSES.bar} { display: block; height: 8px; margin: 4px 0; border-radius: 4px; background: ${palette.track}; overflow: hidden; }
${panel} .${CLASSES.bar} > span { display: block; height: 100%; background: ${palette.accent}; }
${panel} dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; margin: 0 0 16px; }
${panel} dt { font-weight: 600; }
${panel} dd { margin: 0; overflow-wrap: anywhere; }
${panel} .${CLASSES.details} { display: none; }
${panel} .${CLASSES.details}:target { display: block; }
${panel}:has(.${CLASSES.details}:target) #${CLICK_MAP_IDS.summary} { display: none; }
a.${CLASSES.link} { position: relative; }
a.${CLASSES.link}:hover, a.${CLASSES.link}:focus-visible { outline: 3px solid ${palette.link} !important; outline-offset: 2px; }
/* The badge ends at its link's right edge: past it, a link at the email's right edge widened the page, which scrolled sideways. */
.${CLASSES.badge} { all: initial; position: absolute; bottom: calc(100% - 2px); right: 0; z-index: 2147483646; padding: 1px 6px;
  border-radius: 9px; background: ${palette.accent}; color: ${palette.onAccent}; font: 600 11px/16px "Segoe UI", system-ui, sans-serif;
  white-space: nowrap; pointer-events: none; }
@media (max-width: 720px) {
  html { margin-right: 0 !important; margin-bottom: 50vh !important; }
  ${panel} { top: auto; left: 0; width: auto; height: 50vh; border-left: none; border-top: 1px solid ${palette.border}; }
}
${perLink}
`;
}

/**
 * The click map of `html` as one document for a frame with an empty sandbox: the email with a badge on
 * each tracked link, and beside it the Click Summary and each link's Link Details.
 */
export function clickMapDocument(html: string, allLinks: readonly CampaignLink[], theme: 'light' | 'dark'): string {
  // Ids go into selectors and fragments: only what the contract promises, integers, is used.
  const links = allLinks.filter((link) => Number.isSafeInteger(link.id));
  const doc = new DOMParser().parseFromString(html, 'text/html');
  clean(doc);
  const totals = clickTotals(links);
  const byId = new Map(links.map((link) => [String(link.id), link]));

  for (const anchor of doc.querySelectorAll('a, area')) {
    const link = byId.get(anchor.getAttribute('data-link-id') ?? '');
    anchor.removeAttribute('xlink:href');
    if (!link) {
      anchor.removeAttribute('href');
      continue;
    }
    anchor.setAttribute('href', fragment(CLICK_MAP_IDS.details(link.id)));
    if (anchor.localName !== 'a') continue;
    anchor.classList.add(CLASSES.link);
    anchor.append(element(doc, 'span', { className: CLASSES.badge, text: badgeText(link, totals) }));
  }

  doc.head.append(element(doc, 'style', { text: styleSheet(links, PALETTES[theme]) }));

  const panel = element(
    doc,
    'aside',
    { id: CLICK_MAP_IDS.panel },
    summary(doc, links, totals),
    ...links.map((link) => details(doc, link, totals)),
  );
  panel.setAttribute('aria-label', 'Click map');
  panel.setAttribute('lang', CLICK_MAP_LANGUAGE);
  doc.body.append(panel);
  if (!doc.documentElement.getAttribute('lang')?.trim()) doc.documentElement.setAttribute('lang', CLICK_MAP_LANGUAGE);

  const doctype = doc.doctype ? new XMLSerializer().serializeToString(doc.doctype) : '';
  return `${doctype}${doc.documentElement.outerHTML}`;
}
