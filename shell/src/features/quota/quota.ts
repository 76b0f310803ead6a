/** GET /api/ses-quota (SPEC section 3, Quota). */
export interface Quota {
  emailsSent: number;
  remainingSends: number;
  /** 0..100 (may exceed 100 when more was sent than the 24-hour limit). */
  quotaUsedPercentage: number;
  maxSendRate: number;
  max24HourSend: number;
}

export type QuotaLevel = 'success' | 'warning' | 'error';

/** SPEC section 9: green below 70 percent, warning from 70 up to below 90, error from 90. */
export function quotaLevel(percentage: number): QuotaLevel {
  if (percentage >= 90) return 'error';
  if (percentage >= 70) return 'warning';
  return 'success';
}

/** The bar never runs past full (nor below empty). */
export const cappedPercentage = (percentage: number) => Math.min(100, Math.max(0, percentage));

/** Shown with 2 decimals. */
export const formatPercentage = (percentage: number) => `${percentage.toFixed(2)}%`;
