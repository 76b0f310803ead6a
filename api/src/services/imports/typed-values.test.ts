import { parseFieldValue, type FieldRule } from '@mailroom/api-client/fields';
import { describe, expect, it } from 'vitest';
import { valueReader } from './typed-values.js';

/** What parseFieldValue makes of a value, as the import stores it: JSON text, '' for none, null when refused. */
function byTheRule(field: FieldRule, raw: string): string | null {
  const parsed = parseFieldValue(field, raw);
  if (!parsed.ok) return null;
  return parsed.value === null ? '' : JSON.stringify(parsed.value);
}

const samples: Record<string, string[]> = {
  NUMBER: [
    '42',
    ' 42 ',
    '-12.5',
    '+3',
    '007',
    '-0',
    '1,234.50',
    '1.',
    '.5',
    '1e3',
    '12a',
    '',
    '  ',
    '99999999999999.99',
    '999999999999999',
    '9999999999999999',
    '999999999999999.99',
    '1,23',
    '٣',
    'NaN',
    'Infinity',
    '--1',
  ],
  DATE: [
    '2024-02-29',
    '2023-02-29',
    '2024-13-01',
    '2024-04-31',
    '0999-01-01',
    '1000-01-01',
    '2024-1-01',
    '2024-01-01T10:00:00Z',
    '2024-01-01 10:00',
    '24-01-01',
    '2024/01/01',
    'yesterday',
    '',
    ' 2024-06-30 ',
    '2024-06-3x',
  ],
  YES_NO: ['yes', 'Y', 'TRUE', '1', 'off', 'No', 'maybe', '', ' yes '],
  TEXT: ['Ann', '  padded  ', '', 'x'.repeat(4000), 'x'.repeat(4001), 'quote " and \\ backslash', 'tab\there', 'zoë'],
  CHOICE: ['Gold', 'gold', 'GOLD ', 'Silver', 'silver', 'Bronze', ''],
};

describe('valueReader agrees with parseFieldValue', () => {
  for (const type of ['NUMBER', 'DATE', 'YES_NO', 'TEXT', 'CHOICE'] as const) {
    for (const required of [false, true]) {
      const field: FieldRule = { label: 'F', type, required, options: type === 'CHOICE' ? ['Gold', 'silver', 'Silver'] : null };
      it(`${type}${required ? ', required' : ''}`, () => {
        const read = valueReader(field);
        for (const raw of samples[type]!) expect([raw, read(raw)]).toEqual([raw, byTheRule(field, raw)]);
      });
    }
  }

  it('writes numbers and dates as the storage rule has them', () => {
    expect(valueReader({ label: 'Age', type: 'NUMBER' })('1.50')).toBe('1.5');
    expect(valueReader({ label: 'Joined', type: 'DATE' })('2024-01-31')).toBe('"2024-01-31"');
    expect(valueReader({ label: 'Member', type: 'YES_NO' })('Yes')).toBe('true');
    expect(valueReader({ label: 'Tier', type: 'CHOICE', options: ['Gold'] })('gold')).toBe('"Gold"');
  });
});
