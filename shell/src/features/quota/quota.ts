/** GET /api/ses-quota (docs/product.md, What the screens hold, Quota), as the contract defines it. */
export type { Quota } from '@mailroom/api-client';

export type QuotaLevel = 'success' | 'warning' | 'error';

/** docs/product.md, Limits and constants: green below 70 percent, warning from 70 up to below 90, error from 90. */
export function quotaLevel(percentage: number): QuotaLevel {
  if (percentage >= 90) return 'error';
  if (percentage >= 70) return 'warning';
  return 'success';
}

/** The bar never runs past full (nor below empty). */
export const cappedPercentage = (percentage: number) => Math.min(100, Math.max(0, percentage));

/** Shown with 2 decimals. */
export const formatPercentage = (percentage: number) => `${percentage.toFixed(2)}%`;
