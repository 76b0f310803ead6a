/**
 * The import wizard's mapping (issue 24; docs/decisions/audiences-and-imports.md, "The mapping"): which column of
 * the file holds the address, and which columns go to which fields, existing or new. The API reads it from the
 * upload's `mapping` field (JSON) and checks it strictly against the file's header and the audience's fields; a
 * mapping that fails is refused with a DomainError and nothing is stored. Without one, the import behaves as the
 * spec's did: every other column goes to a TEXT field under its own name.
 */
import {
  FIELD_TYPES,
  fieldKeyError,
  fileColumnNames,
  isEmailColumnName,
  MAX_LABEL_LENGTH,
  MAX_MAPPING_CHARS,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  type FieldRule,
  type FieldType,
  type ImportMapping,
} from '@mailroom/api-client/fields';
import { z } from 'zod';
import { DomainError } from '../errors.js';
import { NO_EMAIL_COLUMN, type ColumnPlan } from './contact-rows.js';
import type { AudienceFieldInsert } from '../fields/repository.js';

/** A field of the audience as the import reads it. */
export interface AudienceFieldRule extends FieldRule {
  key: string;
  position: number;
}

/** A field the import creates (table audience_fields), as the fields' repository inserts it. */
export type NewAudienceField = AudienceFieldInsert;

/** What the audience remembers for its next import: each column of the file by name, with its field's key or null (nowhere). */
export interface RememberedMapping {
  emailColumn: string;
  columns: { column: string; key: string | null }[];
}

export interface ResolvedImport {
  plan: ColumnPlan;
  newFields: NewAudienceField[];
  remembered: RememberedMapping;
}

const name = z.string().min(1).max(MAX_MAPPING_CHARS);
const columnTarget = z.discriminatedUnion('to', [
  z.strictObject({ column: name, to: z.literal('field'), key: name }),
  z.strictObject({
    column: name,
    to: z.literal('new'),
    key: name,
    label: z.string().max(MAX_LABEL_LENGTH),
    type: z.enum(FIELD_TYPES),
    options: z.array(z.string().max(MAX_OPTION_LENGTH)).max(MAX_OPTIONS).nullish(),
    required: z.boolean().optional(),
  }),
  z.strictObject({ column: name, to: z.literal('none') }),
]);
const mappingSchema = z.strictObject({ emailColumn: name, columns: z.array(columnTarget) });

const invalid = (message: string) => new DomainError('invalid', `The mapping is refused: ${message}`);

/** Reads the upload's `mapping` field: undefined when there is none; a DomainError('invalid') when it is not a mapping. */
export function parseMapping(text: string | undefined, maxColumns: number): ImportMapping | undefined {
  if (text === undefined) return undefined;
  if (text.length > MAX_MAPPING_CHARS) throw invalid(`it is longer than ${MAX_MAPPING_CHARS} characters.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid('it is not JSON.');
  }
  const parsed = mappingSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.length > 0 ? issue.path.join('.') : 'the mapping'}: ${issue.message}.`);
  }
  if (parsed.data.columns.length > maxColumns) throw invalid(`it names more than ${maxColumns} columns.`);
  return parsed.data;
}

/**
 * The import of a file whose header is `header`, into an audience with `fields`, as `mapping` says (or, without
 * one, every column to a TEXT field of its name: an existing field of that key, else a new one). Refuses with a
 * DomainError('invalid') a mapping that names a column the file lacks, a column twice, a field twice, a field the
 * audience lacks, or a new field whose key, label, type or options are not allowed.
 */
export function resolveImport(
  mapping: ImportMapping | undefined,
  header: readonly string[],
  fields: readonly AudienceFieldRule[],
): ResolvedImport {
  const names = fileColumnNames(header);
  const byKey = new Map(fields.map((field) => [field.key, field]));
  let position = fields.reduce((last, field) => Math.max(last, field.position), 0);
  const newFields: NewAudienceField[] = [];
  const plan: ColumnPlan = { emailColumn: '', columns: [] };
  const usedKeys = new Set<string>();
  const useKey = (key: string) => {
    if (usedKeys.has(key.toLowerCase())) throw invalid(`the field '${key}' is given two columns.`);
    usedKeys.add(key.toLowerCase());
  };

  if (!mapping) {
    const emailIndex = header.findIndex(isEmailColumnName);
    if (emailIndex === -1) throw new DomainError('invalid', NO_EMAIL_COLUMN);
    plan.emailColumn = names[emailIndex]!;
    const folded = new Map(fields.map((field) => [field.key.toLowerCase(), field.key]));
    names.forEach((column, index) => {
      if (index === emailIndex) return;
      const key = folded.get(column.toLowerCase());
      // Legacy keys: a column's name as it is (spaces and all), as the spec's imports always kept it.
      if (key === undefined)
        newFields.push({ key: column, label: column, type: 'TEXT', options: null, required: false, position: ++position });
      plan.columns.push({ column, key: key ?? column });
    });
    return { plan, newFields, remembered: rememberedOf(plan, names) };
  }

  if (!names.includes(mapping.emailColumn)) throw invalid(`the file has no column '${mapping.emailColumn}' for the address.`);
  plan.emailColumn = mapping.emailColumn;
  const seenColumns = new Set<string>([mapping.emailColumn]);
  const taken = fields.map((field) => field.key);
  for (const target of mapping.columns) {
    if (!names.includes(target.column)) throw invalid(`the file has no column '${target.column}'.`);
    if (seenColumns.has(target.column)) {
      throw invalid(
        target.column === mapping.emailColumn
          ? `the column '${target.column}' holds the address and cannot also go to a field.`
          : `the column '${target.column}' is named twice.`,
      );
    }
    seenColumns.add(target.column);
    if (target.to === 'none') continue;
    if (target.to === 'field') {
      if (!byKey.has(target.key)) throw invalid(`the audience has no field '${target.key}'.`);
    } else {
      const keyError = fieldKeyError(target.key, taken);
      if (keyError) throw invalid(`the new field of column '${target.column}': ${keyError}`);
      const label = target.label.trim();
      if (label === '') throw invalid(`the new field of column '${target.column}' needs a label.`);
      newFields.push({
        key: target.key,
        label,
        type: target.type,
        options: choiceOptions(target.type, target.options, target.column),
        required: target.required ?? false,
        position: ++position,
      });
      taken.push(target.key);
    }
    useKey(target.key);
    plan.columns.push({ column: target.column, key: target.key });
  }
  return { plan, newFields, remembered: rememberedOf(plan, names) };
}

/** A new field's options: CHOICE has one or more, distinct without regard to case, none blank; other types none. */
function choiceOptions(type: FieldType, options: string[] | null | undefined, column: string): string[] | null {
  if (type !== 'CHOICE') {
    if (options && options.length > 0) throw invalid(`the new field of column '${column}' is not a choice and takes no options.`);
    return null;
  }
  const list = (options ?? []).map((option) => option.trim());
  if (list.length === 0) throw invalid(`the new field of column '${column}' is a choice and needs its options.`);
  const seen = new Set<string>();
  for (const option of list) {
    if (option === '') throw invalid(`the new field of column '${column}' has a blank option.`);
    if (seen.has(option.toLowerCase())) throw invalid(`the new field of column '${column}' has the option '${option}' twice.`);
    seen.add(option.toLowerCase());
  }
  return list;
}

/** Every column of the file, in file order, with where it went (the address's column is named apart). */
function rememberedOf(plan: ColumnPlan, names: readonly string[]): RememberedMapping {
  const keyOf = new Map(plan.columns.map(({ column, key }) => [column, key]));
  return {
    emailColumn: plan.emailColumn,
    columns: names.filter((column) => column !== plan.emailColumn).map((column) => ({ column, key: keyOf.get(column) ?? null })),
  };
}
