import type { BounceType, SendStatus } from '@mailroom/api-client';

/** The email performance filters (docs/product.md, What the screens hold): absent means no filter. */
export interface EmailPerformanceFilters {
  /** Already trimmed; absent when the search box is blank. */
  email?: string;
  sendStatus?: SendStatus;
  bounceStatus?: BounceType;
  clicked?: boolean;
  opened?: boolean;
  /** An addition to the spec: opened or clicked by a person (not only machines). */
  humanClicked?: boolean;
  humanOpened?: boolean;
}

export interface EmailPerformancePageParams extends EmailPerformanceFilters {
  page: number;
  limit: number;
}

/**
 * The campaign report's query keys. Everything of one campaign sits under `report(id)`, so an action
 * (retry, send) refreshes the counters, the rows and the links together. The prefix is the remote's own:
 * the shell's query client is shared with the other remotes.
 */
export const reportKeys = {
  all: ['reports'] as const,
  report: (id: number) => [...reportKeys.all, id] as const,
  campaign: (id: number) => [...reportKeys.report(id), 'campaign'] as const,
  overview: (id: number) => [...reportKeys.report(id), 'overview'] as const,
  /** The Overview tab's figures, timeline and domains (an addition to the spec). */
  figures: (id: number) => [...reportKeys.report(id), 'figures'] as const,
  timeline: (id: number) => [...reportKeys.report(id), 'timeline'] as const,
  domains: (id: number) => [...reportKeys.report(id), 'domains'] as const,
  emailPerformance: (id: number) => [...reportKeys.report(id), 'email-performance'] as const,
  emailPerformancePage: (id: number, params: EmailPerformancePageParams) => [...reportKeys.emailPerformance(id), params] as const,
  links: (id: number) => [...reportKeys.report(id), 'links'] as const,
  /** The campaign's A/B test, its variants' figures and verdict (issue 28). */
  abTest: (id: number) => [...reportKeys.report(id), 'ab-test'] as const,
  /** One A/B test variant's click map: its mail's html and links with its recipients' clicks. */
  variantClicks: (id: number, variant: number) => [...reportKeys.report(id), 'ab-test-variant-clicks', variant] as const,
};
