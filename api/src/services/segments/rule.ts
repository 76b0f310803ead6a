/**
 * A segment's rule (issue 26; docs/decisions/segments.md): the contract's SegmentRule, in react-querybuilder's
 * {field, operator, value} shape, read by a zod schema and then checked condition by condition against the
 * audience's fields and campaigns. What comes out is a typed tree (CheckedRule) that says exactly what each
 * condition means; compile.ts turns only that tree into SQL, so nothing a client sends reaches SQL text.
 * No HTTP, AMQP or SQL here.
 */
import type { Schemas } from '@mailroom/api-client';
import { parseDate, parseNumber, type FieldType } from '@mailroom/api-client/fields';
import { z } from 'zod';
import { DomainError } from '../errors.js';

export type SegmentRule = Schemas['SegmentRule'];
export type SegmentGroup = Schemas['SegmentGroup'];
export type SegmentCondition = Schemas['SegmentCondition'];

/** The contract's bounds (openapi.yaml, SegmentRule): checked here too, for a rule that comes from elsewhere. */
export const MAX_RULES = 20;
export const MAX_LAST_CAMPAIGNS = 50;
export const MAX_SOFT_BOUNCES = 1000;
/** withinLastDays: a hundred years is enough for any date a field holds. */
export const MAX_DAYS = 36_500;
const MAX_VALUE_LENGTH = 200;
const MAX_ONE_OF = 100;

const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'startsWith',
  'endsWith',
  'isEmpty',
  'isNotEmpty',
  'oneOf',
  'before',
  'after',
  'withinLastDays',
  'greaterThan',
  'lessThan',
  'anyOfLast',
  'allOfLast',
  'noneOfLast',
  'since',
  'never',
  'atLeast',
  'is',
  'isNot',
] as const;
export type Operator = (typeof OPERATORS)[number];

const builderId = z.string().max(64).optional();
const conditionSchema = z.strictObject({
  id: builderId,
  field: z.string().max(80),
  operator: z.enum(OPERATORS),
  value: z
    .union([z.string().max(MAX_VALUE_LENGTH), z.number(), z.boolean(), z.array(z.string().max(MAX_VALUE_LENGTH)).max(MAX_ONE_OF)])
    .optional(),
});
const combinator = z.enum(['and', 'or']);
const groupSchema = z.strictObject({ id: builderId, combinator, rules: z.array(conditionSchema).max(MAX_RULES) });
/** One level of nesting: a group holds conditions only. */
export const segmentRuleSchema = z.strictObject({
  id: builderId,
  combinator,
  rules: z.array(z.union([conditionSchema, groupSchema])).max(MAX_RULES),
});

export const SUBSCRIPTION_STATES = ['subscribed', 'pending', 'unsubscribed', 'suppressed'] as const;
export const SUPPRESSION_REASONS = ['UNSUBSCRIBE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER', 'ERASED'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const JOINED = ['import', 'form', 'added'] as const;
export type Joined = (typeof JOINED)[number];
export type Engagement = 'opened' | 'clicked';

/** A field condition, its value read for the field's type (text values as the member wrote them). */
export type FieldCondition =
  | { kind: 'field'; key: string; type: 'TEXT' | 'CHOICE'; operator: 'equals' | 'notEquals' | 'contains' | 'startsWith'; value: string }
  | { kind: 'field'; key: string; type: 'TEXT' | 'CHOICE'; operator: 'oneOf'; value: string[] }
  | { kind: 'field'; key: string; type: 'NUMBER'; operator: 'equals' | 'notEquals' | 'greaterThan' | 'lessThan'; value: number }
  | { kind: 'field'; key: string; type: 'DATE'; operator: 'before' | 'after'; value: string }
  | { kind: 'field'; key: string; type: 'DATE'; operator: 'withinLastDays'; value: number }
  | { kind: 'field'; key: string; type: 'YES_NO'; operator: 'equals'; value: boolean }
  | { kind: 'field'; key: string; type: FieldType; operator: 'isEmpty' | 'isNotEmpty' };

/** What one condition means, every value typed and bounded. */
export type CheckedCondition =
  | FieldCondition
  /** The address's domain, lower-cased; `values` holds one value but for oneOf. */
  | { kind: 'domain'; operator: 'equals' | 'notEquals' | 'endsWith' | 'oneOf'; values: string[] }
  | { kind: 'subscription'; negated: boolean; state: (typeof SUBSCRIPTION_STATES)[number]; reason?: SuppressionReason }
  | { kind: 'joined'; negated: boolean; how: Joined }
  | { kind: 'engagement'; what: Engagement; operator: 'anyOfLast' | 'allOfLast' | 'noneOfLast'; last: number }
  | { kind: 'engagement'; what: Engagement; operator: 'since'; date: string }
  | { kind: 'engagement'; what: Engagement; operator: 'never' }
  | { kind: 'softBounces'; atLeast: number }
  | { kind: 'campaign'; what: 'received' | 'opened' | 'clicked'; negated: boolean; campaignId: number };

export interface CheckedGroup {
  combinator: 'and' | 'or';
  rules: CheckedCondition[];
}
export interface CheckedRule {
  combinator: 'and' | 'or';
  rules: (CheckedCondition | CheckedGroup)[];
}

/** What a rule is checked against: the audience's fields, and its campaigns that were sent (or are sending). */
export interface RuleContext {
  fields: readonly { key: string; type: FieldType; options?: readonly string[] | null }[];
  sentCampaignIds: ReadonlySet<number>;
  /**
   * 'as-sent' reads a rule frozen at send (a campaign's snapshot): a field removed since reads as an empty TEXT
   * value, a campaign deleted since as one nobody received. 'strict' (a rule a member saves or counts) refuses both.
   */
  mode?: 'strict' | 'as-sent';
}

const TEXT_OPERATORS = new Set<Operator>(['equals', 'notEquals', 'contains', 'startsWith', 'isEmpty', 'isNotEmpty', 'oneOf']);
const OPERATORS_BY_TYPE: Record<FieldType, ReadonlySet<Operator>> = {
  TEXT: TEXT_OPERATORS,
  CHOICE: new Set<Operator>(['equals', 'notEquals', 'isEmpty', 'isNotEmpty', 'oneOf']),
  NUMBER: new Set<Operator>(['equals', 'notEquals', 'greaterThan', 'lessThan', 'isEmpty', 'isNotEmpty']),
  DATE: new Set<Operator>(['before', 'after', 'withinLastDays', 'isEmpty', 'isNotEmpty']),
  YES_NO: new Set<Operator>(['equals', 'isEmpty', 'isNotEmpty']),
};

const DOMAIN = /^[^\s@]{1,200}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// Control characters never belong in a value compared with what a person typed.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A condition refused: the message names it as the member sees it (its place, field and operator). */
class Refused extends Error {}

const noValue = (value: SegmentCondition['value']): boolean =>
  value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function text(value: SegmentCondition['value'], what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Refused(`needs ${what}`);
  if (CONTROL.test(value)) throw new Refused('holds a control character');
  return value.trim();
}

function texts(value: SegmentCondition['value'], what: string): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new Refused(`needs a list of ${what}`);
  return [...new Set(value.map((one) => text(one, what)))];
}

function integer(value: SegmentCondition['value'], min: number, max: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < min || number > max) throw new Refused(`needs a whole number from ${min} to ${max}`);
  return number;
}

function date(value: SegmentCondition['value']): string {
  const day = typeof value === 'string' && DATE_ONLY.test(value.trim()) ? parseDate(value) : null;
  if (day === null) throw new Refused('needs a date written YYYY-MM-DD');
  return day;
}

function number(value: SegmentCondition['value']): number {
  const parsed =
    typeof value === 'number'
      ? Number.isFinite(value) && Math.abs(value) < 1e15
        ? value
        : null
      : typeof value === 'string'
        ? parseNumber(value)
        : null;
  if (parsed === null) throw new Refused('needs a number');
  return parsed;
}

function yesNo(value: SegmentCondition['value']): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Refused('needs true or false');
}

function option(options: readonly string[], value: string): string {
  const found = options.find((one) => one === value) ?? options.find((one) => one.toLowerCase() === value.toLowerCase());
  if (found === undefined) throw new Refused(`'${value.slice(0, 40)}' is not one of the field's options`);
  return found;
}

/**
 * The type a field removed since the rule was sent is read as (as-sent mode): the one its operator and value
 * suit. Its values are gone from the contacts, so the condition reads every contact's value as empty.
 */
function typeOfRemoved({ operator, value }: SegmentCondition): FieldType {
  if (operator === 'greaterThan' || operator === 'lessThan' || (operator !== 'oneOf' && typeof value === 'number')) return 'NUMBER';
  if (operator === 'before' || operator === 'after' || operator === 'withinLastDays') return 'DATE';
  if (typeof value === 'boolean') return 'YES_NO';
  return 'TEXT';
}

function fieldCondition(condition: SegmentCondition, key: string, context: RuleContext): FieldCondition {
  const field = context.fields.find((one) => one.key === key) ?? context.fields.find((one) => one.key.toLowerCase() === key.toLowerCase());
  if (!field && context.mode !== 'as-sent') throw new Refused(`names no field of the audience`);
  const type = field?.type ?? typeOfRemoved(condition);
  const fieldKey = field?.key ?? key;
  const { operator, value } = condition;
  if (!OPERATORS_BY_TYPE[type].has(operator)) throw new Refused(`cannot use '${operator}' with a ${type} field`);
  if (operator === 'isEmpty' || operator === 'isNotEmpty') {
    if (!noValue(value)) throw new Refused('takes no value');
    return { kind: 'field', key: fieldKey, type, operator };
  }
  switch (type) {
    case 'TEXT':
    case 'CHOICE': {
      // As sent, a value stands as it was written, whatever became of the field's options since.
      const options = type === 'CHOICE' && context.mode !== 'as-sent' ? (field?.options ?? []) : null;
      if (operator === 'oneOf') {
        const values = texts(value, 'values');
        return { kind: 'field', key: fieldKey, type, operator, value: options ? values.map((one) => option(options, one)) : values };
      }
      const one = text(value, 'a value');
      return {
        kind: 'field',
        key: fieldKey,
        type,
        operator: operator as 'equals' | 'notEquals' | 'contains' | 'startsWith',
        value: options ? option(options, one) : one,
      };
    }
    case 'NUMBER':
      return {
        kind: 'field',
        key: fieldKey,
        type,
        operator: operator as 'equals' | 'notEquals' | 'greaterThan' | 'lessThan',
        value: number(value),
      };
    case 'DATE':
      return operator === 'withinLastDays'
        ? { kind: 'field', key: fieldKey, type, operator, value: integer(value, 1, MAX_DAYS) }
        : { kind: 'field', key: fieldKey, type, operator: operator as 'before' | 'after', value: date(value) };
    case 'YES_NO':
      return { kind: 'field', key: fieldKey, type, operator: 'equals', value: yesNo(value) };
  }
}

function only<T extends Operator>(operator: Operator, allowed: readonly T[]): T {
  if (!(allowed as readonly Operator[]).includes(operator)) throw new Refused(`cannot use '${operator}' (it takes ${allowed.join(', ')})`);
  return operator as T;
}

function checkCondition(condition: SegmentCondition, context: RuleContext): CheckedCondition {
  const { field, operator, value } = condition;
  if (field.startsWith('fields.')) return fieldCondition(condition, field.slice('fields.'.length), context);
  switch (field) {
    // The contract's own name for the full name: the audience's field of that key.
    case 'fullName':
      return fieldCondition(condition, 'fullName', context);
    case 'email.domain': {
      const how = only(operator, ['equals', 'notEquals', 'endsWith', 'oneOf'] as const);
      const values = (how === 'oneOf' ? texts(value, 'domains') : [text(value, 'a domain')]).map((one) =>
        one.replace(/^@/, '').toLowerCase(),
      );
      if (!values.every((one) => DOMAIN.test(one))) throw new Refused('needs a domain without spaces or @');
      return { kind: 'domain', operator: how, values };
    }
    case 'subscription': {
      const negated = only(operator, ['equals', 'notEquals'] as const) === 'notEquals';
      const state = text(value, 'a state');
      const [head, reason] = state.split(':', 2) as [string, string | undefined];
      if (reason !== undefined) {
        if (head !== 'suppressed' || !(SUPPRESSION_REASONS as readonly string[]).includes(reason))
          throw new Refused(`needs suppressed:<reason>, the reason one of ${SUPPRESSION_REASONS.join(', ')}`);
        return { kind: 'subscription', negated, state: 'suppressed', reason: reason as SuppressionReason };
      }
      if (!(SUBSCRIPTION_STATES as readonly string[]).includes(head)) throw new Refused(`needs one of ${SUBSCRIPTION_STATES.join(', ')}`);
      return { kind: 'subscription', negated, state: head as (typeof SUBSCRIPTION_STATES)[number] };
    }
    case 'joined': {
      const negated = only(operator, ['equals', 'notEquals'] as const) === 'notEquals';
      const how = text(value, 'how the contact joined');
      if (!(JOINED as readonly string[]).includes(how)) throw new Refused(`needs one of ${JOINED.join(', ')}`);
      return { kind: 'joined', negated, how: how as Joined };
    }
    case 'engagement.opened':
    case 'engagement.clicked': {
      const what = field === 'engagement.opened' ? 'opened' : 'clicked';
      const how = only(operator, ['anyOfLast', 'allOfLast', 'noneOfLast', 'since', 'never'] as const);
      if (how === 'never') {
        if (!noValue(value)) throw new Refused('takes no value');
        return { kind: 'engagement', what, operator: how };
      }
      if (how === 'since') return { kind: 'engagement', what, operator: how, date: date(value) };
      return { kind: 'engagement', what, operator: how, last: integer(value, 1, MAX_LAST_CAMPAIGNS) };
    }
    case 'softBounces':
      only(operator, ['atLeast'] as const);
      return { kind: 'softBounces', atLeast: integer(value, 1, MAX_SOFT_BOUNCES) };
    case 'campaign.received':
    case 'campaign.opened':
    case 'campaign.clicked': {
      const negated = only(operator, ['is', 'isNot'] as const) === 'isNot';
      const campaignId = integer(value, 1, Number.MAX_SAFE_INTEGER);
      if (!context.sentCampaignIds.has(campaignId) && context.mode !== 'as-sent')
        throw new Refused('names no campaign sent to this audience');
      return { kind: 'campaign', what: field.slice('campaign.'.length) as 'received' | 'opened' | 'clicked', negated, campaignId };
    }
    default:
      throw new Refused('names nothing a rule can compare');
  }
}

const isGroup = (rule: SegmentCondition | SegmentGroup): rule is SegmentGroup => 'combinator' in rule;

/** Where a condition sits, as the builder shows it: 'condition 3' or 'condition 2 of group 4'. */
const place = (index: number, group?: number) =>
  group === undefined ? `condition ${index + 1}` : `condition ${index + 1} of group ${group + 1}`;

/**
 * Reads a rule (any JSON) for `context`: a typed tree, or DomainError('invalid') naming the first condition
 * refused and why. A rule a member sends has passed the contract already; this is the API's own check of it.
 */
export function checkRule(input: unknown, context: RuleContext): CheckedRule {
  const parsed = segmentRuleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError('invalid', `The rule is not valid${issue ? ` at ${issue.path.join('.') || 'its root'}: ${issue.message}` : ''}.`);
  }
  const checkOne = (condition: SegmentCondition, index: number, group?: number): CheckedCondition => {
    try {
      return checkCondition(condition, context);
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      const field = condition.field.length > 80 ? `${condition.field.slice(0, 80)}…` : condition.field;
      throw new DomainError('invalid', `The rule's ${place(index, group)} (${field} ${condition.operator}) ${err.message}.`);
    }
  };
  return {
    combinator: parsed.data.combinator,
    rules: parsed.data.rules.map((rule, index) =>
      isGroup(rule)
        ? { combinator: rule.combinator, rules: rule.rules.map((condition, inner) => checkOne(condition, inner, index)) }
        : checkOne(rule, index),
    ),
  };
}
