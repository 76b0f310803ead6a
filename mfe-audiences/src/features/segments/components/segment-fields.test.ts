import type { AudienceField } from '@mailroom/api-client';
import { describe, expect, it } from 'vitest';
import { defaultValue, fieldsByName, segmentFields, toBuilderQuery, toSegmentRule, valueKind } from './segment-fields';

const fields: AudienceField[] = [
  { key: 'born', label: 'Born', type: 'DATE', options: null, required: false, editableByPerson: false, position: 1 },
  { key: 'member', label: 'Member', type: 'YES_NO', options: null, required: false, editableByPerson: false, position: 2 },
  { key: 'plan', label: 'Plan', type: 'CHOICE', options: ['Free', 'Paid'], required: false, editableByPerson: false, position: 3 },
];
const byName = fieldsByName(segmentFields(fields));

describe('the builder fields', () => {
  it("offers each audience field with its type's operators, then the fixed conditions", () => {
    expect(byName.get('fields.born')!.operators.map((o) => o.name)).toEqual(['before', 'after', 'withinLastDays', 'isEmpty', 'isNotEmpty']);
    expect(byName.get('fields.plan')!.operators.map((o) => o.name)).toEqual(['equals', 'notEquals', 'isEmpty', 'isNotEmpty', 'oneOf']);
    expect(byName.get('engagement.opened')!.operators.map((o) => o.name)).toEqual([
      'anyOfLast',
      'allOfLast',
      'noneOfLast',
      'since',
      'never',
    ]);
    expect(byName.get('softBounces')!.operators.map((o) => o.name)).toEqual(['atLeast']);
  });

  it('edits each value by its field and operator', () => {
    expect(valueKind(byName.get('fields.born'), 'withinLastDays')).toBe('number');
    expect(valueKind(byName.get('fields.born'), 'before')).toBe('date');
    expect(valueKind(byName.get('fields.member'), 'equals')).toBe('yesNo');
    expect(valueKind(byName.get('fields.plan'), 'oneOf')).toBe('list');
    expect(valueKind(byName.get('engagement.clicked'), 'since')).toBe('date');
    expect(valueKind(byName.get('engagement.clicked'), 'never')).toBe('none');
    expect(defaultValue(byName.get('engagement.clicked'), 'noneOfLast', [])).toBe('3');
    expect(defaultValue(byName.get('campaign.received'), 'is', [{ id: 9, name: 'May' }])).toBe('9');
  });
});

describe('toSegmentRule', () => {
  it("types the editors' text as the contract has it, groups included", () => {
    const { rule, unfinished } = toSegmentRule(
      {
        combinator: 'or',
        rules: [
          { field: 'fields.member', operator: 'equals', value: 'false' },
          {
            combinator: 'and',
            rules: [
              { field: 'softBounces', operator: 'atLeast', value: '2' },
              { field: 'campaign.opened', operator: 'isNot', value: '9' },
              { field: 'engagement.opened', operator: 'never', value: 'left over' },
              { field: 'fields.plan', operator: 'oneOf', value: 'Free, Paid ,' },
            ],
          },
        ],
      },
      byName,
    );
    expect(unfinished).toEqual([]);
    expect(rule).toEqual({
      combinator: 'or',
      rules: [
        { field: 'fields.member', operator: 'equals', value: false },
        {
          combinator: 'and',
          rules: [
            { field: 'softBounces', operator: 'atLeast', value: 2 },
            { field: 'campaign.opened', operator: 'isNot', value: 9 },
            { field: 'engagement.opened', operator: 'never' },
            { field: 'fields.plan', operator: 'oneOf', value: ['Free', 'Paid'] },
          ],
        },
      ],
    });
  });

  it('names the conditions not finished (no value, not a number) and leaves them out', () => {
    const { rule, unfinished } = toSegmentRule(
      {
        combinator: 'and',
        rules: [
          { field: 'email.domain', operator: 'equals', value: ' ' },
          { combinator: 'and', rules: [{ field: 'softBounces', operator: 'atLeast', value: 'two' }] },
        ],
      },
      byName,
    );
    expect(unfinished).toEqual([[0], [1, 0]]);
    expect(rule.rules).toEqual([{ combinator: 'and', rules: [] }]);
  });

  it('comes back from the builder as it went in', () => {
    const saved = {
      combinator: 'and' as const,
      rules: [
        { field: 'fields.born', operator: 'withinLastDays' as const, value: 30 },
        { combinator: 'or' as const, rules: [{ field: 'subscription', operator: 'equals' as const, value: 'suppressed:SOFT_BOUNCE' }] },
      ],
    };
    expect(toSegmentRule(toBuilderQuery(saved), byName)).toEqual({ rule: saved, unfinished: [] });
  });
});
