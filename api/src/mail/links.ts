/**
 * The links of a campaign, taken when sending starts (DESIGN.md section 5): every `<a>` whose href
 * is http(s) becomes a campaign_links row, and the campaign's html snapshot carries its id in
 * `data-link-id`, so the report's click map can put each link's figures on it.
 *
 * A link whose address holds a merge tag is personal (its target differs per contact): it is not
 * tracked, so a click never depends on contact data, and it keeps its tag for the renderer.
 */
import { anchorTags, attribute, decodeEntities, type StartTag } from './html.js';
import { mergeTagsIn } from './merge-tags.js';

export const LINK_ID_ATTRIBUTE = 'data-link-id';

export interface SnapshotLink {
  /** The target, entities decoded: what a click redirects to. */
  href: string;
  /** 0, 1, 2... in document order. */
  position: number;
}

export interface LinkSnapshot {
  links: SnapshotLink[];
  /** The html with `data-link-id="<id>"` on each tracked link; `ids[i]` is the id of `links[i]`. */
  html(ids: readonly number[]): string;
}

export function isTrackable(href: string): boolean {
  return /^https?:\/\/[^\s]/i.test(href) && mergeTagsIn(href).length === 0;
}

export function snapshotLinks(html: string): LinkSnapshot {
  const tags = anchorTags(html);
  const tracked: { tag: StartTag; link: SnapshotLink }[] = [];
  const stale: StartTag[] = [];
  for (const tag of tags) {
    const value = attribute(tag, 'href')?.value;
    const href = value === undefined ? undefined : decodeEntities(value).trim();
    if (href !== undefined && isTrackable(href)) tracked.push({ tag, link: { href, position: tracked.length } });
    else if (attribute(tag, LINK_ID_ATTRIBUTE)) stale.push(tag);
  }

  return {
    links: tracked.map(({ link }) => link),
    html(ids) {
      if (ids.length !== tracked.length) throw new RangeError(`expected ${tracked.length} link ids, got ${ids.length}`);
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
      return out + html.slice(at);
    },
  };
}
