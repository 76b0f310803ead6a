import { describe, expect, it } from 'vitest';
import { ContactRowWriter, copyText, headerLayout, isEmailColumnName, NO_EMAIL_COLUMN } from './contact-rows.js';
import { ImportFileError } from './csv.js';
import { DUPLICATE_EMAIL, INVALID_EMAIL, isValidEmail, MISSING_EMAIL, NON_ASCII_LOCAL_PART } from '../contacts/email.js';
import { EmailSet } from './email-set.js';

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
    expect(headerLayout(['First', name, 'Last'])).toEqual({ emailIndex: 1, headers: ['First', 'Last'], headerIndexes: [0, 2] });
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

describe('ContactRowWriter', () => {
  const parse = (line: string) => line.replace(/\n$/, '').split('\t');

  it('numbers contacts and flags missing, invalid and duplicate addresses', () => {
    const writer = new ContactRowWriter(7, headerLayout(['Email', 'Name']));
    const rows = [
      [' a@example.org ', 'Ann'],
      ['', 'Nobody'],
      ['not an address', 'Bad'],
      ['A@Example.ORG', 'Ann again'],
      ['b@example.org'],
    ].map((record) => parse(writer.row(record)));
    expect(rows).toEqual([
      ['7', '1', '1', '\\N', 'a@example.org', '\\N', '{"Name":"Ann"}'],
      ['7', '2', '\\N', '1', '', MISSING_EMAIL, '{"Name":"Nobody"}'],
      ['7', '3', '\\N', '2', 'not an address', INVALID_EMAIL, '{"Name":"Bad"}'],
      ['7', '4', '\\N', '3', 'A@Example.ORG', DUPLICATE_EMAIL, '{"Name":"Ann again"}'],
      ['7', '5', '2', '\\N', 'b@example.org', '\\N', '{"Name":""}'],
    ]);
    expect(writer.count).toBe(5);
    expect(writer.errorCount).toBe(3);
    expect(writer.duplicateCount).toBe(1);
  });

  it('judges addresses as SES will: a local part beyond ASCII is invalid, and says why; an internationalised domain is valid', () => {
    const writer = new ContactRowWriter(7, headerLayout(['Email']));
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
    ].map((email) => parse(writer.row([email]))[5]);
    expect(errors).toEqual([
      NON_ASCII_LOCAL_PART,
      '\\N',
      NON_ASCII_LOCAL_PART,
      NON_ASCII_LOCAL_PART,
      NON_ASCII_LOCAL_PART,
      '\\N',
      DUPLICATE_EMAIL,
      NON_ASCII_LOCAL_PART,
      '\\N',
    ]);
  });

  it('escapes values for COPY and JSON', () => {
    const writer = new ContactRowWriter(1, headerLayout(['Note', 'Email']));
    const line = writer.row(['tab\there "q" back\\slash\nnew', 'x\ty@example.org']);
    expect(line.split('\t')).toHaveLength(7);
    expect(line).toContain('x\\ty@example.org');
    // JSON escapes become COPY-escaped backslashes.
    expect(line).toContain('{"Note":"tab\\\\there \\\\"q\\\\" back\\\\\\\\slash\\\\nnew"}\n');
    expect(copyText('a\\b\r\n')).toBe('a\\\\b\\r\\n');
  });
});

describe('EmailSet', () => {
  it('finds every key added, and no key that was not, at any size', () => {
    for (const seed of [0, 1, 123_456_789]) {
      const set = new EmailSet(seed);
      for (let i = 0; i < 50_000; i++) expect(set.add(`user${i}@example.org`)).toBe(true);
      for (let i = 0; i < 50_000; i += 997) expect(set.add(`user${i}@example.org`)).toBe(false);
      expect(set.add('zoë@exämple.de')).toBe(true);
      expect(set.add('zoë@exämple.de')).toBe(false);
      expect(set.add('zoe@example.de')).toBe(true);
      expect(set.add('')).toBe(true);
      expect(set.add('')).toBe(false);
      expect(set.size).toBe(50_003);
    }
  });
});
