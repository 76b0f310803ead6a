/**
 * What the builder offers (react-querybuilder's fields, each with its operators) and the passage between the
 * builder's query, whose values are the editors' text, and the contract's SegmentRule, whose values are typed.
 */
import type { AudienceField } from '@mailroom/api-client';
import type { FieldType } from '@mailroom/api-client/fields';
import {
  CONDITION_OPERATORS,
  FIELD_OPERATORS,
  JOINED_WAYS,
  OPERATOR_LABELS,
  SUBSCRIPTION_STATES,
  SUPPRESSION_REASONS_OF_SEGMENTS,
  fieldCondition,
  joinedWords,
  operatorTakesValue,
  subscriptionWords,
  type FixedConditionField,
  type SegmentCondition,
  type SegmentGroup,
  type SegmentOperator,
  type SegmentRule,
} from '@mailroom/api-client/segments';
import type { Field, OptionGroup, RuleGroupType, RuleType } from 'react-querybuilder';

/** How a condition's value is edited and what it is sent as. */
export type ValueKind = 'text' | 'list' | 'number' | 'date' | 'yesNo' | 'choice' | 'subscription' | 'joined' | 'campaign' | 'none';

/** A builder field: react-querybuilder's, with what the value editor needs. */
export interface SegmentField extends Field {
  name: string;
  label: string;
  operators: { name: SegmentOperator; label: string }[];
  fieldType?: FieldType;
  choices?: readonly string[];
  /** The bounds of a count (N campaigns, K bounces, N days). */
  min?: number;
  max?: number;
}

export interface SentCampaign {
  id: number;
  name: string;
}

const operators = (names: readonly SegmentOperator[], labels: Partial<Record<SegmentOperator, string>> = {}) =>
  names.map((name) => ({ name, label: labels[name] ?? OPERATOR_LABELS[name] }));

/** The engagement operators read after "opened"/"clicked". */
const ENGAGEMENT_LABELS: Partial<Record<SegmentOperator, string>> = { never: 'never (no campaign)' };
const CAMPAIGN_LABELS: Record<string, Partial<Record<SegmentOperator, string>>> = {
  'campaign.received': { is: 'received', isNot: 'did not receive' },
  'campaign.opened': { is: 'opened', isNot: 'did not open' },
  'campaign.clicked': { is: 'clicked', isNot: 'did not click' },
};

/** The builder's fields: the audience's own (operators by type), then the contact's state, engagement and campaigns. */
export function segmentFields(fields: readonly AudienceField[]): OptionGroup<SegmentField>[] {
  const own = fields.map<SegmentField>((f) => ({
    name: f.key === 'fullName' ? 'fullName' : fieldCondition(f.key),
    label: f.label,
    operators: operators(FIELD_OPERATORS[f.type]),
    fieldType: f.type,
    ...(f.options ? { choices: f.options } : {}),
  }));
  const fixed = (name: FixedConditionField, label: string, extra: Partial<SegmentField> = {}): SegmentField => ({
    name,
    label,
    operators: operators(CONDITION_OPERATORS[name], name.startsWith('engagement.') ? ENGAGEMENT_LABELS : (CAMPAIGN_LABELS[name] ?? {})),
    ...extra,
  });
  return [
    ...(own.length > 0 ? [{ label: 'Fields', options: own }] : []),
    {
      label: 'Contact',
      options: [fixed('email.domain', 'Email domain'), fixed('subscription', 'Subscription'), fixed('joined', 'How they joined')],
    },
    {
      label: 'Engagement (people only)',
      options: [
        fixed('engagement.opened', 'Opened', { min: 1, max: 50 }),
        fixed('engagement.clicked', 'Clicked', { min: 1, max: 50 }),
        fixed('softBounces', 'Soft bounces', { min: 1, max: 1000 }),
      ],
    },
    {
      label: 'A campaign',
      options: [
        fixed('campaign.received', 'Received a campaign'),
        fixed('campaign.opened', 'Opened a campaign'),
        fixed('campaign.clicked', 'Clicked a campaign'),
      ],
    },
  ];
}

/** How the value of `field` under `operator` is edited. */
export function valueKind(field: SegmentField | undefined, operator: string): ValueKind {
  const op = operator as SegmentOperator;
  if (!field || !operatorTakesValue(op)) return 'none';
  if (op === 'oneOf') return 'list';
  switch (field.name) {
    case 'email.domain':
      return 'text';
    case 'subscription':
      return 'subscription';
    case 'joined':
      return 'joined';
    case 'engagement.opened':
    case 'engagement.clicked':
      return op === 'since' ? 'date' : 'number';
    case 'softBounces':
      return 'number';
    case 'campaign.received':
    case 'campaign.opened':
    case 'campaign.clicked':
      return 'campaign';
  }
  switch (field.fieldType) {
    case 'NUMBER':
      return 'number';
    case 'DATE':
      return op === 'withinLastDays' ? 'number' : 'date';
    case 'YES_NO':
      return 'yesNo';
    case 'CHOICE':
      return 'choice';
    default:
      return 'text';
  }
}

/** The choices of a chosen value, as [value, words]. */
export function valueChoices(kind: ValueKind, field: SegmentField | undefined, campaigns: readonly SentCampaign[]): [string, string][] {
  switch (kind) {
    case 'yesNo':
      return [
        ['true', 'yes'],
        ['false', 'no'],
      ];
    case 'choice':
      return (field?.choices ?? []).map((c) => [c, c]);
    case 'subscription':
      return [
        ...SUBSCRIPTION_STATES.map((s): [string, string] => [s, subscriptionWords(s)]),
        ...SUPPRESSION_REASONS_OF_SEGMENTS.map((r): [string, string] => [`suppressed:${r}`, subscriptionWords(`suppressed:${r}`)]),
      ];
    case 'joined':
      return JOINED_WAYS.map((w) => [w, joinedWords(w)]);
    case 'campaign':
      return campaigns.map((c) => [String(c.id), c.name]);
    default:
      return [];
  }
}

/** The value a new condition starts with: the first choice, a sensible count, or nothing to type yet. */
export function defaultValue(field: SegmentField | undefined, operator: string, campaigns: readonly SentCampaign[]): string {
  const kind = valueKind(field, operator);
  if (kind === 'number') {
    if (field?.name === 'softBounces') return '1';
    if (operator === 'withinLastDays') return '30';
    if (field?.name.startsWith('engagement.')) return '3';
    return '';
  }
  return valueChoices(kind, field, campaigns)[0]?.[0] ?? '';
}

export type FieldsByName = ReadonlyMap<string, SegmentField>;

export function fieldsByName(groups: readonly OptionGroup<SegmentField>[]): FieldsByName {
  return new Map(groups.flatMap((g) => g.options).map((f) => [f.name, f]));
}

/** The conditions that cannot be sent yet: no value where one is needed, or one that is not a number. */
export interface Unfinished {
  /** The builder's path of each unfinished condition. */
  paths: number[][];
}

type Converted<T> = { ok: true; value: T } | { ok: false; path: number[] };

function convertValue(kind: ValueKind, raw: unknown): SegmentCondition['value'] | undefined {
  const text = typeof raw === 'string' ? raw.trim() : raw === undefined || raw === null ? '' : String(raw);
  switch (kind) {
    case 'none':
      return undefined;
    case 'number': {
      if (text === '') return undefined;
      const n = Number(text);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'campaign': {
      const id = Number(text);
      return text !== '' && Number.isInteger(id) && id > 0 ? id : undefined;
    }
    case 'yesNo':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'list': {
      const items = (Array.isArray(raw) ? raw.map(String) : text.split(',')).map((s) => s.trim()).filter((s) => s !== '');
      return items.length > 0 ? items : undefined;
    }
    default:
      return text === '' ? undefined : text;
  }
}

function convertCondition(rule: RuleType, path: number[], fields: FieldsByName): Converted<SegmentCondition> {
  const field = fields.get(rule.field);
  const operator = rule.operator as SegmentOperator;
  const kind = valueKind(field, operator);
  const value = convertValue(kind, rule.value);
  if (!field || (kind !== 'none' && value === undefined)) return { ok: false, path };
  return {
    ok: true,
    value: { ...(rule.id ? { id: rule.id } : {}), field: rule.field, operator, ...(value === undefined ? {} : { value }) },
  };
}

/**
 * The builder's query as the contract's rule, or the paths of the conditions not finished yet (the count
 * and the save wait for them rather than sending a rule the API would refuse).
 */
export function toSegmentRule(query: RuleGroupType, fields: FieldsByName): { rule: SegmentRule; unfinished: number[][] } {
  const unfinished: number[][] = [];
  const rules: SegmentRule['rules'] = [];
  query.rules.forEach((part, i) => {
    if (typeof part === 'string') return;
    if ('rules' in part) {
      const group: SegmentGroup = { ...(part.id ? { id: part.id } : {}), combinator: part.combinator === 'or' ? 'or' : 'and', rules: [] };
      part.rules.forEach((inner, j) => {
        if (typeof inner === 'string' || 'rules' in inner) return;
        const converted = convertCondition(inner, [i, j], fields);
        if (converted.ok) group.rules.push(converted.value);
        else unfinished.push(converted.path);
      });
      rules.push(group);
      return;
    }
    const converted = convertCondition(part, [i], fields);
    if (converted.ok) rules.push(converted.value);
    else unfinished.push(converted.path);
  });
  return { rule: { ...(query.id ? { id: query.id } : {}), combinator: query.combinator === 'or' ? 'or' : 'and', rules }, unfinished };
}

function editorText(value: SegmentCondition['value']): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

const builderRule = (c: SegmentCondition): RuleType => ({
  ...(c.id ? { id: c.id } : {}),
  field: c.field,
  operator: c.operator,
  value: editorText(c.value),
});

/** A saved rule as the builder's query, its values as the editors show them. */
export function toBuilderQuery(rule: SegmentRule): RuleGroupType {
  return {
    ...(rule.id ? { id: rule.id } : {}),
    combinator: rule.combinator,
    rules: rule.rules.map((part) =>
      'rules' in part
        ? { ...(part.id ? { id: part.id } : {}), combinator: part.combinator, rules: part.rules.map(builderRule) }
        : builderRule(part),
    ),
  };
}

/** "Condition 2" or "Condition 1 of group 3", the words a control's label starts with. */
export function conditionName(path: readonly number[]): string {
  if (path.length <= 1) return `condition ${(path[0] ?? 0) + 1}`;
  return `condition ${path[1]! + 1} of group ${path[0]! + 1}`;
}
