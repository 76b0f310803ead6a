import { describe, expect, it } from 'vitest';
import { embedSnippet } from './embed-snippet';

const form = {
  hostedUrl: 'https://mail.example.org/subscribe/news-abcdefghabcdefgh',
  name: 'News',
  fields: [
    { key: 'fullName', required: true },
    { key: 'city', required: false },
  ],
  consentWording: 'I agree to "news" & <updates>',
  consentVersion: 3,
};

describe('embedSnippet', () => {
  it('is a plain form posting to the hosted page, with its fields, the honeypot and the consent, escaped', () => {
    const snippet = embedSnippet(form, { fullName: 'Full name' });
    expect(snippet.startsWith('<form method="post" action="https://mail.example.org/subscribe/news-abcdefghabcdefgh">')).toBe(true);
    expect(snippet).toContain('<label>Full name <input type="text" name="fullName" required></label>');
    expect(snippet).toContain('<label>city <input type="text" name="city"></label>');
    expect(snippet).toContain('name="website"');
    expect(snippet).toContain('I agree to &#34;news&#34; &#38; &#60;updates&#62;');
    // The box sends the version of the words it shows, so the ledger records them even after the wording changes.
    expect(snippet).toContain('<input type="checkbox" name="consent" value="3" required>');
    expect(snippet).not.toContain('<script');
    expect(snippet).not.toContain('altcha');
  });

  it('with the check, loads the widget from the API and puts it in the form, on the form’s challenge', () => {
    const snippet = embedSnippet(form, {}, { check: true });
    const lines = snippet.split('\n');
    expect(lines[0]).toBe('<link rel="stylesheet" href="https://mail.example.org/subscribe/static/altcha.css">');
    expect(lines[1]).toBe('<script type="module" src="https://mail.example.org/subscribe/static/embed.js"></script>');
    expect(lines[2]).toBe('<form method="post" action="https://mail.example.org/subscribe/news-abcdefghabcdefgh">');
    const widget = lines.findIndex((line) => line.includes('<altcha-widget'));
    expect(lines[widget]).toBe(
      '  <altcha-widget challenge="https://mail.example.org/subscribe/news-abcdefghabcdefgh/challenge" name="altcha" auto="onsubmit"></altcha-widget>',
    );
    // Inside the form, before its button: the solution is sent with the form.
    expect(widget).toBeGreaterThan(2);
    expect(widget).toBeLessThan(lines.findIndex((line) => line.includes('<button')));
  });
});
