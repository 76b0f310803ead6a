import { describe, expect, it } from 'vitest';
import { DATE_TIME_FORMAT, DATE_TIME_MINUTES_FORMAT, formatDateTime, truncate } from './format';
import { fileNameFromContentDisposition } from './download';

describe('formatDateTime', () => {
  it('formats with the audiences format by default', () => {
    const local = new Date(2024, 0, 5, 14, 3, 9);
    expect(formatDateTime(local)).toBe('2024-01-05 14:03:09 PM');
    expect(formatDateTime(local, DATE_TIME_FORMAT)).toBe('2024-01-05 14:03:09 PM');
    expect(formatDateTime(local, DATE_TIME_MINUTES_FORMAT)).toBe('2024-01-05 14:03 PM');
  });

  it('accepts ISO strings and renders nothing for absent or invalid dates', () => {
    expect(formatDateTime(new Date(2023, 11, 31, 9, 0, 0).toISOString())).toBe('2023-12-31 09:00:00 AM');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('truncate', () => {
  it('keeps text up to the limit', () => {
    expect(truncate('a'.repeat(30))).toBe('a'.repeat(30));
    expect(truncate('short', 10)).toBe('short');
  });

  it('cuts longer text at 30 characters by default, ellipsis included', () => {
    const cut = truncate('x'.repeat(31));
    expect(cut).toHaveLength(30);
    expect(cut.endsWith('…')).toBe(true);
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
  });
});

describe('fileNameFromContentDisposition', () => {
  it('reads quoted, bare and RFC 5987 names', () => {
    expect(fileNameFromContentDisposition('attachment; filename="contacts-1.csv"', 'x')).toBe('contacts-1.csv');
    expect(fileNameFromContentDisposition('attachment; filename=plain.csv', 'x')).toBe('plain.csv');
    expect(fileNameFromContentDisposition(`attachment; filename="a.csv"; filename*=UTF-8''Caf%C3%A9%20list.csv`, 'x')).toBe(
      'Café list.csv',
    );
  });

  it('falls back without a header or a name', () => {
    expect(fileNameFromContentDisposition(null, 'audience.csv')).toBe('audience.csv');
    expect(fileNameFromContentDisposition('attachment', 'audience.csv')).toBe('audience.csv');
  });
});
