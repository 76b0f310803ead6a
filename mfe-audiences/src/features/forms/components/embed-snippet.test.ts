import { describe, expect, it } from 'vitest';
import { embedSnippet } from './embed-snippet';

describe('embedSnippet', () => {
  it('is a plain form posting to the hosted page, with its fields, the honeypot and the consent, escaped', () => {
    const snippet = embedSnippet(
      {
        hostedUrl: 'https://mail.example.org/subscribe/news-abcdefghabcdefgh',
        name: 'News',
        fields: [
          { key: 'fullName', required: true },
          { key: 'city', required: false },
        ],
        consentWording: 'I agree to "news" & <updates>',
      },
      { fullName: 'Full name' },
    );
    expect(snippet.startsWith('<form method="post" action="https://mail.example.org/subscribe/news-abcdefghabcdefgh">')).toBe(true);
    expect(snippet).toContain('<label>Full name <input type="text" name="fullName" required></label>');
    expect(snippet).toContain('<label>city <input type="text" name="city"></label>');
    expect(snippet).toContain('name="website"');
    expect(snippet).toContain('I agree to &#34;news&#34; &#38; &#60;updates&#62;');
    expect(snippet).not.toContain('<script');
  });
});
