import { describe, expect, it } from 'vitest';
import { AddressFilter } from './address-filter.js';
import { ContactRows, escapeCopyText, headerLayout, isEmailColumnName, NO_EMAIL_COLUMN } from './contact-rows.js';
import { ImportFileError } from './csv.js';
import { DUPLICATE_EMAIL, INVALID_EMAIL, isValidEmail, MISSING_EMAIL, NON_ASCII_LOCAL_PART } from '../contacts/email.js';

describe('isValidEmail', () => {
  it.each(['a@example.org', 'first.last+tag@sub.example.co.uk', "o'hara@example.ie", 'zoë@exämple.de', 'x_y-z@a-b.io'])(
    'accepts %s',
    (email) => expect(isValidEmail(email)).toBe(true),
  );
  it.each([
    'plainaddress',
    '@example.org',
    'a@',
    'a@example',
    'a@@example.org',
    'a b@example.org',
    '.a@example.org',
    'a..b@example.org',
    'a.@example.org',
    'a@-example.org',
    'a@example.c',
    '"quoted"@example.org',
    `${'x'.repeat(65)}@example.org`,
    `a@${'x'.repeat(250)}.org`,
  ])('refuses %s', (email) => expect(isValidEmail(email)).toBe(false));
});

describe('headerLayout', () => {
  it.each(['Email', ' EMAIL ', 'e-mail', 'E-mail Address', 'email_address'])('finds the email column named %j', (name) => {
    expect(isEmailColumnName(name)).toBe(true);
    expect(headerLayout(['First', name, 'Last'])).toEqual({
      emailIndex: 1,
      headers: ['First', 'Last'],
      headerIndexes: [0, 2],
      fields: [
        { label: 'First', type: 'TEXT' },
        { label: 'Last', type: 'TEXT' },
      ],
    });
  });

  it('keeps every other column in file order, named and distinct', () => {
    expect(headerLayout([' Name ', '', 'email', 'name', 'Name', 'City']).headers).toEqual([
      'Name',
      'Column 2',
      'name (2)',
      'Name (3)',
      'City',
    ]);
  });

  it('refuses a header without an email column', () => {
    expect(() => headerLayout(['Name', 'mail address'])).toThrow(new ImportFileError(NO_EMAIL_COLUMN));
  });
});

describe('ContactRows', () => {
  const parse = (line: string) => line.replace(/\n$/, '').split('\t');

  it('numbers contacts in file order and flags missing and invalid addresses, and the duplicates it is told of', () => {
    const writer = new ContactRows(7, headerLayout(['Email', 'Name']));
    const contacts = [
      [' a@example.org ', 'Ann'],
      ['', 'Nobody'],
      ['not an address', 'Bad'],
      ['A@Example.ORG', 'Ann again'],
      ['b@example.org'],
    ].map((record) => writer.read(record));
    expect(contacts[3]).toEqual({ email: 'A@Example.ORG', error: null, data: '{"Name":"Ann again"}' });
    // The importer marks the duplicates (duplicates.ts) before the rows are written.
    contacts[3]!.error = DUPLICATE_EMAIL;
    expect(contacts.map((contact) => parse(writer.copyLine(contact)))).toEqual([
      ['7', '1', '1', '\\N', 'a@example.org', '\\N', '{"Name":"Ann"}'],
      ['7', '2', '\\N', '1', '', MISSING_EMAIL, '{"Name":"Nobody"}'],
      ['7', '3', '\\N', '2', 'not an address', INVALID_EMAIL, '{"Name":"Bad"}'],
      ['7', '4', '\\N', '3', 'A@Example.ORG', DUPLICATE_EMAIL, '{"Name":"Ann again"}'],
      // A blank value is absent (the storage rule).
      ['7', '5', '2', '\\N', 'b@example.org', '\\N', '{}'],
    ]);
    expect(writer.count).toBe(5);
    expect(writer.errorCount).toBe(3);
  });

  it('judges addresses as SES will: a local part beyond ASCII is invalid, and says why; an internationalised domain is valid', () => {
    const writer = new ContactRows(7, headerLayout(['Email']));
    const errors = [
      'café@münchen.de',
      'ann@münchen.de',
      'ΟΔΟΣ@uni.example',
      'İX@uni.example',
      'jürgen@example.org',
      'user@例え.テスト',
      'ANN@MÜNCHEN.DE',
      'Σοφία.Müller@straße.de',
      'ok@example.org',
    ].map((email) => parse(writer.copyLine(writer.read([email])))[5]);
    expect(errors).toEqual([
      NON_ASCII_LOCAL_PART,
      '\\N',
      NON_ASCII_LOCAL_PART,
      NON_ASCII_LOCAL_PART,
      NON_ASCII_LOCAL_PART,
      '\\N',
      '\\N',
      NON_ASCII_LOCAL_PART,
      '\\N',
    ]);
  });

  it('escapes values for COPY and JSON', () => {
    const writer = new ContactRows(1, headerLayout(['Note', 'Email']));
    const line = writer.copyLine(writer.read(['tab\there "q" back\\slash\nnew', 'x\ty@example.org']));
    expect(line.split('\t')).toHaveLength(7);
    expect(line).toContain('x\\ty@example.org');
    // JSON escapes become COPY-escaped backslashes.
    expect(line).toContain('{"Note":"tab\\\\there \\\\"q\\\\" back\\\\\\\\slash\\\\nnew"}\n');
    expect(escapeCopyText('a\\b\r\n')).toBe('a\\\\b\\r\\n');
  });

  it('writes a segment as the UTF-8 of its lines, however much each line grows in bytes', () => {
    const lines = new ContactRows(3, headerLayout(['Email', 'Note']));
    const buffered = new ContactRows(3, headerLayout(['Email', 'Note']));
    const records = [
      ['a@example.org', '€'.repeat(500)],
      ['ann@münchen.de', '\\'.repeat(300) + '\t😀'],
      ['not an address', 'x'],
      ['b\t@example.org', ''],
    ];
    const expected = records.map((record) => lines.copyLine(lines.read(record))).join('');
    expect(buffered.copyText(records.map((record) => buffered.read(record))).toString('utf8')).toBe(expected);
  });
});

describe('AddressFilter', () => {
  it('has every key added, rarely a key that was not, in memory that does not grow', () => {
    for (const seed of [0, 1, 123_456_789]) {
      const filter = new AddressFilter(seed, 2 ** 20);
      const bytes = filter.byteLength;
      expect(bytes).toBe(2 ** 17);
      let maybeWhileAdding = 0;
      for (let i = 0; i < 50_000; i++) if (filter.check(`user${i}@example.org`)) maybeWhileAdding++;
      for (let i = 0; i < 50_000; i++) expect(filter.check(`user${i}@example.org`)).toBe(true);
      let falsePositives = 0;
      for (let i = 0; i < 50_000; i++) if (filter.check(`other${i}@example.net`)) falsePositives++;
      // 7 bits a key in one 512-bit block, 21 to 10 bits a key as it fills (each key checked is added): well under 1 in 100.
      expect(maybeWhileAdding).toBeLessThan(100);
      expect(falsePositives).toBeLessThan(500);
      expect(filter.check('zoë@exämple.de')).toBe(false);
      expect(filter.check('zoë@exämple.de')).toBe(true);
      expect(filter.byteLength).toBe(bytes);
    }
  });

  it('takes a power of two of bits only, a block at least', () => {
    expect(() => new AddressFilter(0, 1000)).toThrow(/power of two/);
    expect(() => new AddressFilter(0, 256)).toThrow(/power of two/);
  });
});
