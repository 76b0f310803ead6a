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

  it('adds the hidden link last, after <body>, and takes out one copied from an earlier snapshot', () => {
    const page = '<html><body class="x"><p><a href="https://example.org/a">A</a></p></body></html>';
    const first = snapshotLinks(page, 'https://mail.example.org/');
    expect(first.links).toEqual([
      { href: 'https://example.org/a', position: 0 },
      { href: 'https://mail.example.org/', position: 1, hidden: true },
    ]);
    const sent = first.html([5, 6]);
    expect(sent).toBe(
      '<html><body class="x"><a href="https://mail.example.org/" data-link-id="6" data-hidden-link="" aria-hidden="true" tabindex="-1" ' +
        'style="display:block;width:0;height:0;max-height:0;overflow:hidden;font-size:0;line-height:0;mso-hide:all"></a>' +
        '<p><a data-link-id="5" href="https://example.org/a">A</a></p></body></html>',
    );
    // A campaign copied from the sent one: one visible link again, and a new hidden one.
    const copy = snapshotLinks(sent, 'https://mail.example.org/');
    expect(copy.links.map((link) => link.hidden === true)).toEqual([false, true]);
    expect(copy.html([7, 8]).match(/data-hidden-link/g)).toHaveLength(1);
    expect(snapshotLinks(sent).html([9])).toBe(
      '<html><body class="x"><p><a data-link-id="9" href="https://example.org/a">A</a></p></body></html>',
    );
  });

  it('tracks http(s) addresses only', () => {
    expect(isTrackable('https://x.example')).toBe(true);
    expect(isTrackable('javascript:alert(1)')).toBe(false);
    expect(isTrackable('https://x.example/{{ id }}')).toBe(false);
    expect(isTrackable('https:// x')).toBe(false);
  });
});
