/**
 * The links of a campaign, taken when sending starts (docs/architecture.md, Mail and tracking): every `<a>` whose href
 * is http(s) becomes a campaign_links row, and the campaign's html snapshot carries its id in
 * `data-link-id`, so the report's click map can put each link's figures on it.
 *
 * A link whose address holds a merge tag is personal (its target differs per contact): it is not
 * tracked, so a click never depends on contact data, and it keeps its tag for the renderer.
 *
 * Given a target for it, the snapshot also gets the hidden link (an addition to the spec; see
 * services/tracking/classify.ts): an anchor with no text and no size right after `<body>`, that no
 * person sees or reaches, tracked like the others (so every mail has a click URL of its own for it),
 * that only link scanners follow. It is last in `links`, marked hidden; the report never shows it. A
 * hidden link in the html already (a copy of a sent campaign's) is taken out first.
 */
import { anchorTags, attribute, decodeEntities, type StartTag } from './html.js';
import { escapeHtml, mergeTagsIn } from './merge-tags.js';

export const LINK_ID_ATTRIBUTE = 'data-link-id';
/** Marks the hidden link in a snapshot. */
export const HIDDEN_LINK_ATTRIBUTE = 'data-hidden-link';

const HIDDEN_LINK_STYLE = 'display:block;width:0;height:0;max-height:0;overflow:hidden;font-size:0;line-height:0;mso-hide:all';

export interface SnapshotLink {
  /** The target, entities decoded: what a click redirects to. */
  href: string;
  /** 0, 1, 2... in document order (the hidden link last). */
  position: number;
  /** The hidden link: no person sees it, a hit on it is a scanner's. */
  hidden?: boolean;
}

export interface LinkSnapshot {
  links: SnapshotLink[];
  /** The html with `data-link-id="<id>"` on each tracked link; `ids[i]` is the id of `links[i]`. */
  html(ids: readonly number[]): string;
}

export function isTrackable(href: string): boolean {
  return /^https?:\/\/[^\s]/i.test(href) && mergeTagsIn(href).length === 0;
}

/** The html without its hidden links (each an empty `<a ...></a>`): of an earlier snapshot, or for a mail's text part. */
export function withoutHiddenLinks(html: string): string {
  let out = '';
  let at = 0;
  for (const tag of anchorTags(html)) {
    if (!attribute(tag, HIDDEN_LINK_ATTRIBUTE) || tag.start < at) continue;
    const close = /^\s*<\/a\s*>/i.exec(html.slice(tag.end));
    out += html.slice(at, tag.start);
    at = tag.end + (close ? close[0].length : 0);
  }
  return out + html.slice(at);
}

/** `hiddenHref`: where the hidden link leads (leave out for no hidden link). */
export function snapshotLinks(source: string, hiddenHref?: string): LinkSnapshot {
  const html = withoutHiddenLinks(source);
  const tags = anchorTags(html);
  const tracked: { tag: StartTag; link: SnapshotLink }[] = [];
  const stale: StartTag[] = [];
  for (const tag of tags) {
    const value = attribute(tag, 'href')?.value;
    const href = value === undefined ? undefined : decodeEntities(value).trim();
    if (href !== undefined && isTrackable(href)) tracked.push({ tag, link: { href, position: tracked.length } });
    else if (attribute(tag, LINK_ID_ATTRIBUTE)) stale.push(tag);
  }

  const hidden: SnapshotLink | undefined =
    hiddenHref === undefined ? undefined : { href: hiddenHref, position: tracked.length, hidden: true };
  const links = tracked.map(({ link }) => link);
  if (hidden) links.push(hidden);

  return {
    links,
    html(ids) {
      if (ids.length !== links.length) throw new RangeError(`expected ${links.length} link ids, got ${ids.length}`);
      // A template copied from a sent campaign's html may carry old ids: they are replaced or removed.
      const rewrites = [
        ...tracked.map(({ tag }, i) => ({ tag, id: ids[i] as number | undefined })),
        ...stale.map((tag) => ({ tag, id: undefined })),
      ].sort((a, b) => a.tag.start - b.tag.start);
      let out = '';
      let at = 0;
      for (const { tag, id } of rewrites) {
        out += html.slice(at, tag.nameEnd);
        if (id !== undefined) out += ` ${LINK_ID_ATTRIBUTE}="${id}"`;
        let from = tag.nameEnd;
        const old = attribute(tag, LINK_ID_ATTRIBUTE);
        if (old) {
          out += html.slice(from, old.start).replace(/\s+$/, '');
          from = old.end;
        }
        out += html.slice(from, tag.end);
        at = tag.end;
      }
      out += html.slice(at);
      if (!hidden) return out;
      const anchor =
        `<a href="${escapeHtml(hidden.href)}" ${LINK_ID_ATTRIBUTE}="${ids[links.length - 1]}" ${HIDDEN_LINK_ATTRIBUTE}="" ` +
        `aria-hidden="true" tabindex="-1" style="${HIDDEN_LINK_STYLE}"></a>`;
      const body = /<body\b[^>]*>/i.exec(out);
      const where = body ? body.index + body[0].length : 0;
      return out.slice(0, where) + anchor + out.slice(where);
    },
  };
}
