/**
 * An open or click rate (docs/product.md, Campaigns list): unique opens or clicks divided by the jobs sent, with 1
 * in place of 0 sent so that a campaign that sent nothing reads 0.0% rather than dividing by zero.
 */
export function rateOf(uniqueCount: number, jobsSent: number): number {
  return uniqueCount / (jobsSent === 0 ? 1 : jobsSent);
}

/** A rate as a percentage with one decimal, e.g. 0.4251 -> '42.5%'. */
export function formatRate(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** A sending campaign's progress from 0 to 1: jobs done (sent or failed) of its recipients; null when it has none yet. */
export function sendingProgress(jobsSent: number, jobsFailed: number, contactCount: number): number | null {
  if (contactCount === 0) return null;
  return Math.min(1, (jobsSent + jobsFailed) / contactCount);
}
