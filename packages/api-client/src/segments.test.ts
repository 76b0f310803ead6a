import { describe, expect, it } from 'vitest';
import { conditionToWords, ruleToWords, type SegmentRule } from './segments.js';

describe('ruleToWords', () => {
  it("says a rule a condition at a time, joined by the rule's combinator", () => {
    const rule: SegmentRule = {
      combinator: 'and',
      rules: [
        { field: 'fields.firstName', operator: 'contains', value: 'Ann' },
        { field: 'email.domain', operator: 'equals', value: 'example.org' },
      ],
    };
    expect(ruleToWords(rule)).toBe('firstName contains Ann AND domain is example.org');
  });

  it('brackets a group of several conditions, and uses the names it is given', () => {
    const rule: SegmentRule = {
      combinator: 'or',
      rules: [
        {
          combinator: 'and',
          rules: [
            { field: 'engagement.opened', operator: 'noneOfLast', value: 3 },
            { field: 'campaign.received', operator: 'is', value: 12 },
          ],
        },
        { combinator: 'and', rules: [{ field: 'fields.city', operator: 'oneOf', value: ['Oslo', 'Bergen'] }] },
        { field: 'fields.age', operator: 'greaterThan', value: 40 },
      ],
    };
    expect(ruleToWords(rule, { campaigns: { 12: 'Spring news' }, fields: new Map([['age', 'Age']]) })).toBe(
      '(opened none of the last 3 campaigns AND received “Spring news”) OR city is one of Oslo, Bergen OR Age is greater than 40',
    );
  });

  it('says an empty rule matches every contact', () => {
    expect(ruleToWords({ combinator: 'and', rules: [] })).toBe('every contact');
  });
});

describe('conditionToWords', () => {
  it.each([
    [{ field: 'fullName', operator: 'startsWith', value: 'Jo' }, 'full name starts with Jo'],
    [{ field: 'fields.member', operator: 'equals', value: false }, 'member is no'],
    [{ field: 'fields.birthday', operator: 'isEmpty' }, 'birthday is empty'],
    [{ field: 'fields.joinedOn', operator: 'withinLastDays', value: 1 }, 'joinedOn is within the last 1 day'],
    [{ field: 'subscription', operator: 'equals', value: 'suppressed:HARD_BOUNCE' }, 'subscription is suppressed (hard bounce)'],
    [{ field: 'subscription', operator: 'notEquals', value: 'pending' }, 'subscription is not pending'],
    [{ field: 'joined', operator: 'equals', value: 'form' }, 'joined through a sign-up form'],
    [{ field: 'engagement.clicked', operator: 'anyOfLast', value: 1 }, 'clicked any of the last 1 campaign'],
    [{ field: 'engagement.clicked', operator: 'since', value: '2024-05-01' }, 'clicked since 2024-05-01'],
    [{ field: 'engagement.opened', operator: 'never' }, 'never opened'],
    [{ field: 'softBounces', operator: 'atLeast', value: 2 }, 'soft-bounced at least 2 times'],
    [{ field: 'campaign.opened', operator: 'isNot', value: 7 }, 'did not open campaign 7'],
    [{ field: 'email.domain', operator: 'endsWith', value: '.edu' }, 'domain ends with .edu'],
  ] as const)('%o reads "%s"', (condition, words) => {
    expect(conditionToWords(condition)).toBe(words);
  });
});
