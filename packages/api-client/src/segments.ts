/**
 * A segment's rule (issue 26) in words and the operators each kind of condition takes, as the contract's
 * SegmentCondition describes them. Shared by the segment builder (mfe-audiences), the campaign editor
 * (mfe-campaigns) and the report (mfe-reports), so the three say a rule the same way.
 */
import type { components } from './schema.js';
import type { FieldType } from './fields.js';

export type SegmentRule = components['schemas']['SegmentRule'];
export type SegmentGroup = components['schemas']['SegmentGroup'];
export type SegmentCondition = components['schemas']['SegmentCondition'];
export type SegmentOperator = SegmentCondition['operator'];
export type SegmentConditionValue = SegmentCondition['value'];

/** The rule of a new segment: no condition, which matches every contact a send would reach. */
export const EMPTY_SEGMENT_RULE: SegmentRule = { combinator: 'and', rules: [] };

/** At most this many conditions or groups in a group (the contract's maxItems). */
export const MAX_SEGMENT_RULES = 20;

/** Operators that take no value. */
const VALUELESS: ReadonlySet<SegmentOperator> = new Set(['isEmpty', 'isNotEmpty', 'never']);

export function operatorTakesValue(operator: SegmentOperator): boolean {
  return !VALUELESS.has(operator);
}

/** An audience field's operators by its type (the contract's list). */
export const FIELD_OPERATORS: Record<FieldType, readonly SegmentOperator[]> = {
  TEXT: ['equals', 'notEquals', 'contains', 'startsWith', 'isEmpty', 'isNotEmpty', 'oneOf'],
  CHOICE: ['equals', 'notEquals', 'isEmpty', 'isNotEmpty', 'oneOf'],
  NUMBER: ['equals', 'notEquals', 'greaterThan', 'lessThan', 'isEmpty', 'isNotEmpty'],
  DATE: ['before', 'after', 'withinLastDays', 'isEmpty', 'isNotEmpty'],
  YES_NO: ['equals', 'isEmpty', 'isNotEmpty'],
};

/** The conditions that are not an audience field, with their operators (the contract's list). */
export const CONDITION_OPERATORS = {
  'email.domain': ['equals', 'notEquals', 'endsWith', 'oneOf'],
  subscription: ['equals', 'notEquals'],
  joined: ['equals', 'notEquals'],
  'engagement.opened': ['anyOfLast', 'allOfLast', 'noneOfLast', 'since', 'never'],
  'engagement.clicked': ['anyOfLast', 'allOfLast', 'noneOfLast', 'since', 'never'],
  softBounces: ['atLeast'],
  'campaign.received': ['is', 'isNot'],
  'campaign.opened': ['is', 'isNot'],
  'campaign.clicked': ['is', 'isNot'],
} as const satisfies Record<string, readonly SegmentOperator[]>;

export type FixedConditionField = keyof typeof CONDITION_OPERATORS;

/** The field of a condition on the audience field `key`. */
export const fieldCondition = (key: string) => `fields.${key}`;

/** The subscription states a condition can name (`suppressed:<REASON>` narrows suppressed to one reason). */
export const SUBSCRIPTION_STATES = ['subscribed', 'pending', 'unsubscribed', 'suppressed'] as const;
export const SUPPRESSION_REASONS_OF_SEGMENTS = ['UNSUBSCRIBE', 'HARD_BOUNCE', 'COMPLAINT', 'SOFT_BOUNCE', 'MEMBER', 'ERASED'] as const;
export const JOINED_WAYS = ['import', 'form', 'added'] as const;

const SUBSCRIPTION_WORDS: Record<string, string> = {
  subscribed: 'subscribed',
  pending: 'pending',
  unsubscribed: 'unsubscribed (left the audience)',
  suppressed: 'suppressed',
};
const REASON_WORDS: Record<string, string> = {
  UNSUBSCRIBE: 'unsubscribed',
  HARD_BOUNCE: 'hard bounce',
  COMPLAINT: 'complaint',
  SOFT_BOUNCE: 'soft bounces',
  MEMBER: 'added by a member',
  ERASED: 'erased',
};
const JOINED_WORDS: Record<string, string> = { import: 'an import', form: 'a sign-up form', added: 'a member adding them' };

/** A subscription value in words: 'suppressed:HARD_BOUNCE' is 'suppressed (hard bounce)'. */
export function subscriptionWords(value: string): string {
  const [state, reason] = value.split(':');
  const words = SUBSCRIPTION_WORDS[state ?? ''] ?? value;
  return reason ? `${words} (${REASON_WORDS[reason] ?? reason})` : words;
}

export function joinedWords(value: string): string {
  return JOINED_WORDS[value] ?? value;
}

/** The operators' words as the builder offers them. */
export const OPERATOR_LABELS: Record<SegmentOperator, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  startsWith: 'starts with',
  endsWith: 'ends with',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
  oneOf: 'is one of',
  before: 'is before',
  after: 'is after',
  withinLastDays: 'is within the last N days',
  greaterThan: 'is greater than',
  lessThan: 'is less than',
  anyOfLast: 'any of the last N campaigns',
  allOfLast: 'all of the last N campaigns',
  noneOfLast: 'none of the last N campaigns',
  since: 'since a date',
  never: 'never',
  atLeast: 'at least K times',
  is: 'yes',
  isNot: 'no',
};

/** What the words need beyond the rule: campaigns' names by id, and labels of fields by key (the key when absent). */
export interface RuleWordsNames {
  campaigns?: ReadonlyMap<number, string> | Record<number, string>;
  fields?: ReadonlyMap<string, string> | Record<string, string>;
}

function lookUp<K extends string | number>(names: ReadonlyMap<K, string> | Record<K, string> | undefined, key: K): string | undefined {
  if (!names) return undefined;
  return names instanceof Map ? names.get(key) : (names as Record<K, string>)[key];
}

function listWords(value: SegmentConditionValue): string {
  if (Array.isArray(value)) return value.join(', ');
  return value === undefined ? '' : String(value);
}

const times = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function lastCampaigns(value: SegmentConditionValue): string {
  return `the last ${times(Number(value), 'campaign', 'campaigns')}`;
}

/** One condition in words, e.g. 'firstName contains Ann' or 'opened none of the last 3 campaigns'. */
export function conditionToWords(condition: SegmentCondition, names: RuleWordsNames = {}): string {
  const { field, operator, value } = condition;
  const text = listWords(value);
  if (field === 'email.domain') {
    const words = { equals: 'is', notEquals: 'is not', endsWith: 'ends with', oneOf: 'is one of' }[operator as string] ?? operator;
    return `domain ${words} ${text}`;
  }
  if (field === 'subscription') return `subscription ${operator === 'notEquals' ? 'is not' : 'is'} ${subscriptionWords(text)}`;
  if (field === 'joined') return `${operator === 'notEquals' ? 'did not join' : 'joined'} through ${joinedWords(text)}`;
  if (field === 'engagement.opened' || field === 'engagement.clicked') {
    const verb = field === 'engagement.opened' ? 'opened' : 'clicked';
    switch (operator) {
      case 'anyOfLast':
        return `${verb} any of ${lastCampaigns(value)}`;
      case 'allOfLast':
        return `${verb} all of ${lastCampaigns(value)}`;
      case 'noneOfLast':
        return `${verb} none of ${lastCampaigns(value)}`;
      case 'since':
        return `${verb} since ${text}`;
      case 'never':
        return `never ${verb}`;
      default:
        return `${verb} ${operator} ${text}`;
    }
  }
  if (field === 'softBounces') return `soft-bounced at least ${times(Number(value), 'time', 'times')}`;
  if (field.startsWith('campaign.')) {
    const id = Number(value);
    const name = lookUp(names.campaigns, id);
    const campaign = name === undefined ? `campaign ${text}` : `“${name}”`;
    const [positive, negative] = {
      'campaign.received': ['received', 'did not receive'],
      'campaign.opened': ['opened', 'did not open'],
      'campaign.clicked': ['clicked', 'did not click'],
    }[field] ?? [field, `not ${field}`];
    return `${operator === 'isNot' ? negative : positive} ${campaign}`;
  }
  const key = field === 'fullName' ? 'fullName' : field.replace(/^fields\./, '');
  const subject = lookUp(names.fields, key) ?? (field === 'fullName' ? 'full name' : key);
  switch (operator) {
    case 'isEmpty':
    case 'isNotEmpty':
      return `${subject} ${OPERATOR_LABELS[operator]}`;
    case 'withinLastDays':
      return `${subject} is within the last ${times(Number(value), 'day', 'days')}`;
    case 'equals':
    case 'notEquals':
      if (typeof value === 'boolean') return `${subject} ${operator === 'equals' ? 'is' : 'is not'} ${value ? 'yes' : 'no'}`;
      return `${subject} ${OPERATOR_LABELS[operator]} ${text}`;
    default:
      return `${subject} ${OPERATOR_LABELS[operator]} ${text}`;
  }
}

function isGroup(rule: SegmentCondition | SegmentGroup): rule is SegmentGroup {
  return 'rules' in rule;
}

/**
 * A rule as one sentence, a condition at a time: 'firstName contains Ann AND domain is example.org', a group in
 * brackets. An empty rule (or group) is every contact a send would reach.
 */
export function ruleToWords(rule: SegmentRule | SegmentGroup, names: RuleWordsNames = {}): string {
  if (rule.rules.length === 0) return 'every contact';
  const joiner = ` ${rule.combinator.toUpperCase()} `;
  return rule.rules
    .map((part) => {
      if (!isGroup(part)) return conditionToWords(part, names);
      const inner = ruleToWords(part, names);
      return part.rules.length > 1 ? `(${inner})` : inner;
    })
    .join(joiner);
}
