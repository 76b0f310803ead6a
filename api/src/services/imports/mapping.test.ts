import type { ImportMapping } from '@mailroom/api-client/fields';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { parseMapping, resolveImport, type AudienceFieldRule } from './mapping.js';

const header = ['E-mail', 'Age', 'Joined', 'Member', 'Notes', ''];
const fields: AudienceFieldRule[] = [
  { key: 'age', label: 'Age', type: 'NUMBER', position: 1 },
  { key: 'Full Name', label: 'Full Name', type: 'TEXT', position: 2 },
];
const refused = (message: string) => new DomainError('invalid', `The mapping is refused: ${message}`);
const resolve = (mapping: ImportMapping | undefined) => resolveImport(mapping, header, fields);

describe('parseMapping', () => {
  it('reads a mapping, and nothing when there is none', () => {
    expect(parseMapping(undefined, 200)).toBeUndefined();
    const mapping = { emailColumn: 'E-mail', columns: [{ column: 'Age', to: 'field', key: 'age' }] };
    expect(parseMapping(JSON.stringify(mapping), 200)).toEqual(mapping);
  });

  it.each([
    ['not JSON', '{', refused('it is not JSON.')],
    ['an array', '[]', refused('the mapping: Invalid input: expected object, received array.')],
    ['an unknown property', '{"emailColumn":"E-mail","columns":[],"extra":1}', refused('the mapping: Unrecognized key: "extra".')],
    [
      'an unknown type',
      '{"emailColumn":"E-mail","columns":[{"column":"Age","to":"new","key":"age2","label":"Age","type":"MONEY"}]}',
      refused('columns.0.type: Invalid option: expected one of "TEXT"|"NUMBER"|"DATE"|"YES_NO"|"CHOICE".'),
    ],
    [
      'a 10 KB label',
      JSON.stringify({ emailColumn: 'E-mail', columns: [{ column: 'Age', to: 'new', key: 'a', label: 'x'.repeat(10_000), type: 'TEXT' }] }),
      refused('columns.0.label: Too big: expected string to have <=100 characters.'),
    ],
    ['a huge mapping', JSON.stringify({ emailColumn: 'x'.repeat(200_000), columns: [] }), refused('it is longer than 131072 characters.')],
  ])('refuses %s', (_, text, error) => {
    expect(() => parseMapping(text, 200)).toThrow(error);
  });

  it('refuses more columns than a file may have', () => {
    const columns = Array.from({ length: 201 }, (_, i) => ({ column: `c${i}`, to: 'none' }));
    expect(() => parseMapping(JSON.stringify({ emailColumn: 'E-mail', columns }), 200)).toThrow(refused('it names more than 200 columns.'));
  });
});

describe('resolveImport', () => {
  it('maps to existing and new fields, leaves out the rest, and remembers every column', () => {
    const resolved = resolve({
      emailColumn: 'E-mail',
      columns: [
        { column: 'Age', to: 'field', key: 'age' },
        { column: 'Joined', to: 'new', key: 'joined', label: ' Joined ', type: 'DATE' },
        { column: 'Member', to: 'new', key: 'tier', label: 'Tier', type: 'CHOICE', options: [' Gold ', 'Silver'], required: true },
        { column: 'Notes', to: 'none' },
      ],
    });
    expect(resolved.plan).toEqual({
      emailColumn: 'E-mail',
      columns: [
        { column: 'Age', key: 'age' },
        { column: 'Joined', key: 'joined' },
        { column: 'Member', key: 'tier' },
      ],
    });
    expect(resolved.newFields).toEqual([
      { key: 'joined', label: 'Joined', type: 'DATE', options: null, required: false, position: 3 },
      { key: 'tier', label: 'Tier', type: 'CHOICE', options: ['Gold', 'Silver'], required: true, position: 4 },
    ]);
    expect(resolved.remembered).toEqual({
      emailColumn: 'E-mail',
      columns: [
        { column: 'Age', key: 'age' },
        { column: 'Joined', key: 'joined' },
        { column: 'Member', key: 'tier' },
        { column: 'Notes', key: null },
        { column: 'Column 6', key: null },
      ],
    });
  });

  it('without a mapping, sends every other column to a TEXT field of its name, existing ones reused', () => {
    const resolved = resolveImport(undefined, ['email', 'AGE', 'Full Name', 'City'], fields);
    expect(resolved.plan.columns).toEqual([
      { column: 'AGE', key: 'age' },
      { column: 'Full Name', key: 'Full Name' },
      { column: 'City', key: 'City' },
    ]);
    expect(resolved.newFields).toEqual([{ key: 'City', label: 'City', type: 'TEXT', options: null, required: false, position: 3 }]);
  });

  const col = (column: string, rest: object) => ({ column, ...rest }) as ImportMapping['columns'][number];
  it.each<[string, ImportMapping, DomainError]>([
    ['an address column the file lacks', { emailColumn: 'Mail', columns: [] }, refused("the file has no column 'Mail' for the address.")],
    ['an unknown column', { emailColumn: 'E-mail', columns: [col('Phone', { to: 'none' })] }, refused("the file has no column 'Phone'.")],
    [
      'a column twice',
      { emailColumn: 'E-mail', columns: [col('Age', { to: 'none' }), col('Age', { to: 'field', key: 'age' })] },
      refused("the column 'Age' is named twice."),
    ],
    [
      'the address column to a field',
      { emailColumn: 'E-mail', columns: [col('E-mail', { to: 'new', key: 'mail', label: 'Mail', type: 'TEXT' })] },
      refused("the column 'E-mail' holds the address and cannot also go to a field."),
    ],
    [
      'a field twice',
      { emailColumn: 'E-mail', columns: [col('Age', { to: 'field', key: 'age' }), col('Notes', { to: 'field', key: 'age' })] },
      refused("the field 'age' is given two columns."),
    ],
    [
      'a new field twice',
      {
        emailColumn: 'E-mail',
        columns: [
          col('Joined', { to: 'new', key: 'x', label: 'X', type: 'TEXT' }),
          col('Notes', { to: 'new', key: 'X', label: 'X', type: 'TEXT' }),
        ],
      },
      refused("the new field of column 'Notes': The audience already has a field 'x'."),
    ],
    [
      'a field the audience lacks (another audience may have it)',
      { emailColumn: 'E-mail', columns: [col('Notes', { to: 'field', key: 'notes' })] },
      refused("the audience has no field 'notes'."),
    ],
    [
      'a key taken without regard to case',
      { emailColumn: 'E-mail', columns: [col('Age', { to: 'new', key: 'AGE', label: 'Age', type: 'NUMBER' })] },
      refused("the new field of column 'Age': The audience already has a field 'age'."),
    ],
    [
      'the key email',
      { emailColumn: 'E-mail', columns: [col('Notes', { to: 'new', key: 'Email', label: 'Notes', type: 'TEXT' })] },
      refused("the new field of column 'Notes': 'Email' is the contact's address, not a field."),
    ],
    [
      'a key that is not a merge tag',
      { emailColumn: 'E-mail', columns: [col('Notes', { to: 'new', key: 'drop table;', label: 'Notes', type: 'TEXT' })] },
      refused("the new field of column 'Notes': A key starts with a letter and holds only letters, digits and _."),
    ],
    [
      'a blank label',
      { emailColumn: 'E-mail', columns: [col('Notes', { to: 'new', key: 'notes', label: '  ', type: 'TEXT' })] },
      refused("the new field of column 'Notes' needs a label."),
    ],
    [
      'a choice without options',
      { emailColumn: 'E-mail', columns: [col('Notes', { to: 'new', key: 'notes', label: 'N', type: 'CHOICE' })] },
      refused("the new field of column 'Notes' is a choice and needs its options."),
    ],
    [
      'options twice',
      { emailColumn: 'E-mail', columns: [col('Notes', { to: 'new', key: 'notes', label: 'N', type: 'CHOICE', options: ['a', 'A'] })] },
      refused("the new field of column 'Notes' has the option 'A' twice."),
    ],
    [
      'options on a number',
      { emailColumn: 'E-mail', columns: [col('Age', { to: 'new', key: 'years', label: 'N', type: 'NUMBER', options: ['1'] })] },
      refused("the new field of column 'Age' is not a choice and takes no options."),
    ],
  ])('refuses %s', (_, mapping, error) => {
    expect(() => resolve(mapping)).toThrow(error);
  });
});
