/**
 * An audience's typed fields (an addition to the spec; docs/decisions/audiences-and-imports.md): add, change and
 * remove, with the rules of @mailroom/api-client/fields. No HTTP, AMQP or SQL here.
 *
 * Every change runs in one transaction that locks the audience's row (an import waits, and a running import
 * refuses the change), keeps audiences.headers equal to the fields' keys and records the change in the activity log.
 * A type change converts every stored value in that transaction, or changes nothing. A removal takes the field out
 * at once and leaves its values to the 'field-values-clear' consumer, in batches; until it is done the key cannot
 * name a new field, so a field added again never shows old values.
 */
import type { AudienceField, AudienceFieldChange, AudienceFieldInput } from '@mailroom/api-client';
import {
  convertFieldValue,
  fieldKeyError,
  MAX_LABEL_LENGTH,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  type FieldRule,
  type FieldValue,
} from '@mailroom/api-client/fields';
import type { Database, Tx } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { tagOccurrences } from '../../mail/merge-tags.js';
import type { MessageQueue } from '../../queue/typed-message-queue.js';
import { recordActivity, type Actor } from '../activity/activity-service.js';
import { AUDIENCE_NOT_FOUND } from '../audiences/audience-service.js';
import { DomainError } from '../errors.js';
import type { fieldQueues } from './queues.js';
import { fieldRepository, listAudienceFields, type LockedAudience } from './repository.js';

export const FIELD_NOT_FOUND = 'Field not found';
export const AUDIENCE_IMPORTING = 'The audience is importing its contacts; change its fields once the import is over.';
export const FIELD_REMOVED = 'The field was removed; its values are cleared from the contacts in the background.';
export const LABEL_REQUIRED = 'A field needs a label.';
export const LABEL_TOO_LONG = `A label is at most ${MAX_LABEL_LENGTH} characters.`;
export const LABEL_CONTROL = 'A label must not hold control characters (line breaks, tabs, NUL).';
export const OPTIONS_REQUIRED = 'A choice field needs at least one option.';
export const OPTIONS_ONLY_CHOICE = 'Only a choice field has options.';
export const TOO_MANY_OPTIONS = `A choice field has at most ${MAX_OPTIONS} options.`;
export const OPTION_TOO_LONG = `An option is at most ${MAX_OPTION_LENGTH} characters.`;
export const OPTION_BLANK = 'An option must not be blank.';
export const OPTION_CONTROL = 'An option must not hold control characters.';
export const removalPendingMessage = (key: string) =>
  `The values of a removed field '${key}' are still being cleared from the contacts; add it again in a minute.`;
export const templatesUseMessage = (key: string, names: string[]) =>
  `The merge tag {{${key}}} is used by ${names.length === 1 ? 'the template' : `${names.length} templates:`} ${names
    .slice(0, 10)
    .map((name) => `“${name}”`)
    .join(', ')}${names.length > 10 ? ' and more' : ''}. Remove it anyway? Those templates would then leave it empty.`;
export const doesNotFitMessage = (label: string, contacts: number, example: string) =>
  `${contacts.toLocaleString('en')} ${contacts === 1 ? 'contact holds' : 'contacts hold'} a value of ${label} that does not fit the new type (${example}); nothing was changed.`;

/** Contacts read per statement by a type change, and cleared per statement after a removal. */
const CONVERT_BATCH = 5_000;
const CLEAR_BATCH = 10_000;
/** A removal whose values are not cleared after this long lost its message: the sweep queues it again. */
const REMOVAL_STALE_MS = 10 * 60_000;

// Control characters (C0, DEL, C1) make a label or an option unreadable and break CSV headers.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The outcome of a removal: done, or refused until confirmed because templates use the field. */
export type FieldRemoval =
  { removed: true; message: string } | { removed: false; message: string; templates: { id: number; name: string }[] };

export interface FieldServiceDeps {
  db: Database;
  queue: MessageQueue<typeof fieldQueues>;
  logger: Logger;
  /** Called after the audience's fields changed. */
  onChange?: () => void;
}

function validLabel(label: unknown): string {
  const text = typeof label === 'string' ? label.trim() : '';
  if (text === '') throw new DomainError('invalid', LABEL_REQUIRED);
  if (CONTROL.test(text)) throw new DomainError('invalid', LABEL_CONTROL);
  if (text.length > MAX_LABEL_LENGTH) throw new DomainError('invalid', LABEL_TOO_LONG);
  return text;
}

function validOptions(type: FieldRule['type'], options: readonly string[] | null | undefined): string[] | null {
  if (type !== 'CHOICE') {
    if (options && options.length > 0) throw new DomainError('invalid', OPTIONS_ONLY_CHOICE);
    return null;
  }
  const trimmed = (options ?? []).map((option) => option.trim());
  if (trimmed.length === 0) throw new DomainError('invalid', OPTIONS_REQUIRED);
  if (trimmed.length > MAX_OPTIONS) throw new DomainError('invalid', TOO_MANY_OPTIONS);
  const seen = new Set<string>();
  for (const option of trimmed) {
    if (option === '') throw new DomainError('invalid', OPTION_BLANK);
    if (CONTROL.test(option)) throw new DomainError('invalid', OPTION_CONTROL);
    if (option.length > MAX_OPTION_LENGTH) throw new DomainError('invalid', OPTION_TOO_LONG);
    // Values are matched to options without case (fields.ts), so two options may not differ only in case.
    if (seen.has(option.toLowerCase())) throw new DomainError('invalid', `The option '${option}' is listed twice.`);
    seen.add(option.toLowerCase());
  }
  return trimmed;
}

/** Whether `text` uses the tag of `key` as the merge tags resolve it: any case, with or without a fallback. */
const usesKey = (key: string, ...texts: (string | null)[]): boolean =>
  texts.some((text) => text !== null && tagOccurrences(text).some((tag) => tag.name.toLowerCase() === key.toLowerCase()));

export function createFieldService({ db, queue, logger, onChange = () => {} }: FieldServiceDeps) {
  const repo = fieldRepository(db);

  /** Runs a change of the audience's fields: locked, not importing, headers adopted first and rewritten last. */
  const change = async <T>(audienceId: number, work: (tx: Tx, audience: LockedAudience) => Promise<T>): Promise<T> => {
    const result = await db.transaction(async (tx) => {
      const audience = await repo.lockAudience(tx, audienceId);
      if (!audience) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
      if (audience.isImporting) throw new DomainError('conflict', AUDIENCE_IMPORTING);
      await repo.adoptHeaders(tx, audienceId);
      const result = await work(tx, audience);
      await repo.rewriteHeaders(tx, audienceId);
      return result;
    });
    onChange();
    return result;
  };

  const fieldOrThrow = async (tx: Tx, audienceId: number, key: string): Promise<AudienceField> => {
    const field = await repo.find(tx, audienceId, key);
    if (!field) throw new DomainError('not-found', FIELD_NOT_FOUND);
    return field;
  };

  /**
   * Converts every stored value of `key` to `rule`, in batches within the caller's transaction: all of them, or
   * none (the 409 names how many contacts hold a value that does not fit, with one example).
   */
  const convertValues = async (tx: Tx, audienceId: number, key: string, rule: FieldRule): Promise<void> => {
    let misfits = 0;
    let example = '';
    const converted: { id: number; value: FieldValue | null }[][] = [];
    for (let after = 0; ;) {
      const batch = await repo.valuesAfter(tx, audienceId, key, after, CONVERT_BATCH);
      const changed: { id: number; value: FieldValue | null }[] = [];
      for (const { id, value } of batch) {
        const outcome = convertFieldValue(rule, value);
        if (!outcome.ok) {
          misfits++;
          example ||= outcome.error;
        } else if (misfits === 0 && outcome.value !== value) changed.push({ id, value: outcome.value });
      }
      if (misfits === 0 && changed.length > 0) converted.push(changed);
      if (batch.length < CONVERT_BATCH) break;
      after = batch.at(-1)!.id;
    }
    if (misfits > 0) throw new DomainError('conflict', doesNotFitMessage(rule.label, misfits, example));
    for (const batch of converted) await repo.writeValues(tx, key, batch);
  };

  return {
    /**
     * The audience's fields in position order. Columns an import wrote as headers only become TEXT fields first (as
     * migration 0021 did for every column then), so the screen shows every column the contacts have.
     */
    list: (audienceId: number): Promise<AudienceField[]> =>
      db.transaction(async (tx) => {
        if (!(await repo.exists(tx, audienceId))) throw new DomainError('not-found', AUDIENCE_NOT_FOUND);
        await repo.adoptHeaders(tx, audienceId);
        return listAudienceFields(db, audienceId, tx);
      }),

    async add(audienceId: number, input: AudienceFieldInput, actor: Actor): Promise<AudienceField> {
      const label = validLabel(input.label);
      const options = validOptions(input.type, input.options);
      return change(audienceId, async (tx, audience) => {
        const taken = (await listAudienceFields(db, audienceId, tx)).map((field) => field.key);
        const keyError = fieldKeyError(input.key, taken);
        if (keyError) throw new DomainError(keyError.startsWith('The audience already has') ? 'conflict' : 'invalid', keyError);
        if (await repo.removalPending(tx, audienceId, input.key)) throw new DomainError('conflict', removalPendingMessage(input.key));
        const field = await repo.insert(tx, audienceId, {
          key: input.key,
          label,
          type: input.type,
          options,
          required: input.required ?? false,
          editableByPerson: input.editableByPerson ?? false,
        });
        await recordActivity(tx, {
          actor,
          kind: 'field-add',
          object: { type: 'audience', id: audienceId, name: audience.name },
          details: { key: field.key, label: field.label, type: field.type },
        });
        return field;
      });
    },

    async change(audienceId: number, key: string, input: AudienceFieldChange, actor: Actor): Promise<AudienceField> {
      const label = input.label === undefined ? undefined : validLabel(input.label);
      return change(audienceId, async (tx, audience) => {
        const before = await fieldOrThrow(tx, audienceId, key);
        const type = input.type ?? before.type;
        const options = validOptions(type, input.options === undefined && type === before.type ? before.options : input.options);
        const next = {
          label: label ?? before.label,
          type,
          options,
          required: input.required ?? before.required,
          editableByPerson: input.editableByPerson ?? before.editableByPerson,
        };
        const retyped = type !== before.type || JSON.stringify(options) !== JSON.stringify(before.options);
        if (retyped) await convertValues(tx, audienceId, key, next);
        await repo.update(tx, audienceId, key, next);
        const changed = (Object.keys(next) as (keyof typeof next)[]).filter(
          (name) => JSON.stringify(next[name]) !== JSON.stringify(before[name]),
        );
        if (changed.length > 0) {
          await recordActivity(tx, {
            actor,
            kind: 'field-change',
            object: { type: 'audience', id: audienceId, name: audience.name },
            details: {
              key,
              changed,
              ...(next.label !== before.label ? { from: before.label, label: next.label } : {}),
              ...(type !== before.type ? { fromType: before.type, type } : {}),
            },
          });
        }
        return { ...before, ...next };
      });
    },

    /**
     * Removes a field. Templates that use it as a merge tag are named first: without `confirmed` nothing goes.
     * Its values leave the contacts in the background ('field-values-clear'); a lost message is queued again by
     * the sweep.
     */
    async remove(audienceId: number, key: string, confirmed: boolean, actor: Actor): Promise<FieldRemoval> {
      const templates = (await repo.templatesMentioning(key))
        .filter((template) => usesKey(key, template.html, template.plainText))
        .map(({ id, name }) => ({ id, name }));
      const outcome = await change(audienceId, async (tx, audience): Promise<FieldRemoval> => {
        const field = await fieldOrThrow(tx, audienceId, key);
        if (templates.length > 0 && !confirmed) {
          return {
            removed: false,
            message: templatesUseMessage(
              field.key,
              templates.map((t) => t.name),
            ),
            templates,
          };
        }
        await repo.remove(tx, audienceId, key);
        await repo.addRemoval(tx, audienceId, key);
        await recordActivity(tx, {
          actor,
          kind: 'field-remove',
          object: { type: 'audience', id: audienceId, name: audience.name },
          details: { key, label: field.label, ...(templates.length > 0 ? { templates: templates.length } : {}) },
        });
        return { removed: true, message: FIELD_REMOVED };
      });
      if (outcome.removed) {
        await queue.publish('field-values-clear', { audienceId, key }).catch((err: unknown) => {
          logger.error({ err, audienceId }, 'could not queue the clearing of a removed field; the sweep will');
        });
      }
      return outcome;
    },

    /** The 'field-values-clear' consumer: the removed field's values leave the contacts, a short statement a batch. */
    async clearValues(audienceId: number, key: string): Promise<{ contactsScanned: number }> {
      let contactsScanned = 0;
      for (;;) {
        const scanned = await repo.clearBatch(audienceId, key, CLEAR_BATCH);
        if (scanned === undefined) return { contactsScanned };
        contactsScanned += scanned;
        if (scanned < CLEAR_BATCH) break;
      }
      await repo.finishRemoval(audienceId, key);
      return { contactsScanned };
    },

    /** Housekeeping in the worker: removals whose clearing was lost are queued again. */
    async sweep(): Promise<{ requeuedRemovals: number }> {
      const stale = await repo.staleRemovals(REMOVAL_STALE_MS);
      for (const removal of stale) await queue.publish('field-values-clear', removal);
      return { requeuedRemovals: stale.length };
    },
  };
}

export type FieldService = ReturnType<typeof createFieldService>;
