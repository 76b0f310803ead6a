import { describe, expect, it } from 'vitest';
import { csvRecords, ENCODING_ERROR, ImportFileError, isBlankRecord, readHeaderRecord, sniffDialect, type ImportLimits } from './csv.js';

const LIMITS: ImportLimits = { maxLineChars: 1000, maxColumns: 10 };

/** The file as a stream of chunks of `size` bytes (1 byte: every boundary case at once). */
async function* chunks(content: string | Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function records(content: string | Buffer, size?: number, limits = LIMITS): Promise<string[][]> {
  const all: string[][] = [];
  for await (const batch of csvRecords(chunks(content, size), limits)) {
    for (const record of batch.records) if (!isBlankRecord(record)) all.push(record);
  }
  return all;
}

async function failure(content: string | Buffer, size?: number, limits = LIMITS): Promise<string> {
  try {
    await records(content, size, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

const EXPECTED = [
  ['Email', 'Name'],
  ['a@example.org', 'Ann'],
  ['b@example.org', 'Bob'],
];

describe('csvRecords', () => {
  it.each([
    ['comma', 'Email,Name\na@example.org,Ann\nb@example.org,Bob\n'],
    ['semicolon', 'Email;Name\na@example.org;Ann\nb@example.org;Bob\n'],
    ['tab', 'Email\tName\na@example.org\tAnn\nb@example.org\tBob\n'],
    ['CRLF', 'Email,Name\r\na@example.org,Ann\r\nb@example.org,Bob\r\n'],
    ['CR', 'Email,Name\ra@example.org,Ann\rb@example.org,Bob\r'],
    ['no final line break', 'Email,Name\na@example.org,Ann\nb@example.org,Bob'],
    ['a UTF-8 BOM', '\uFEFFEmail,Name\na@example.org,Ann\nb@example.org,Bob\n'],
    ['blank lines', '\n\nEmail,Name\n\na@example.org,Ann\n  \n,\nb@example.org,Bob\n\n'],
  ])('reads a file with %s', async (_shape, content) => {
    expect(await records(content)).toEqual(EXPECTED);
    expect(await records(content, 1)).toEqual(EXPECTED);
  });

  it('keeps quoted fields with delimiters, quotes and line breaks', async () => {
    const content = 'email,note,city\r\n"a@example.org","one, two","Paris"\r\nb@example.org,"line 1\r\nline 2 ""quoted""",\r\n';
    const expected = [
      ['email', 'note', 'city'],
      ['a@example.org', 'one, two', 'Paris'],
      ['b@example.org', 'line 1\r\nline 2 "quoted"', ''],
    ];
    expect(await records(content)).toEqual(expected);
    expect(await records(content, 1)).toEqual(expected);
    expect(await records(content, 7)).toEqual(expected);
  });

  it('reads a UTF-16 file with its BOM (a spreadsheet "Unicode text" export)', async () => {
    const text = 'Email\tName\na@example.org\tAnn\nb@example.org\tBob\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(await records(le)).toEqual(EXPECTED);
    expect(await records(le, 3)).toEqual(EXPECTED);
    const be = Buffer.from(le);
    be.swap16();
    expect(await records(be, 5)).toEqual(EXPECTED);
  });

  it('keeps non-ASCII text split across chunks', async () => {
    const content = 'Email,Name\nzoë@example.org,Zoë 日本\n';
    expect(await records(content, 1)).toEqual([
      ['Email', 'Name'],
      ['zoë@example.org', 'Zoë 日本'],
    ]);
  });

  it('refuses a file that is not UTF-8', async () => {
    const latin1 = Buffer.from('Email,Name\na@example.org,Jos\xe9\n', 'latin1');
    expect(await failure(latin1)).toBe(ENCODING_ERROR);
    expect(await failure(latin1, 1)).toBe(ENCODING_ERROR);
    // UTF-16 without a BOM decodes as "UTF-8" full of NULs.
    expect(await failure(Buffer.from('Email,Name\n', 'utf16le'))).toBe(ENCODING_ERROR);
    // A truncated multi-byte sequence at the very end.
    expect(await failure(Buffer.concat([Buffer.from('Email\na@example.org\n'), Buffer.from([0xc3])]))).toBe(ENCODING_ERROR);
  });

  it('refuses an unclosed quote', async () => {
    const content = 'Email,Name\na@example.org,"Ann\nb@example.org,Bob\n';
    expect(await failure(content)).toBe('Row 2 has a quote that is never closed.');
    expect(await failure(content, 1)).toBe('Row 2 has a quote that is never closed.');
  });

  it('refuses an unclosed quote before it swallows a large file', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `u${i}@example.org,x`).join('\n');
    const message = await failure(`Email,Name\na@example.org,"Ann\n${rows}\n`, 4096);
    expect(message).toMatch(/^Row 2 is longer than 1000 characters/);
  });

  it('refuses a line longer than the limit', async () => {
    const content = `Email,Name\na@example.org,${'x'.repeat(1001)}\nb@example.org,Bob\n`;
    expect(await failure(content)).toBe('Line 2 is longer than 1000 characters.');
    expect(await failure(content, 10)).toBe('Line 2 is longer than 1000 characters.');
  });

  it('refuses more columns than the limit', async () => {
    const header = ['Email', ...Array.from({ length: 10 }, (_, i) => `c${i}`)].join(',');
    expect(await failure(`${header}\n`)).toBe('Row 1 has more than 10 columns.');
    expect(await failure(`Email,Name\na@example.org,Ann\n${'x,'.repeat(10)}x\n`)).toBe('Row 3 has more than 10 columns.');
  });

  it('yields nothing for an empty file', async () => {
    expect(await records('')).toEqual([]);
    expect(await records('\uFEFF')).toEqual([]);
    expect(await records('\n\r\n  \n')).toEqual([]);
  });
});

describe('sniffDialect', () => {
  it('ignores delimiters and line breaks inside quotes', () => {
    expect(sniffDialect('"a;b\r\nc",x,y\n1,2,3\n')).toEqual({ delimiter: ',', newline: '\n' });
    expect(sniffDialect('email;name\r\na@b.c;"x,y"\r\n')).toEqual({ delimiter: ';', newline: '\r\n' });
    expect(sniffDialect('email\n')).toEqual({ delimiter: ',', newline: '\n' });
  });
});

describe('readHeaderRecord', () => {
  it('returns the first non-blank record, or nothing', async () => {
    expect(await readHeaderRecord(chunks('\n\n Email ;Name\nx;y\n'), LIMITS)).toEqual([' Email ', 'Name']);
    expect(await readHeaderRecord(chunks('\n \n'), LIMITS)).toBeUndefined();
  });
});
