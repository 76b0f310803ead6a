/**
 * One recipient's copy of a campaign. The campaign's html is compiled once into literal pieces and
 * per-recipient slots, so the copy for each of a hundred thousand contacts is a join, not a parse:
 *  - merge tags: the contact's values (or the tag's fallback), HTML-escaped (percent-encoded too inside an href);
 *  - tracked links (`data-link-id`): the signed click URL of this job and link;
 *  - a hidden preheader with the preview text after `<body>`;
 *  - an unsubscribe line and the open pixel before `</body>`;
 *  - the subject and the plain-text part with the values filled (no line breaks in the subject).
 * Without tracking URLs (test sends, previews) links stay as they are and there is no pixel.
 */
import { anchorTags, attribute, htmlToText } from './html.js';
import { LINK_ID_ATTRIBUTE, withoutHiddenLinks } from './links.js';
import {
  escapeHtml,
  fieldValue,
  fillLine,
  fillText,
  htmlText,
  tagOccurrences,
  type MergeContact,
  type ResolvedFields,
} from './merge-tags.js';
import type { TrackingUrls } from './tracking-tokens.js';

export interface MailContent {
  subject: string;
  previewText: string | null;
  /** The campaign's html (its snapshot, with link ids, when sending). */
  html: string;
  /** The template's own plain text; derived from the html when there is none. */
  plainText: string | null;
  fields: ResolvedFields;
}

export interface MailRecipient extends MergeContact {
  /** The job being sent; tracking needs it. */
  jobId?: number;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** The recipient's unsubscribe URL (List-Unsubscribe); undefined without tracking. */
  unsubscribeUrl: string | undefined;
}

export interface ComposeOptions {
  /** Open pixel, click links and unsubscribe for jobs; leave out for test sends and previews. */
  tracking?: TrackingUrls;
  /** Add the preview text as a hidden preheader (a preview shows it apart). Default true. */
  preheader?: boolean;
}

export type MailRenderer = (recipient: MailRecipient) => RenderedMail;

type Piece = string | ((recipient: MailRecipient) => string);

interface Edit {
  start: number;
  end: number;
  piece: Piece;
}

const PIXEL_STYLE = 'display:block;border:0;width:1px;height:1px;overflow:hidden';
const PREHEADER_STYLE = 'display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all';
const FOOTER_STYLE = 'text-align:center;font:12px/1.5 Arial,Helvetica,sans-serif;color:#6b6b6b;padding:16px';

export function compileMail(content: MailContent, options: ComposeOptions = {}): MailRenderer {
  const { tracking } = options;
  const { fields } = content;
  const jobOf = (recipient: MailRecipient): number => {
    if (recipient.jobId === undefined) throw new Error('a tracked mail needs the job id');
    return recipient.jobId;
  };

  const edits: Edit[] = [];
  const hrefRanges: { start: number; end: number }[] = [];
  for (const tag of anchorTags(content.html)) {
    const href = attribute(tag, 'href');
    if (!href || href.value === undefined) continue;
    hrefRanges.push(href);
    const linkId = Number(attribute(tag, LINK_ID_ATTRIBUTE)?.value);
    if (tracking && Number.isSafeInteger(linkId) && linkId > 0) {
      edits.push({ start: href.start, end: href.end, piece: (r) => `href="${tracking.click(jobOf(r), linkId)}"` });
    }
  }
  for (const tag of tagOccurrences(content.html)) {
    const source = fields.get(tag.name);
    // The fallback is the text the template's html spells (`&amp;` is `&`), written as a value is.
    const fallback = tag.fallback === undefined ? '' : htmlText(tag.fallback);
    const inHref = hrefRanges.some((range) => tag.start >= range.start && tag.end <= range.end);
    const piece: Piece = inHref
      ? (r) => escapeHtml(encodeURIComponent(fieldValue(source, r) || fallback))
      : (r) => escapeHtml(fieldValue(source, r) || fallback);
    // Inside a tracked href the whole attribute is replaced already.
    if (!edits.some((edit) => tag.start >= edit.start && tag.end <= edit.end)) edits.push({ start: tag.start, end: tag.end, piece });
  }

  const preview = content.previewText;
  if (preview && options.preheader !== false) {
    const body = /<body\b[^>]*>/i.exec(content.html);
    const at = body ? body.index + body[0].length : 0;
    edits.push({ start: at, end: at, piece: (r) => `<div style="${PREHEADER_STYLE}">${escapeHtml(fillLine(preview, fields, r))}</div>` });
  }
  if (tracking) {
    const close = content.html.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
    const at = close === -1 ? content.html.length : close;
    edits.push({
      start: at,
      end: at,
      piece: (r) => {
        const jobId = jobOf(r);
        return (
          `<div style="${FOOTER_STYLE}">If you no longer wish to receive these emails, ` +
          `<a href="${tracking.unsubscribe(jobId)}" style="color:#6b6b6b">unsubscribe</a>.</div>` +
          `<img src="${tracking.open(jobId)}" width="1" height="1" alt="" style="${PIXEL_STYLE}" />`
        );
      },
    });
  }

  const pieces = toPieces(content.html, edits);
  // The hidden link has no text and no person ever meets it: in a text part it would be a bare address on the first line.
  const text = content.plainText?.trim() ? content.plainText : htmlToText(withoutHiddenLinks(content.html));

  return (recipient) => {
    let html = '';
    for (const piece of pieces) html += typeof piece === 'string' ? piece : piece(recipient);
    const unsubscribeUrl = tracking ? tracking.unsubscribe(jobOf(recipient)) : undefined;
    const body = fillText(text, fields, recipient);
    return {
      subject: fillLine(content.subject, fields, recipient),
      html,
      text: unsubscribeUrl ? `${body}\n\n--\nUnsubscribe: ${unsubscribeUrl}\n` : body,
      unsubscribeUrl,
    };
  };
}

/** The html cut at the edits (never overlapping; at one offset an insertion goes before a replacement). */
function toPieces(html: string, edits: Edit[]): Piece[] {
  const width = (edit: Edit) => edit.end - edit.start;
  const sorted = [...edits].sort((a, b) => a.start - b.start || width(a) - width(b));
  const pieces: Piece[] = [];
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error('overlapping edits in a mail');
    if (edit.start > at) pieces.push(html.slice(at, edit.start));
    pieces.push(edit.piece);
    at = edit.end;
  }
  if (at < html.length) pieces.push(html.slice(at));
  return pieces;
}
