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

  describe('keeps quotes inside an unquoted field as characters, as spreadsheets do', () => {
    /**
     * A cell as written in the file, and the values a spreadsheet reads from it. A formula whose
     * arguments hold the file's own delimiter splits there (a spreadsheet shows two cells too); the
     * part after the split starts with a quote, ends at its closing quote, and keeps the text that
     * follows it up to the next delimiter.
     */
    type Cell = [raw: string, ...values: string[]];
    const rowsFor = (d: string): Cell[][] => [
      // The header row: quotes at the start, the middle and the end of the line.
      [
        ['Note "a"', 'Note "a"'],
        ['Email', 'Email'],
        [`=SUM("1"${d}"2")`, '=SUM("1"', '2)'],
      ],
      // A data row with the formula at the start of the line...
      [
        [`=HYPERLINK("http://x"${d}"y")`, '=HYPERLINK("http://x"', 'y)'],
        ['a@example.org', 'a@example.org'],
        ['5" floppy', '5" floppy'],
      ],
      // ... in the middle ...
      [
        ['b@example.org', 'b@example.org'],
        [`=HYPERLINK("http://x"${d}"y")`, '=HYPERLINK("http://x"', 'y)'],
        ['Bob', 'Bob'],
      ],
      // ... and at the end, after a cell with a quote at its very end.
      [
        ['c@example.org', 'c@example.org'],
        ['12"', '12"'],
        [`=HYPERLINK("http://x"${d}"y")`, '=HYPERLINK("http://x"', 'y)'],
      ],
      // Text after a closing quote, quotes included; a properly quoted field with escaped quotes.
      [
        ['d@example.org', 'd@example.org'],
        ['"a"b"c"', 'ab"c"'],
        [`"one${d} two ""three"""`, `one${d} two "three"`],
      ],
    ];

    it.each([
      ['comma', ','],
      ['semicolon', ';'],
      ['tab', '\t'],
    ])('with the %s delimiter, LF and CRLF', async (_name, d) => {
      const rows = rowsFor(d);
      const expected = rows.map((row) => row.flatMap(([, ...values]) => values));
      for (const newline of ['\n', '\r\n']) {
        const content = rows.map((row) => row.map(([raw]) => raw).join(d)).join(newline) + newline;
        expect(await records(content)).toEqual(expected);
        expect(await records(content, 1)).toEqual(expected);
        expect(await records(content, 7)).toEqual(expected);
        // The last line without its line break.
        expect(await records(content.slice(0, -newline.length), 5)).toEqual(expected);
      }
    });

    it('in a file of many chunks', async () => {
      const lines = ['Email,Link,Size'];
      for (let i = 0; i < 3000; i++) lines.push(`u${i}@example.org,=HYPERLINK("http://x/${i}","y"),${i % 10}" floppy`);
      const all = await records(lines.join('\r\n'), 4096);
      expect(all).toHaveLength(3001);
      expect(all[3000]).toEqual(['u2999@example.org', '=HYPERLINK("http://x/2999"', 'y)', '9" floppy']);
    });

    it('as the upload check reads the header', async () => {
      expect(await readHeaderRecord(chunks('Email;=SUM("1";"2");Size 5"\r\nx;y\r\n'), LIMITS)).toEqual([
        'Email',
        '=SUM("1"',
        '2)',
        'Size 5"',
      ]);
    });

    it('still refuses a quoted field that is never closed, naming its row', async () => {
      for (const [d, newline] of [
        [',', '\n'],
        [';', '\r\n'],
        ['\t', '\r\n'],
      ] as const) {
        const content = [
          `Email${d}Link`,
          `a@example.org${d}=HYPERLINK("http://x"${d}"y")`,
          `b@example.org${d}5" floppy`,
          `c@example.org${d}"Cid`,
          `d@example.org${d}Dee`,
          '',
        ].join(newline);
        expect(await failure(content)).toBe('Row 4 has a quote that is never closed.');
        expect(await failure(content, 1)).toBe('Row 4 has a quote that is never closed.');
      }
    });
  });

  it('reads any mix of quotes, delimiters and line breaks as the rules above say', async () => {
    // The rules, written plainly: a field is quoted only when it starts with a quote; a quoted field
    // ends at a quote that is not doubled, and keeps what follows it up to the next delimiter or
    // line break (blanks just before one are dropped); an unquoted field keeps its quotes.
    const reference = (text: string, d: string, newline: string): string[][] | { unclosedRow: number } => {
      const all: string[][] = [];
      let record: string[] = [];
      const nextEnd = (from: number) => {
        const ends = [text.indexOf(d, from), text.indexOf(newline, from)].filter((i) => i !== -1);
        return ends.length ? Math.min(...ends) : text.length;
      };
      for (let i = 0; ;) {
        let value = '';
        let end: number;
        if (text[i] === '"') {
          let from = i + 1;
          for (;;) {
            const quote = text.indexOf('"', from);
            if (quote === -1) return { unclosedRow: all.length + 1 };
            if (text[quote + 1] === '"') {
              value += text.slice(from, quote + 1);
              from = quote + 2;
              continue;
            }
            value += text.slice(from, quote);
            end = nextEnd(quote + 1);
            const after = text.slice(quote + 1, end);
            if (after.trim() !== '' || end === text.length) value += after;
            break;
          }
        } else {
          end = nextEnd(i);
          value = text.slice(i, end);
        }
        record.push(value);
        if (end === text.length) return [...all, record];
        if (text.startsWith(d, end)) {
          i = end + d.length;
        } else {
          all.push(record);
          record = [];
          i = end + newline.length;
        }
      }
    };
    let seed = 12345;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const limits = { maxLineChars: 100_000, maxColumns: 1000 };
    let read = 0;
    let refused = 0;
    for (let round = 0; round < 400; round++) {
      const d = [',', ';', '\t'][round % 3]!;
      const newline = round % 2 ? '\r\n' : '\n';
      const alphabet = ['a', 'b', ' ', '"', '"', d, d, newline, '=F("x"'];
      let content = `Email${d}Name${d}Note${newline}`;
      const length = Math.floor(random() * 60);
      for (let i = 0; i < length; i++) content += alphabet[Math.floor(random() * alphabet.length)];
      const dialect = sniffDialect(content);
      const expected = reference(content, dialect.delimiter, dialect.newline);
      for (const size of [1, 3, 8, 64 * 1024]) {
        if (Array.isArray(expected)) {
          expect(await records(content, size, limits), JSON.stringify(content)).toEqual(expected.filter((r) => !isBlankRecord(r)));
        } else {
          expect(await failure(content, size, limits), JSON.stringify(content)).toBe(
            `Row ${expected.unclosedRow} has a quote that is never closed.`,
          );
        }
      }
      if (Array.isArray(expected)) read++;
      else refused++;
    }
    // Both outcomes were exercised.
    expect(read).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
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
