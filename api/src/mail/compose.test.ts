import { describe, expect, it } from 'vitest';
import { compileMail } from './compose.js';
import { snapshotLinks } from './links.js';
import { resolveFields } from './merge-tags.js';
import { createTrackingTokens, trackingUrls } from './tracking-tokens.js';

const tokens = createTrackingTokens('a-test-secret-of-enough-length');
const tracking = trackingUrls('https://mail.example.org', tokens);

const html =
  '<html><head><title>x</title></head><body style="margin:0">' +
  '<p title="for {{name}}">Hello {{name}}, from {{ city }}</p>' +
  '<a data-link-id="31" href="https://example.org/a">A</a>' +
  '<a href="https://example.org/p?who={{name}}&amp;e={{email}}">P</a>' +
  '</body></html>';

const content = {
  subject: 'News for {{name}}',
  previewText: 'Dear {{name}}',
  html,
  plainText: null,
  fields: resolveFields(['name', 'city', 'email'], ['name', 'city']),
};

describe('compileMail', () => {
  it('renders a recipient: escaped values, signed click links, preheader, unsubscribe line and pixel', () => {
    const render = compileMail(content, { tracking });
    const mail = render({ jobId: 77, email: 'a+b@example.org', data: { name: 'Ann <&> "Q"', city: 'Paris' } });
    expect(mail.subject).toBe('News for Ann <&> "Q"');
    expect(mail.unsubscribeUrl).toBe(tracking.unsubscribe(77));
    expect(mail.html).toBe(
      '<html><head><title>x</title></head><body style="margin:0">' +
        '<div style="display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all">Dear Ann &lt;&amp;&gt; &quot;Q&quot;</div>' +
        '<p title="for Ann &lt;&amp;&gt; &quot;Q&quot;">Hello Ann &lt;&amp;&gt; &quot;Q&quot;, from Paris</p>' +
        `<a data-link-id="31" href="${tracking.click(77, 31)}">A</a>` +
        '<a href="https://example.org/p?who=Ann%20%3C%26%3E%20%22Q%22&amp;e=a%2Bb%40example.org">P</a>' +
        '<div style="text-align:center;font:12px/1.5 Arial,Helvetica,sans-serif;color:#6b6b6b;padding:16px">If you no longer wish to receive these emails, ' +
        `<a href="${tracking.unsubscribe(77)}" style="color:#6b6b6b">unsubscribe</a>.</div>` +
        `<img src="${tracking.open(77)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px;overflow:hidden" />` +
        '</body></html>',
    );
    expect(mail.text).toBe(
      `Hello Ann <&> "Q", from Paris\nA (https://example.org/a)P (https://example.org/p?who=Ann <&> "Q"&e=a+b@example.org)\n\n--\nUnsubscribe: ${tracking.unsubscribe(77)}\n`,
    );
  });

  it("leaves the snapshot's hidden link out of the text part, as it is out of sight in the html", () => {
    const { html } = snapshotLinks(content.html, 'https://mail.example.org/');
    const mail = compileMail(
      { ...content, html: html([31, 33]) },
      { tracking },
    )({ jobId: 5, email: 'a@example.org', data: { name: 'Ann' } });
    expect(mail.html).toContain(`href="${tracking.click(5, 33)}"`);
    expect(mail.text.startsWith('Hello Ann, from ')).toBe(true);
    expect(mail.text).not.toContain('https://mail.example.org/\n');
    expect(mail.text).not.toContain(tracking.click(5, 33));
  });

  it('gives each recipient their own values and links', () => {
    const render = compileMail(content, { tracking });
    const a = render({ jobId: 1, email: 'a@example.org', data: { name: 'A' } });
    const b = render({ jobId: 2, email: 'b@example.org', data: { name: 'B' } });
    expect(a.html).toContain(tracking.click(1, 31));
    expect(a.html).not.toContain(tracking.click(2, 31));
    expect(b.html).toContain(tracking.open(2));
    expect(b.subject).toBe('News for B');
  });

  it('without tracking keeps links as they are and adds no pixel or unsubscribe', () => {
    const mail = compileMail(
      { ...content, plainText: 'Hi {{name}}' },
      { preheader: false },
    )({ email: 'a@example.org', data: { name: 'Z' } });
    expect(mail.html).toContain('<a data-link-id="31" href="https://example.org/a">A</a>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('Dear Z');
    expect(mail.unsubscribeUrl).toBeUndefined();
    expect(mail.text).toBe('Hi Z');
  });

  it('works on html without body tags', () => {
    const mail = compileMail(
      { ...content, html: '<p>{{name}}</p>' },
      { tracking },
    )({ jobId: 3, email: 'x@example.org', data: { name: 'N' } });
    expect(mail.html.startsWith('<div style="display:none')).toBe(true);
    expect(mail.html).toMatch(/<p>N<\/p><div style="text-align:center[^]*<img [^>]+ \/>$/);
  });

  it('needs the job id to track', () => {
    expect(() => compileMail(content, { tracking })({ email: 'x@example.org', data: {} })).toThrow(/job id/);
  });

  it('writes a fallback for a contact without a value: literal text, escaped in html once, encoded in an href', () => {
    const withFallbacks = {
      subject: 'Hi {{name|friend & co}}',
      previewText: 'Dear {{ name | friend }}',
      html: '<body><p>Hello {{name | Tom &amp; &lt;Jerry&gt;}} of {{city|<b>nowhere</b>}}</p><a href="https://example.org/?c={{city|a b&amp;c}}">x</a></body>',
      plainText: 'Hello {{name|friend}}',
      fields: resolveFields(['name', 'city'], ['name', 'city']),
    };
    const mail = compileMail(withFallbacks)({ email: 'a@example.org', data: { city: '' } });
    expect(mail.subject).toBe('Hi friend & co');
    expect(mail.text).toBe('Hello friend');
    expect(mail.html).toContain('>Dear friend</div>');
    expect(mail.html).toContain('<p>Hello Tom &amp; &lt;Jerry&gt; of &lt;b&gt;nowhere&lt;/b&gt;</p>');
    expect(mail.html).toContain('href="https://example.org/?c=a%20b%26c"');
    const valued = compileMail(withFallbacks)({ email: 'a@example.org', data: { name: 'Ann', city: 'Rome' } });
    expect([valued.subject, valued.text]).toEqual(['Hi Ann', 'Hello Ann']);
    expect(valued.html).toContain('<p>Hello Ann of Rome</p>');
  });
});
