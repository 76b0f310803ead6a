/**
 * The shell of every page the API serves to the public (the unsubscribe page, the sign-up pages): one
 * document, escaped text, `no-store`, never indexed. Each page brings its own styling and headers: the
 * unsubscribe page's inline style attributes under the API's policy (security-headers.ts), the sign-up
 * pages' stylesheet under their stricter one (public/signup-pages.ts).
 */
import type { Response } from 'express';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PublicPage {
  status: number;
  title: string;
  /** HTML after the heading, already escaped where it holds text. */
  body: string;
  /** HTML of the head after the title (a stylesheet). */
  head?: string;
  /** Attributes of <body> and of the <h1>, as HTML. */
  bodyAttributes?: string;
  headingAttributes?: string;
  /** HTML after the body's content (a script of the page's own origin). */
  end?: string;
  /** Headers of this page only (its Content-Security-Policy). */
  headers?: Record<string, string>;
}

export function sendPage(res: Response, page: PublicPage): void {
  res
    .status(page.status)
    .type('html')
    .set({ 'Cache-Control': 'no-store', ...page.headers })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escapeHtml(page.title)}</title>${page.head ?? ''}</head>` +
        `<body${page.bodyAttributes ?? ''}><main><h1${page.headingAttributes ?? ''}>${escapeHtml(page.title)}</h1>${page.body}</main>${page.end ?? ''}</body></html>`,
    );
}
