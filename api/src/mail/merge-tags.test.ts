import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  fieldValue,
  fillLine,
  fillText,
  htmlText,
  lackingTags,
  MAX_FALLBACK_LENGTH,
  mergeTagsIn,
  missingFields,
  resolveFields,
  tagOccurrences,
  tagsWithoutFallbackIn,
} from './merge-tags.js';

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
      fullName: { kind: 'data', key: 'fullName', format: expect.any(Function) },
      fullname: { kind: 'data', key: 'fullName', format: expect.any(Function) },
      city: { kind: 'data', key: 'City', format: expect.any(Function) },
      email: { kind: 'email' },
      grade: { kind: 'none' },
    });
  });

  it('an audience header named like a tag wins over the address for any other tag', () => {
    const fields = resolveFields(['Email', 'email'], ['Email']);
    expect(fields.get('Email')).toEqual({ kind: 'data', key: 'Email', format: expect.any(Function) });
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

  describe('fallbacks', () => {
    it('reads a fallback after |, spaces around it allowed, and keeps `{{ name }}` working', () => {
      expect(
        tagOccurrences('{{firstName|friend}} {{ firstName | dear friend }} {{ firstName }}').map(({ name, fallback }) => [name, fallback]),
      ).toEqual([
        ['firstName', 'friend'],
        ['firstName', 'dear friend'],
        ['firstName', undefined],
      ]);
      expect(mergeTagsIn('{{a|x}} {{b}}')).toEqual(['a', 'b']);
    });

    it('writes the fallback when the contact has no value, and the value when it has one', () => {
      const fields = resolveFields(['fullName', 'empty', 'grade'], ['fullName', 'empty']);
      expect(fillLine('Hi {{fullName|friend}}, {{empty|nobody}} {{grade | n/a}}', fields, contact)).toBe('Hi Ada <Lovelace>, nobody n/a');
      expect(fillText('{{empty|}}.', fields, contact)).toBe('.');
      expect(fillLine('Hi {{fullName|friend}}', fields, undefined)).toBe('Hi friend');
    });

    it('counts a tag as needed only where it is used without a fallback', () => {
      expect(tagsWithoutFallbackIn('{{a|x}} {{b}}', '{{c | y}} {{a}}', null)).toEqual(['b', 'a']);
      expect(tagsWithoutFallbackIn('{{a|x}} {{ c|y }}')).toEqual([]);
    });

    it('bounds the fallback: a longer one, a brace, a | or a line break inside make no tag', () => {
      const long = 'x'.repeat(MAX_FALLBACK_LENGTH);
      expect(tagOccurrences(`{{a|${long}}}`)[0]?.fallback).toBe(long);
      expect(tagOccurrences(`{{a|${long}x}}`)).toEqual([]);
      expect(tagOccurrences('{{a|b|c}} {{a|b}c}} {{a|line\nbreak}}')).toEqual([]);
    });

    it('reads the html a template spells back as text, for escaping once', () => {
      expect(htmlText('Tom &amp; Jerry &lt;3 &quot;x&quot; &#39;y&#39;')).toBe(`Tom & Jerry <3 "x" 'y'`);
    });
  });

  describe('typed values in the organisation locale', () => {
    const typed = [
      { key: 'age', type: 'NUMBER' as const },
      { key: 'born', type: 'DATE' as const },
      { key: 'member', type: 'YES_NO' as const },
      { key: 'level', type: 'CHOICE' as const },
      { key: 'note', type: 'TEXT' as const },
    ];
    const person = { email: 'p@example.org', data: { age: 1234.5, born: '1990-03-04', member: false, level: 'Gold', note: '1234.5' } };

    it('writes numbers and dates in the locale, yes/no as words, text as it is', () => {
      const gb = resolveFields(['age', 'born', 'member', 'level', 'note'], typed, 'en-GB');
      expect(fillLine('{{age}} {{born}} {{member}} {{level}} {{note}}', gb, person)).toBe('1,234.5 4 March 1990 No Gold 1234.5');
      const de = resolveFields(['age', 'born', 'member'], typed, 'de-DE');
      expect(fillLine('{{age}} / {{born}} / {{member}}', de, person)).toBe('1.234,5 / 4. März 1990 / No');
    });

    it('writes a legacy string in a typed field as it is, and false is a value, not a missing one', () => {
      const fields = resolveFields(['age', 'born', 'member'], typed);
      const legacy = { email: 'l@example.org', data: { age: 'about 40', born: 'spring', member: false } };
      expect(fillLine('{{age}}|{{born}}|{{member|?}}', fields, legacy)).toBe('about 40|spring|No');
      expect(missingFields(fields, legacy)).toEqual([]);
    });

    it('names the tags the audience lacks: neither a field nor the address', () => {
      const fields = resolveFields(['AGE', 'email', 'Email', 'nickname'], typed);
      expect(lackingTags(fields)).toEqual(['nickname']);
    });
  });
});
