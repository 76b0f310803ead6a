/**
 * The winner rule on recorded engagements (issue 28): a two-proportion test on people's opens or clicks,
 * the default when no variant wins at 95 %, and machines never counted.
 */
import { describe, expect, it } from 'vitest';
import { judge, normalCdf, twoProportionConfidence, type VariantFigures } from './ab-test-verdict.js';

const figures = (
  variant: number,
  sent: number,
  people: { opens?: number; clicks?: number },
  machines: { opens?: number; clicks?: number } = {},
) =>
  ({
    variant,
    recipients: sent,
    sent,
    openedHuman: people.opens ?? 0,
    openedMachine: machines.opens ?? 0,
    clickedHuman: people.clicks ?? 0,
    clickedMachine: machines.clicks ?? 0,
  }) satisfies VariantFigures;

describe('the two-proportion test', () => {
  it('has the normal distribution function right to six places', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6);
    expect(normalCdf(3)).toBeCloseTo(0.99865, 5);
  });

  it('gives the textbook confidence: 120 of 1,000 against 90 of 1,000 is z = 2.19, 97.1 %', () => {
    // Pooled p = 0.105; se = sqrt(0.105 x 0.895 x 2 / 1000) = 0.01371; z = 0.03 / 0.01371 = 2.188.
    expect(twoProportionConfidence(120, 1000, 90, 1000)).toBeCloseTo(0.9713, 3);
    expect(twoProportionConfidence(90, 1000, 120, 1000)).toBeCloseTo(0.9713, 3);
    expect(twoProportionConfidence(5, 100, 5, 100)).toBeCloseTo(0, 6);
    expect(twoProportionConfidence(0, 0, 5, 100)).toBe(0);
  });
});

describe('the winner', () => {
  it("goes to the variant people preferred, though machines' opens would make the other win on raw opens", () => {
    // A: 400 opens, 350 of them Apple's privacy proxy, 50 people; B: 120 opens, all people.
    const a = figures(0, 1000, { opens: 50 }, { opens: 350 });
    const b = figures(1, 1000, { opens: 120 });
    expect(a.openedHuman + a.openedMachine).toBeGreaterThan(b.openedHuman + b.openedMachine);
    const verdict = judge([a, b], 'PEOPLE_OPENS', 0);
    expect(verdict).toMatchObject({ rule: 'SIGNIFICANT', leader: 1, winner: 1 });
    expect(verdict.confidence).toBeGreaterThan(0.999);
  });

  it("judges clicks on people's clicks, a link scanner's clicks not counted", () => {
    const a = figures(0, 500, { clicks: 10 }, { clicks: 400 });
    const b = figures(1, 500, { clicks: 30 });
    expect(judge([a, b], 'PEOPLE_CLICKS', 0)).toMatchObject({ rule: 'SIGNIFICANT', winner: 1 });
  });

  it('needs 95 %: a lead short of it sends the default and says how sure it was', () => {
    const verdict = judge([figures(0, 1000, { opens: 100 }), figures(1, 1000, { opens: 115 })], 'PEOPLE_OPENS', 0);
    expect(verdict).toMatchObject({ rule: 'NOT_SIGNIFICANT', leader: 1, winner: 0 });
    expect(verdict.confidence).toBeGreaterThan(0.5);
    expect(verdict.confidence).toBeLessThan(0.95);
  });

  it('beats every other variant, not only the runner-up: the weakest comparison is the confidence', () => {
    // C leads; B is close behind it, A far behind.
    const verdict = judge(
      [figures(0, 1000, { opens: 50 }), figures(1, 1000, { opens: 140 }), figures(2, 1000, { opens: 150 })],
      'PEOPLE_OPENS',
      0,
    );
    expect(verdict).toMatchObject({ rule: 'NOT_SIGNIFICANT', leader: 2, winner: 0 });
    const clear = judge(
      [figures(0, 1000, { opens: 50 }), figures(1, 1000, { opens: 90 }), figures(2, 1000, { opens: 150 }), figures(3, 1000, { opens: 60 })],
      'PEOPLE_OPENS',
      3,
    );
    expect(clear).toMatchObject({ rule: 'SIGNIFICANT', leader: 2, winner: 2 });
    expect(clear.confidence).toBeCloseTo(twoProportionConfidence(150, 1000, 90, 1000), 10);
  });

  it('sends the default on a tie at the top, and on no data (nothing sent, or no person opened)', () => {
    expect(judge([figures(0, 100, { opens: 10 }), figures(1, 100, { opens: 10 })], 'PEOPLE_OPENS', 1)).toMatchObject({
      rule: 'TIE',
      leader: null,
      winner: 1,
    });
    expect(judge([figures(0, 0, {}), figures(1, 0, {})], 'PEOPLE_OPENS', 1)).toMatchObject({
      rule: 'NO_DATA',
      confidence: null,
      winner: 1,
    });
    expect(judge([figures(0, 100, {}, { opens: 90 }), figures(1, 100, {})], 'PEOPLE_OPENS', 1)).toMatchObject({
      rule: 'NO_DATA',
      winner: 1,
    });
  });
});
