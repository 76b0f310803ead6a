import { describe, expect, it } from 'vitest';
import { isTrackable, snapshotLinks } from './links.js';

describe('snapshotLinks', () => {
  const html =
    '<p><a href="https://example.org/a?x=1&amp;y=2">A</a> <a href="mailto:x@example.org">M</a> ' +
    '<a class="btn" href="http://example.org/b" data-link-id="99">B</a> <a href="https://example.org/u?e={{email}}" data-link-id="7">U</a> ' +
    '<a href="#top">T</a></p>';

  it('takes every http(s) link without a merge tag, in order, with its decoded href', () => {
    expect(snapshotLinks(html).links).toEqual([
      { href: 'https://example.org/a?x=1&y=2', position: 0 },
      { href: 'http://example.org/b', position: 1 },
    ]);
  });

  it('writes data-link-id on the tracked links, replacing old ids and removing them from untracked links', () => {
    expect(snapshotLinks(html).html([11, 12])).toBe(
      '<p><a data-link-id="11" href="https://example.org/a?x=1&amp;y=2">A</a> <a href="mailto:x@example.org">M</a> ' +
        '<a data-link-id="12" class="btn" href="http://example.org/b">B</a> <a href="https://example.org/u?e={{email}}">U</a> ' +
        '<a href="#top">T</a></p>',
    );
  });

  it('asks for one id per link', () => {
    expect(() => snapshotLinks(html).html([1])).toThrow(RangeError);
  });

  it('tracks http(s) addresses only', () => {
    expect(isTrackable('https://x.example')).toBe(true);
    expect(isTrackable('javascript:alert(1)')).toBe(false);
    expect(isTrackable('https://x.example/{{ id }}')).toBe(false);
    expect(isTrackable('https:// x')).toBe(false);
  });
});
