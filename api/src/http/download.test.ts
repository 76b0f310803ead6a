import { describe, expect, it } from 'vitest';
import { contentDisposition } from './download.js';

describe('contentDisposition (RFC 6266)', () => {
  it('names the file with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('Newsletter 2024', '-contacts.csv', 'audience')).toBe(
      `attachment; filename="Newsletter 2024-contacts.csv"; filename*=UTF-8''Newsletter%202024-contacts.csv`,
    );
    expect(contentDisposition('Café "Ünïcode"/x', '-contacts.csv', 'audience')).toBe(
      `attachment; filename="Cafe Unicode x-contacts.csv"; filename*=UTF-8''Caf%C3%A9%20%C3%9Cn%C3%AFcode%20x-contacts.csv`,
    );
  });

  it('falls back when nothing ASCII is left, and keeps line breaks out', () => {
    expect(contentDisposition('日本', '-contacts.csv', 'audience')).toMatch(/^attachment; filename="audience-contacts.csv"; /);
    expect(contentDisposition('a\r\nb', '-contacts.csv', 'audience')).toMatch(
      /^attachment; filename="a b-contacts.csv"; filename\*=UTF-8''a%20b-contacts.csv$/,
    );
    expect(contentDisposition('', '.xlsx', 'email-performance')).toMatch(/^attachment; filename="email-performance.xlsx"; /);
  });

  it('drops format characters (a right-to-left override cannot disguise the extension) from both names', () => {
    const header = contentDisposition('invoice\u202Egpj.exe\u200B\uFEFF', '-contacts.csv', 'audience');
    expect(header).toBe(`attachment; filename="invoicegpj.exe-contacts.csv"; filename*=UTF-8''invoicegpj.exe-contacts.csv`);
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).not.toMatch(/\p{Cf}/u);
  });
});
