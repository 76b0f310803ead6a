/**
 * The A/B test's winner rule (issue 28; docs/decisions/ab-tests.md), no database: a two-proportion test
 * on what people did. A variant's rate is its people's opens (or clicks) over its mails sent; the
 * person verdicts are the report's own (services/tracking/classify.ts decides them as hits arrive,
 * campaign_jobs.human_opened_at and human_clicked_at keep them), so a privacy proxy's open or a link
 * scanner's click never counts.
 */
import type { Schemas } from '@mailroom/api-client';

export type AbTestMeasure = Schemas['AbTestMeasure'];
export type VariantFigures = Schemas['AbTestVariantFigures'];
export type AbTestVerdict = NonNullable<Schemas['AbTestVerdict']>;

/** The confidence a winner needs: the leader beats every other variant at 95 % (two-sided). */
export const CONFIDENCE_TO_WIN = 0.95;

/** The people count the measure judges by: machines' opens and clicks are not in it. */
export const peopleCount = (figures: VariantFigures, measure: AbTestMeasure): number =>
  measure === 'PEOPLE_CLICKS' ? figures.clickedHuman : figures.openedHuman;

/** Φ, the standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf: error under 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * The two-proportion z-test of a (x1 of n1) against b (x2 of n2) with the pooled rate: the confidence
 * (1 - the two-sided p-value) that their rates differ. 0 when either has no mail or nobody did anything.
 */
export function twoProportionConfidence(x1: number, n1: number, x2: number, n2: number): number {
  if (n1 === 0 || n2 === 0) return 0;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return 0;
  const z = Math.abs(x1 / n1 - x2 / n2) / se;
  return 2 * normalCdf(z) - 1;
}

/**
 * The verdict on the figures: the variant with the highest people rate wins when it beats each other
 * variant at CONFIDENCE_TO_WIN (its confidence is the weakest of those comparisons); otherwise the
 * member's default goes, and the verdict says why: no data (no mail sent, or no person opened or
 * clicked), a tie at the top, or a lead short of 95 %.
 */
export function judge(
  figures: readonly VariantFigures[],
  measure: AbTestMeasure,
  defaultVariant: number,
): AbTestVerdict & { winner: number } {
  const rate = (f: VariantFigures) => (f.sent === 0 ? 0 : peopleCount(f, measure) / f.sent);
  const sent = figures.reduce((sum, f) => sum + f.sent, 0);
  const people = figures.reduce((sum, f) => sum + peopleCount(f, measure), 0);
  const base = { figures: [...figures] };
  if (sent === 0 || people === 0) return { ...base, rule: 'NO_DATA', confidence: null, leader: null, winner: defaultVariant };
  const ranked = [...figures].sort((a, b) => rate(b) - rate(a) || a.variant - b.variant);
  const leader = ranked[0]!;
  if (rate(ranked[1]!) === rate(leader)) return { ...base, rule: 'TIE', confidence: 0, leader: null, winner: defaultVariant };
  const confidence = Math.min(
    ...ranked
      .slice(1)
      .map((other) => twoProportionConfidence(peopleCount(leader, measure), leader.sent, peopleCount(other, measure), other.sent)),
  );
  return confidence >= CONFIDENCE_TO_WIN
    ? { ...base, rule: 'SIGNIFICANT', confidence, leader: leader.variant, winner: leader.variant }
    : { ...base, rule: 'NOT_SIGNIFICANT', confidence, leader: leader.variant, winner: defaultVariant };
}
