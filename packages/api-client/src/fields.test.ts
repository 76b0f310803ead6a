import { describe, expect, it } from 'vitest';
import {
  checkFieldValue,
  convertFieldValue,
  fitFieldValues,
  fieldFormatter,
  fieldKeyError,
  formatFieldValue,
  guessFieldType,
  isKnownLocale,
  parseFieldValue,
  suggestFieldKey,
} from './fields.js';

const field = (type: 'TEXT' | 'NUMBER' | 'DATE' | 'YES_NO' | 'CHOICE', extra = {}) => ({ label: 'Field', type, ...extra });

describe('parseFieldValue', () => {
  it('reads each type and refuses what does not fit, naming the field', () => {
    expect(parseFieldValue(field('NUMBER'), ' 1,234.50 ')).toEqual({ ok: true, value: 1234.5 });
    expect(parseFieldValue(field('NUMBER'), '-7')).toEqual({ ok: true, value: -7 });
    expect(parseFieldValue(field('NUMBER'), '12abc')).toMatchObject({ ok: false, error: expect.stringContaining('is not a number') });
    expect(parseFieldValue(field('NUMBER'), '1e400')).toMatchObject({ ok: false });
    expect(parseFieldValue(field('NUMBER'), '9'.repeat(16))).toMatchObject({ ok: false });
    expect(parseFieldValue(field('DATE'), '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(parseFieldValue(field('DATE'), '2024-02-29T10:00:00Z')).toEqual({ ok: true, value: '2024-02-29' });
    expect(parseFieldValue(field('DATE'), '2023-02-29')).toMatchObject({ ok: false, error: expect.stringContaining('YYYY-MM-DD') });
    expect(parseFieldValue(field('DATE'), '03/04/2024')).toMatchObject({ ok: false });
    expect(parseFieldValue(field('YES_NO'), 'Yes')).toEqual({ ok: true, value: true });
    expect(parseFieldValue(field('YES_NO'), 'false')).toEqual({ ok: true, value: false });
    expect(parseFieldValue(field('YES_NO'), 'maybe')).toMatchObject({ ok: false });
    expect(parseFieldValue(field('CHOICE', { options: ['Gold', 'Silver'] }), 'gold')).toEqual({ ok: true, value: 'Gold' });
    expect(parseFieldValue(field('CHOICE', { options: ['Gold'] }), 'Bronze')).toMatchObject({
      ok: false,
      error: expect.stringContaining("'Gold'"),
    });
    expect(parseFieldValue(field('TEXT'), 'x'.repeat(4001))).toMatchObject({ ok: false });
    expect(parseFieldValue(field('TEXT'), 'a\u0000b')).toMatchObject({ ok: false });
  });

  it('treats blank as no value, refused only when required', () => {
    expect(parseFieldValue(field('NUMBER'), '  ')).toEqual({ ok: true, value: null });
    expect(parseFieldValue(field('NUMBER', { required: true }), '')).toEqual({ ok: false, error: 'Field is required.' });
  });
});

describe('checkFieldValue', () => {
  it('takes typed JSON values of the right type only', () => {
    expect(checkFieldValue(field('NUMBER'), 3)).toEqual({ ok: true, value: 3 });
    expect(checkFieldValue(field('NUMBER'), 1e300)).toMatchObject({ ok: false });
    expect(checkFieldValue(field('YES_NO'), true)).toEqual({ ok: true, value: true });
    expect(checkFieldValue(field('TEXT'), { a: 1 })).toMatchObject({ ok: false, error: 'Field takes text.' });
    expect(checkFieldValue(field('DATE'), 5)).toMatchObject({ ok: false });
  });
});

describe('guessFieldType', () => {
  it('picks the narrowest type every non-blank sample fits', () => {
    expect(guessFieldType(['1', '2.5', ''])).toBe('NUMBER');
    expect(guessFieldType(['2024-01-01', '1999-12-31'])).toBe('DATE');
    expect(guessFieldType(['yes', 'No', 'y'])).toBe('YES_NO');
    expect(guessFieldType(['1', 'yes'])).toBe('YES_NO');
    expect(guessFieldType(['Ann', '2'])).toBe('TEXT');
    expect(guessFieldType(['', ' '])).toBe('TEXT');
  });
});

describe('keys', () => {
  it('refuses keys that are not merge-tag names, the address, and taken ones', () => {
    expect(fieldKeyError('firstName')).toBeNull();
    expect(fieldKeyError('Email')).toMatch(/address/);
    expect(fieldKeyError('first name')).toMatch(/letters, digits/);
    expect(fieldKeyError('1st')).toMatch(/starts with a letter/);
    expect(fieldKeyError('select')).toBeNull();
    expect(fieldKeyError('a'.repeat(65))).toMatch(/at most/);
    expect(fieldKeyError('Plan', ['plan'])).toMatch(/already has/);
    expect(fieldKeyError('ünï')).not.toBeNull();
  });

  it('suggests keys from column names', () => {
    expect(suggestFieldKey('First Name')).toBe('firstName');
    expect(suggestFieldKey('E-mail')).toBe('eMailField');
    expect(suggestFieldKey('email')).toBe('emailField');
    expect(suggestFieldKey('2nd phone')).toBe('field2ndPhone');
    expect(suggestFieldKey('Plan', ['plan'])).toBe('plan2');
    expect(suggestFieldKey('Ünïcode ✓')).toBe('unicode');
    expect(suggestFieldKey('')).toBe('field');
    expect(fieldKeyError(suggestFieldKey('x'.repeat(500)))).toBeNull();
  });
});

describe('formatFieldValue', () => {
  it('writes numbers and dates in the locale, the stored day whatever the zone', () => {
    expect(formatFieldValue('NUMBER', 1234.5, 'de-DE')).toBe('1.234,5');
    expect(formatFieldValue('DATE', '2024-03-01', 'en-GB')).toBe('1 March 2024');
    expect(formatFieldValue('YES_NO', false, 'en-GB')).toBe('No');
    expect(formatFieldValue('TEXT', null, 'en-GB')).toBe('');
  });
});

describe('fieldFormatter', () => {
  it('is formatFieldValue with its formatter built once, and writes a value of another shape as it is', () => {
    const number = fieldFormatter('NUMBER', 'en-GB');
    expect(fieldFormatter('NUMBER', 'en-GB')).toBe(number);
    expect(number(1234567.25)).toBe('1,234,567.25');
    expect(number('about 40')).toBe('about 40');
    expect(fieldFormatter('DATE', 'fr-FR')('1990-03-04')).toBe('4 mars 1990');
    expect(fieldFormatter('DATE', 'en-GB')('spring')).toBe('spring');
    expect(fieldFormatter('YES_NO', 'de-DE')(true)).toBe('Yes');
  });

  it('knows a locale Intl knows', () => {
    expect(isKnownLocale('en-GB')).toBe(true);
    expect(isKnownLocale('de-DE')).toBe(true);
    expect(isKnownLocale('en_GB')).toBe(false);
    expect(isKnownLocale('')).toBe(false);
  });
});

describe('convertFieldValue', () => {
  it('turns every value into text', () => {
    expect(convertFieldValue(field('TEXT'), 12.5)).toEqual({ ok: true, value: '12.5' });
    expect(convertFieldValue(field('TEXT'), true)).toEqual({ ok: true, value: 'Yes' });
    expect(convertFieldValue(field('TEXT'), 'x')).toEqual({ ok: true, value: 'x' });
  });

  it('reads stored text as a person wrote it, and refuses what does not fit', () => {
    expect(convertFieldValue(field('NUMBER'), '1,200')).toEqual({ ok: true, value: 1200 });
    expect(convertFieldValue(field('NUMBER'), 'twelve')).toMatchObject({ ok: false });
    expect(convertFieldValue(field('NUMBER'), '9'.repeat(400))).toMatchObject({ ok: false });
    expect(convertFieldValue(field('DATE'), '2024-02-30')).toMatchObject({ ok: false });
    expect(convertFieldValue(field('YES_NO'), 'yes')).toEqual({ ok: true, value: true });
    expect(convertFieldValue(field('YES_NO'), 1)).toMatchObject({ ok: false });
    expect(convertFieldValue(field('CHOICE', { options: ['Yes', 'No', '3'] }), false)).toEqual({ ok: true, value: 'No' });
    expect(convertFieldValue(field('CHOICE', { options: ['Gold'] }), 3)).toMatchObject({ ok: false });
  });

  it('keeps an old contact without a value when the field becomes required', () => {
    expect(convertFieldValue(field('NUMBER', { required: true }), '')).toEqual({ ok: true, value: null });
  });
});

describe('fitFieldValues', () => {
  it('keeps what fits, converts what a type change converts, and drops what went or no longer fits', () => {
    const fields = new Map([
      ['city', { label: 'City', type: 'TEXT' as const }],
      ['age', { label: 'Age', type: 'NUMBER' as const }],
      ['tier', { label: 'Tier', type: 'CHOICE' as const, options: ['Gold', 'Silver'] }],
    ]);
    expect(fitFieldValues(fields, { city: 'Ghent', age: '42', tier: 'Bronze', gone: 'x' })).toEqual({ city: 'Ghent', age: 42 });
    expect(fitFieldValues(fields, { city: 7, age: 'forty', tier: 'Gold' })).toEqual({ city: '7', tier: 'Gold' });
    expect(fitFieldValues(fields, {})).toEqual({});
  });
});
