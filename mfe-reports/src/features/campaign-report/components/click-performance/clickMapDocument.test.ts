import { describe, expect, it } from 'vitest';
import { clickMapDocument } from './clickMapDocument';

const links = [{ id: 7, href: 'https://example.org/a', clicks: 3, uniqueClicks: 1, humanClicks: 2, humanUniqueClicks: 1 }];
const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('clickMapDocument', () => {
  it('strips what could run or navigate: scripts, frames, plugins, <base>, meta refreshes, handlers, javascript: URLs, targets', () => {
    const doc = parse(
      clickMapDocument(
        `<!DOCTYPE html><html><head><base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=https://evil.test">
        <meta http-equiv="Content-Security-Policy" content="style-src 'none'"><script>alert(1)</script></head>
        <body onload="alert(2)"><img src="x" onerror="alert(3)"><iframe src="https://evil.test"></iframe><object data="x"></object>
        <embed src="x"><a href="java\tscript:alert(4)">bad</a><a href="https://example.org/a" data-link-id="7" target="_top" onclick="alert(5)">ok</a>
        <svg><a xlink:href="javascript:alert(6)"><text>svg</text></a></svg><form action="javascript:alert(7)"><button formaction="javascript:alert(8)">go</button></form>
        <img src=" JAVASCRIPT:alert(9)"></body></html>`,
        links,
        'light',
      ),
    );
    expect(doc.querySelectorAll('script, iframe, object, embed, meta[http-equiv]')).toHaveLength(0);
    expect(doc.querySelectorAll('base')).toHaveLength(0);
    const attributes = [...doc.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((a) => `${a.name}=${a.value}`));
    expect(attributes.filter((a) => /^on/i.test(a) || /^target=/.test(a) || /javascript/i.test(a))).toEqual([]);
    expect(doc.querySelector('a[data-link-id="7"]')?.getAttribute('href')).toBe('about:srcdoc#mailroom-clickmap-link-7');
  });

  it('makes links without a known data-link-id inert, and leaves the rest of the email as it was', () => {
    const doc = parse(
      clickMapDocument(
        '<html><body><table><tr><td style="color:red">Hi {{name}}</td></tr></table><a href="https://example.org/untracked">x</a><a href="mailto:a@example.org" data-link-id="99">mail</a></body></html>',
        links,
        'light',
      ),
    );
    expect([...doc.querySelectorAll('body > a')].map((a) => a.hasAttribute('href'))).toEqual([false, false]);
    expect(doc.querySelector('td')?.getAttribute('style')).toBe('color:red');
    expect(doc.querySelector('td')?.textContent).toBe('Hi {{name}}');
  });

  it('writes every text of the panel as text, never as markup', () => {
    const doc = parse(clickMapDocument('<p>hi</p>', [{ ...links[0]!, href: '<img src=x onerror=alert(1)>' }], 'light'));
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    expect(doc.querySelector('dd')?.textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('keeps the doctype, and uses the dark palette in the dark theme', () => {
    const light = clickMapDocument('<!DOCTYPE html><p>hi</p>', links, 'light');
    const dark = clickMapDocument('<p>hi</p>', links, 'dark');
    expect(light.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(dark.startsWith('<html')).toBe(true);
    expect(light).toContain('color-scheme: light');
    expect(dark).toContain('color-scheme: dark');
  });

  it('marks the language: the panel as the app, the document as the email says or else as the app', () => {
    const unmarked = parse(clickMapDocument('<p>hi</p>', links, 'light'));
    expect(unmarked.documentElement.getAttribute('lang')).toBe('en');
    expect(unmarked.getElementById('mailroom-clickmap-panel')?.getAttribute('lang')).toBe('en');
    const french = parse(clickMapDocument('<html lang="fr"><body><p>Bonjour</p></body></html>', links, 'light'));
    expect(french.documentElement.getAttribute('lang')).toBe('fr');
    expect(french.getElementById('mailroom-clickmap-panel')?.getAttribute('lang')).toBe('en');
  });

  it('says so when the email has no tracked links', () => {
    const doc = parse(clickMapDocument('<p>hi</p>', [], 'light'));
    expect(doc.getElementById('mailroom-clickmap-summary')?.textContent).toContain('This email has no tracked links.');
  });
});
