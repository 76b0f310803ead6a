/**
 * File downloads: the headers every download answer sets, and a Content-Disposition that no file
 * name can break (RFC 6266: an ASCII `filename` fallback and the UTF-8 `filename*`).
 */
import type { Response } from 'express';

/**
 * Control characters, path separators and quotes become spaces; format characters (U+202E
 * right-to-left override and the like, which can make `evil.exe.csv` read as `evil.vsc.exe`) go.
 */
function safeBase(name: string): string {
  return name
    .replace(/\p{Cf}+/gu, '')
    .replace(/[\p{Cc}/\\"\s]+/gu, ' ')
    .trim();
}

/**
 * `attachment` with `<name><suffix>`: `name` is free text (an audience's name), `suffix` a fixed
 * ASCII ending such as '-contacts.csv'; `fallback` stands in for a name with nothing ASCII left.
 */
export function contentDisposition(name: string, suffix: string, fallback: string): string {
  const base = safeBase(name) || fallback;
  const ascii =
    base
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/[^A-Za-z0-9._ -]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim() || fallback;
  const encoded = encodeURIComponent(base + suffix).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}${suffix}"; filename*=UTF-8''${encoded}`;
}

/** Sets the headers of a download answer; the body follows (usually streamed). */
export function startDownload(res: Response, disposition: string, contentType: string): void {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', disposition);
  res.setHeader('Cache-Control', 'no-store');
}
