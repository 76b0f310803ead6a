import { describe, expect, it } from 'vitest';
import { anchorTags, attribute, decodeEntities, htmlToText } from './html.js';

describe('anchorTags', () => {
  it('finds each <a> start tag with its attributes, quoted values holding > included', () => {
    const html = `<p><A HREF='https://a.example/?q=1&amp;r=2' title="x > y">A</A><abbr>no</abbr><a name=top>T</a><area href="https://no.example"></p>`;
    const tags = anchorTags(html);
    expect(tags).toHaveLength(2);
    expect(attribute(tags[0]!, 'href')?.value).toBe('https://a.example/?q=1&amp;r=2');
    expect(attribute(tags[0]!, 'title')?.value).toBe('x > y');
    expect(html.slice(tags[0]!.start, tags[0]!.end)).toBe(`<A HREF='https://a.example/?q=1&amp;r=2' title="x > y">`);
    const name = attribute(tags[1]!, 'name')!;
    expect(html.slice(name.start, name.end)).toBe('name=top');
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex entities and leaves unknown ones', () => {
    expect(decodeEntities('a&amp;b &lt;&gt; &#39;&#x41;&nbsp;&bogus; &#0; &#xD800;')).toBe("a&b <> 'A\u00a0&bogus; &#0; &#xD800;");
  });
});

describe('htmlToText', () => {
  it('keeps the text in reading order, one block per line, links with their address', () => {
    const html = `<html><head><title>T</title><style>p{color:red}</style></head><body>
      <!--[if mso]><p>Outlook only</p><![endif]-->
      <h1>Hello&nbsp;there</h1><p>First <b>bold</b><br>second line</p>
      <ul><li>one</li><li>two</li></ul>
      <table><tr><td>a</td><td>b</td></tr></table>
      <p><a href="https://example.org/x?a=1&amp;b=2">Read more</a> or <a href="https://example.org">https://example.org</a> <a href="mailto:x@example.org">mail us</a></p>
      <script>alert(1)</script></body></html>`;
    expect(htmlToText(html)).toBe(
      [
        'Hello there',
        '',
        'First bold',
        'second line',
        '',
        '- one',
        '',
        '- two',
        '',
        'a b',
        '',
        'Read more (https://example.org/x?a=1&b=2) or https://example.org mail us',
      ].join('\n'),
    );
  });
});
