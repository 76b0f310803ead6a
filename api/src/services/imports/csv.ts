/**
 * Reading a contacts file as CSV records, streaming: the file is never held whole, whatever its size.
 *
 * Bytes -> text: UTF-8 (a BOM is dropped), or UTF-16 when the file starts with a UTF-16 BOM (Excel's
 * "Unicode text" export). Anything that is not valid in that encoding stops the import with a clear
 * message instead of importing mojibake; a NUL character counts as such (a UTF-16 file without BOM,
 * or a binary file, decodes as "valid" UTF-8 full of NULs).
 *
 * Text -> records: papaparse's core `Papa.Parser`, driven chunk by chunk here rather than through
 * Papa.parse's stream modes, because only this loop sees the unparsed remainder it carries between
 * chunks: an unclosed quote would otherwise make papaparse swallow the rest of the file into one
 * field in memory. The dialect (comma, semicolon or tab; CRLF, LF or CR) is guessed once from the
 * first 64 KB, the same way by the API's upload check and by the worker. Quotes are read as
 * spreadsheets read them: a field is quoted only when it starts with a quote, so `5" floppy` keeps
 * its quote, and a quoted field ends at its closing quote even when text follows it before the next
 * delimiter (see quoteTrailingText); only a quoted field that is never closed stops the import.
 *
 * Limits (ImportLimits): a physical line, and a record (which may span lines inside quotes), may not
 * exceed `maxLineChars`; a record may not have more than `maxColumns` fields.
 */
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';

export interface ImportLimits {
  maxLineChars: number;
  maxColumns: number;
}

/** A problem with the file itself; its message is shown to the member as the import error. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export const ENCODING_ERROR = 'The file is not UTF-8 text. Save it as "CSV UTF-8" and import it again.';
export const EMPTY_FILE_ERROR = 'The file is empty.';

const SNIFF_CHARS = 64 * 1024;
const DELIMITERS = [',', ';', '\t'];

export interface CsvDialect {
  delimiter: string;
  newline: '\n' | '\r' | '\r\n';
}

/** Decodes a byte stream to text chunks, failing with ImportFileError on an encoding problem. */
export async function* decodeText(input: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let head: Buffer | undefined;
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    let text: string;
    try {
      text = decoder!.decode(bytes, { stream });
    } catch {
      throw new ImportFileError(ENCODING_ERROR);
    }
    if (text.includes('\0')) throw new ImportFileError(ENCODING_ERROR);
    return text;
  };
  for await (const chunk of input) {
    if (!decoder) {
      // The BOM decides the encoding; three bytes are needed to see one.
      head = head ? Buffer.concat([head, chunk]) : Buffer.from(chunk);
      if (head.length < 3) continue;
      decoder = decoderFor(head);
      const text = decode(head, true);
      head = undefined;
      if (text) yield text;
      continue;
    }
    const text = decode(chunk, true);
    if (text) yield text;
  }
  if (!decoder) {
    if (!head || head.length === 0) return;
    decoder = decoderFor(head);
    const text = decode(head, true);
    if (text) yield text;
  }
  const rest = decode(new Uint8Array(0), false);
  if (rest) yield rest;
}

function decoderFor(head: Uint8Array): TextDecoder {
  // TextDecoder drops the BOM of its own encoding (ignoreBOM defaults to false).
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true });
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true });
  return new TextDecoder('utf-8', { fatal: true });
}

/** Guesses line break and delimiter from the start of the text (quoted parts ignored). */
export function sniffDialect(sample: string): CsvDialect {
  const newline = firstLineBreak(sample.replace(/"[^"]*"/g, ''));
  // Guess from complete lines only: a cut last line would look inconsistent.
  const lastBreak = sample.lastIndexOf(newline);
  const complete = lastBreak > 0 ? sample.slice(0, lastBreak) : sample;
  const guess = Papa.parse<string[]>(complete, {
    newline,
    preview: 10,
    skipEmptyLines: 'greedy',
    delimitersToGuess: DELIMITERS,
  });
  const delimiter = DELIMITERS.includes(guess.meta.delimiter) ? guess.meta.delimiter : ',';
  return { delimiter, newline };
}

/** The first line break decides: CRLF, LF or CR (old Mac files). */
function firstLineBreak(text: string): CsvDialect['newline'] {
  const cr = text.indexOf('\r');
  const lf = text.indexOf('\n');
  if (cr === -1 || (lf !== -1 && lf < cr)) return '\n';
  return text[cr + 1] === '\n' ? '\r\n' : '\r';
}

export function isBlankRecord(record: string[]): boolean {
  for (const field of record) if (field.trim() !== '') return false;
  return true;
}

export interface RecordBatch {
  records: string[][];
  /** 1-based number of the first record of the batch in the file (blank lines count). */
  firstRecord: number;
}

/**
 * The records of a CSV text stream, in batches (one per decoded chunk), blank lines included
 * (callers skip them). Throws ImportFileError for an unclosed quote or a limit passed.
 */
export async function* csvRecords(input: AsyncIterable<Buffer | Uint8Array>, limits: ImportLimits): AsyncGenerator<RecordBatch> {
  let parser: Papa.Parser | undefined;
  let dialect: CsvDialect | undefined;
  let pending = '';
  let recordCount = 0;
  // Physical line accounting, for the line length limit.
  let lineChars = 0;
  let lineNumber = 1;

  const checkLines = (text: string) => {
    const breakChar = dialect!.newline === '\r' ? '\r' : '\n';
    let position = 0;
    for (;;) {
      const next = text.indexOf(breakChar, position);
      const length = lineChars + (next === -1 ? text.length : next) - position;
      if (length > limits.maxLineChars) {
        throw new ImportFileError(`Line ${lineNumber} is longer than ${limits.maxLineChars} characters.`);
      }
      if (next === -1) {
        lineChars = length;
        return;
      }
      lineChars = 0;
      lineNumber++;
      position = next + 1;
    }
  };

  const parse = (text: string, final: boolean): RecordBatch | undefined => {
    let aggregate = pending + text;
    let result = parser!.parse(aggregate, 0, !final) as Papa.ParseResult<string[]>;
    // Rare (papaparse reports it, so a chunk without it costs nothing more): a quoted field with text
    // after its closing quote. Everything before the first one was read right; read again from there.
    const trailingText = result.errors.find((error) => error.code === 'InvalidQuotes');
    if (trailingText) {
      aggregate = quoteTrailingText(aggregate, trailingText.index! - 1, dialect!);
      result = parser!.parse(aggregate, 0, !final) as Papa.ParseResult<string[]>;
    }
    const missingQuote = result.errors.find((error) => error.code === 'MissingQuotes');
    if (missingQuote) {
      throw new ImportFileError(`Row ${recordCount + (missingQuote.row ?? 0) + 1} has a quote that is never closed.`);
    }
    pending = final ? '' : aggregate.slice(result.meta.cursor);
    if (pending.length > limits.maxLineChars) {
      throw new ImportFileError(
        `Row ${recordCount + result.data.length + 1} is longer than ${limits.maxLineChars} characters (is a quote left open?).`,
      );
    }
    const records = result.data as string[][];
    for (let i = 0; i < records.length; i++) {
      if (records[i]!.length > limits.maxColumns) {
        throw new ImportFileError(`Row ${recordCount + i + 1} has more than ${limits.maxColumns} columns.`);
      }
    }
    if (records.length === 0) return undefined;
    const batch = { records, firstRecord: recordCount + 1 };
    recordCount += records.length;
    return batch;
  };

  let sample = '';
  const start = (text: string) => {
    dialect = sniffDialect(text);
    parser = new Papa.Parser({ delimiter: dialect.delimiter, newline: dialect.newline, quoteChar: '"' });
  };

  for await (const text of decodeText(input)) {
    if (!parser) {
      sample += text;
      if (sample.length < SNIFF_CHARS) continue;
      start(sample);
      checkLines(sample);
      const batch = parse(sample, false);
      sample = '';
      if (batch) yield batch;
      continue;
    }
    checkLines(text);
    const batch = parse(text, false);
    if (batch) yield batch;
  }
  if (!parser) {
    if (sample === '') return;
    start(sample);
    checkLines(sample);
    const batch = parse(sample, true);
    if (batch) yield batch;
    return;
  }
  const batch = parse('', true);
  if (batch) yield batch;
}

/**
 * Papaparse ends a quoted field only at a quote followed by a delimiter or a line break: after
 * `"y")` (the tail of `=HYPERLINK("http://x","y")` split at its comma, since a field is quoted only
 * when it starts with a quote) it searches on for another quote, swallowing the lines in between.
 * Spreadsheets end the field at its closing quote and keep the text after it, quotes included, up
 * to the next delimiter. This rewrites every such field from `start` (at the start of a field) to
 * the end of the text as one wholly quoted field (`"y)"`), which papaparse then reads as a
 * spreadsheet does. A quoted field still open at the end of the text is left as it is: more text
 * may close it, or papaparse reports it as never closed.
 */
function quoteTrailingText(text: string, start: number, { delimiter, newline }: CsvDialect): string {
  const parts = [text.slice(0, start)];
  let nextDelimiter = text.indexOf(delimiter, start);
  let nextNewline = text.indexOf(newline, start);
  /** Where the field that goes on at `from` ends: the next delimiter or line break, or the end. */
  const fieldEnd = (from: number): number => {
    if (nextDelimiter !== -1 && nextDelimiter < from) nextDelimiter = text.indexOf(delimiter, from);
    if (nextNewline !== -1 && nextNewline < from) nextNewline = text.indexOf(newline, from);
    return Math.min(nextDelimiter === -1 ? text.length : nextDelimiter, nextNewline === -1 ? text.length : nextNewline);
  };
  let field = start;
  while (field < text.length) {
    let end: number;
    if (text[field] === '"') {
      let close = text.indexOf('"', field + 1);
      while (close !== -1 && text[close + 1] === '"') close = text.indexOf('"', close + 2);
      if (close === -1) break;
      end = fieldEnd(close + 1);
      const after = text.slice(close + 1, end);
      // Blanks before a delimiter or line break are papaparse's to drop; at the end of the text they
      // are more of the field (papaparse would not close it there).
      if (after !== '' && (after.trim() !== '' || end === text.length)) {
        parts.push(text.slice(field, close), after.replaceAll('"', '""'), '"');
      } else {
        parts.push(text.slice(field, end));
      }
    } else {
      end = fieldEnd(field);
      parts.push(text.slice(field, end));
    }
    field = end;
    if (end === text.length) break;
    const separator = end === nextDelimiter ? delimiter : newline;
    parts.push(separator);
    field = end + separator.length;
  }
  parts.push(text.slice(field));
  return parts.join('');
}

/** The first non-blank record of a file (its header), or undefined for an empty file. */
export async function readHeaderRecord(input: AsyncIterable<Buffer | Uint8Array>, limits: ImportLimits): Promise<string[] | undefined> {
  for await (const batch of csvRecords(input, limits)) {
    const header = batch.records.find((record) => !isBlankRecord(record));
    if (header) return header;
  }
  return undefined;
}
