import type { CampaignLink } from '@mailroom/api-client';
import { counted } from '@mailroom/ui';

export interface ClickTotals {
  clicks: number;
  uniqueClicks: number;
}

export function clickTotals(links: readonly CampaignLink[]): ClickTotals {
  return links.reduce((totals, link) => ({ clicks: totals.clicks + link.clicks, uniqueClicks: totals.uniqueClicks + link.uniqueClicks }), {
    clicks: 0,
    uniqueClicks: 0,
  });
}

/** A part of a total in percent (0 when the total is 0). */
export function sharePercent(part: number, total: number): number {
  return total > 0 ? (part / total) * 100 : 0;
}

/** A share as the report shows it: one decimal and a percent sign, e.g. '40.0%'. */
export function formatShare(part: number, total: number): string {
  return `${sharePercent(part, total).toFixed(1)}%`;
}

export const clicksLabel = (count: number) => counted(count, 'click');
