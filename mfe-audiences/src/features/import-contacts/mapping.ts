/**
 * The import wizard's mapping step (issue 24), its rules apart from the screen: reading the start of a file, the
 * choices offered for each column at first (remembered, else guessed), what is wrong with the choices, and the
 * mapping the upload sends. The API checks the same mapping again (api/src/services/imports/mapping.ts).
 */
import {
  fieldKeyError,
  fileColumnNames,
  guessFieldType,
  isEmailColumnName,
  MAX_LABEL_LENGTH,
  MAX_OPTIONS,
  suggestFieldKey,
  type FieldType,
  type ImportMapping,
} from '@mailroom/api-client/fields';
import type { components } from '@mailroom/api-client/schema';
import Papa from 'papaparse';

export type ImportMappingView = components['schemas']['ImportMappingView'];
export type MappedField = ImportMappingView['fields'][number];

/** How much of a file the wizard reads: its header and first rows are in there; a big file is never read whole. */
export const PREVIEW_BYTES = 64 * 1024;
/** Values shown under each column. */
export const SAMPLE_ROWS = 5;

export interface FilePreview {
  /** Each column's name as the import names it (blank: 'Column N', repeated: 'Name (2)'). */
  columns: string[];
  /** The first values of each column, by column. */
  samples: string[][];
}

/** The header and first rows of the start of a file (or pasted text), read as the API guesses its dialect. */
export function previewOf(start: string, whole: boolean): FilePreview | null {
  // A start cut inside a line would show half a value: read up to the last line break.
  const lastBreak = Math.max(start.lastIndexOf('\n'), start.lastIndexOf('\r'));
  const text = (whole || lastBreak < 0 ? start : start.slice(0, lastBreak)).replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(text, { preview: SAMPLE_ROWS + 1, skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const [header, ...rows] = parsed.data;
  if (!header || header.every((cell) => cell.trim() === '')) return null;
  const columns = fileColumnNames(header);
  return { columns, samples: columns.map((_, index) => rows.map((row) => (row[index] ?? '').trim())) };
}

/** The start of a file (or of pasted text), as text. */
export async function readStart(source: Blob | string): Promise<FilePreview | null> {
  if (typeof source === 'string') return previewOf(source.slice(0, PREVIEW_BYTES), source.length <= PREVIEW_BYTES);
  const head = source.slice(0, PREVIEW_BYTES);
  const text = typeof head.text === 'function' ? await head.text() : await new Response(head).text();
  return previewOf(text, source.size <= PREVIEW_BYTES);
}

/** Where one column goes, as the step's controls hold it. */
export type ColumnChoice =
  | { to: 'none' }
  | { to: 'field'; key: string }
  | { to: 'new'; key: string; label: string; type: FieldType; options: string; required: boolean };

export interface MappingChoices {
  emailColumn: string;
  columns: Record<string, ColumnChoice>;
}

/**
 * The choices offered at first: the column the audience's last import took the address from, else the first named
 * like an email; for every other column, what the last import did with a column of that name (when that field is
 * still there), else the field of that key or label, else a new field with a suggested key and a type guessed from
 * the sample.
 */
export function initialChoices(preview: FilePreview, view: ImportMappingView | undefined): MappingChoices {
  const fields = view?.fields ?? [];
  const remembered = view?.remembered ?? null;
  const fieldKeys = new Set(fields.map((field) => field.key));
  const emailColumn =
    remembered && preview.columns.includes(remembered.emailColumn)
      ? remembered.emailColumn
      : (preview.columns.find(isEmailColumnName) ?? '');
  const rememberedKey = new Map((remembered?.columns ?? []).map(({ column, key }) => [column, key]));
  const taken = fields.map((field) => field.key);
  const columns: Record<string, ColumnChoice> = {};
  preview.columns.forEach((column, index) => {
    if (column === emailColumn) return;
    if (rememberedKey.has(column)) {
      const key = rememberedKey.get(column);
      if (key === null) return void (columns[column] = { to: 'none' });
      if (key !== undefined && fieldKeys.has(key)) return void (columns[column] = { to: 'field', key });
    }
    const lower = column.toLowerCase();
    const same = fields.find((field) => field.key.toLowerCase() === lower || field.label.toLowerCase() === lower);
    if (same) return void (columns[column] = { to: 'field', key: same.key });
    const key = suggestFieldKey(column, taken);
    taken.push(key);
    const type = guessFieldType(preview.samples[index] ?? []);
    columns[column] = { to: 'new', key, label: column.slice(0, MAX_LABEL_LENGTH), type, options: '', required: false };
  });
  return { emailColumn, columns };
}

/** A CHOICE field's options as typed: one a line or separated by commas. */
export const optionsOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((option) => option.trim())
    .filter((option) => option !== '');

/** What is wrong with the choices: '' under `email` for the address's column, and under each column its own problem. */
export function choiceProblems(choices: MappingChoices, preview: FilePreview, fields: readonly MappedField[]): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!preview.columns.includes(choices.emailColumn)) problems[''] = 'Choose the column that holds the email address.';
  const used = new Map<string, string>();
  const taken = fields.map((field) => field.key);
  for (const column of preview.columns) {
    const choice = choices.columns[column];
    if (column === choices.emailColumn || !choice || choice.to === 'none') continue;
    let problem: string | null = null;
    if (choice.to === 'new') {
      problem = fieldKeyError(choice.key, taken);
      if (!problem && choice.label.trim() === '') problem = 'A new field needs a label.';
      if (!problem && choice.type === 'CHOICE') {
        const options = optionsOf(choice.options);
        if (options.length === 0) problem = 'List the options, separated by commas.';
        else if (options.length > MAX_OPTIONS) problem = `At most ${MAX_OPTIONS} options.`;
        else if (new Set(options.map((option) => option.toLowerCase())).size !== options.length) problem = 'An option is listed twice.';
      }
      taken.push(choice.key);
    }
    const other = used.get(choice.key.toLowerCase());
    if (!problem && other !== undefined) problem = `The column '${other}' goes to this field already.`;
    used.set(choice.key.toLowerCase(), column);
    if (problem) problems[column] = problem;
  }
  return problems;
}

/** The mapping the upload sends (the `mapping` field), every column of the file listed. */
export function mappingOf(choices: MappingChoices, preview: FilePreview): ImportMapping {
  return {
    emailColumn: choices.emailColumn,
    columns: preview.columns
      .filter((column) => column !== choices.emailColumn)
      .map((column) => {
        const choice = choices.columns[column] ?? { to: 'none' };
        if (choice.to === 'none') return { column, to: 'none' };
        if (choice.to === 'field') return { column, to: 'field', key: choice.key };
        return {
          column,
          to: 'new',
          key: choice.key,
          label: choice.label.trim(),
          type: choice.type,
          ...(choice.type === 'CHOICE' ? { options: optionsOf(choice.options) } : {}),
          ...(choice.required ? { required: true } : {}),
        };
      }),
  };
}
