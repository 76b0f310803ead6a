/**
 * The rule's own checks, without a database: what a condition means once checked, and a rule frozen at send read
 * again after the audience changed (as-sent), which must not refuse what it accepted then.
 */
import { describe, expect, it } from 'vitest';
import { checkRule, type RuleContext } from './rule.js';

const context: RuleContext = {
  fields: [
    { key: 'city', type: 'TEXT' },
    { key: 'plan', type: 'CHOICE', options: ['Free', 'Pro'] },
  ],
  sentCampaignIds: new Set([7]),
};
const rule = (...rules: object[]) => ({ combinator: 'and', rules });

describe('checkRule', () => {
  it('reads values for their field: a choice as the field spells it, text trimmed, a campaign by id', () => {
    expect(
      checkRule(
        rule(
          { field: 'fields.plan', operator: 'equals', value: 'pro' },
          { field: 'fields.City', operator: 'contains', value: ' Par ' },
          { field: 'campaign.opened', operator: 'isNot', value: '7' },
        ),
        context,
      ).rules,
    ).toEqual([
      { kind: 'field', key: 'plan', type: 'CHOICE', operator: 'equals', value: 'Pro' },
      { kind: 'field', key: 'city', type: 'TEXT', operator: 'contains', value: 'Par' },
      { kind: 'campaign', what: 'opened', negated: true, campaignId: 7 },
    ]);
  });

  it('refuses, when strict, what the audience lacks; reads it as sent after the audience changed', () => {
    const sent = rule(
      { field: 'fields.age', operator: 'greaterThan', value: 30 },
      { field: 'fields.since', operator: 'before', value: '2020-01-01' },
      { field: 'fields.plan', operator: 'equals', value: 'Gold' },
      { field: 'campaign.received', operator: 'is', value: 99 },
    );
    expect(() => checkRule(sent, context)).toThrow('names no field of the audience');
    expect(checkRule(sent, { ...context, mode: 'as-sent' }).rules).toEqual([
      { kind: 'field', key: 'age', type: 'NUMBER', operator: 'greaterThan', value: 30 },
      { kind: 'field', key: 'since', type: 'DATE', operator: 'before', value: '2020-01-01' },
      { kind: 'field', key: 'plan', type: 'CHOICE', operator: 'equals', value: 'Gold' },
      { kind: 'campaign', what: 'received', negated: false, campaignId: 99 },
    ]);
  });

  it('refuses control characters in a value, and groups inside groups', () => {
    expect(() => checkRule(rule({ field: 'fields.city', operator: 'equals', value: 'a\u0000b' }), context)).toThrow('control character');
    expect(() => checkRule(rule({ combinator: 'or', rules: [{ combinator: 'and', rules: [] }] }), context)).toThrow(
      'The rule is not valid',
    );
  });
});
