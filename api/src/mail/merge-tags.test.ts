import { describe, expect, it } from 'vitest';
import { escapeHtml, fieldValue, fillLine, fillText, mergeTagsIn, missingFields, resolveFields } from './merge-tags.js';

const contact = { email: 'ada@example.org', data: { fullName: 'Ada <Lovelace>', City: 'London', empty: '' } };

describe('merge tags', () => {
  it('lists the distinct tags of several texts in order, spaces inside the braces allowed', () => {
    expect(mergeTagsIn('Hi {{fullName}}, {{ email }}!', null, 'From {{City}} {{fullName}} {{Full Name}}')).toEqual([
      'fullName',
      'email',
      'City',
      'Full Name',
    ]);
    expect(mergeTagsIn('{{}} {{ }} { {x} } {{a{b}}')).toEqual([]);
  });

  it('resolves a tag to the exact header, else one differing in case, else the address for email', () => {
    const fields = resolveFields(['fullName', 'fullname', 'city', 'email', 'grade'], ['fullName', 'City']);
    expect(Object.fromEntries(fields)).toEqual({
      fullName: { kind: 'data', key: 'fullName' },
      fullname: { kind: 'data', key: 'fullName' },
      city: { kind: 'data', key: 'City' },
      email: { kind: 'email' },
      grade: { kind: 'none' },
    });
  });

  it('an audience header named like a tag wins over the address for any other tag', () => {
    const fields = resolveFields(['Email', 'email'], ['Email']);
    expect(fields.get('Email')).toEqual({ kind: 'data', key: 'Email' });
    expect(fields.get('email')).toEqual({ kind: 'email' });
  });

  it('reports the tags without a value (no header, or an empty cell) as missing fields', () => {
    const fields = resolveFields(['fullName', 'empty', 'grade', 'email'], ['fullName', 'empty']);
    expect(missingFields(fields, contact)).toEqual(['empty', 'grade']);
    expect(fieldValue(fields.get('grade'), contact)).toBe('');
  });

  it('fills one-line texts without line breaks, and plain text as is', () => {
    const fields = resolveFields(['fullName', 'note'], ['fullName', 'note']);
    const c = { email: 'a@example.org', data: { fullName: 'Ada', note: 'line 1\r\nBcc: x@evil.test' } };
    expect(fillLine('Hello {{fullName}} {{note}} {{unknown}}!', fields, c)).toBe('Hello Ada line 1 Bcc: x@evil.test !');
    expect(fillText('{{note}}', fields, c)).toBe('line 1\r\nBcc: x@evil.test');
    expect(fillLine('Hello {{fullName}}', fields, undefined)).toBe('Hello ');
  });

  it('escapes html', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
  });
});
