import type { SuppressionReason } from '@mailroom/api-client';

/** Where a page of suppressions starts (keyset): the newest, older than `after`, newer than `before`, or the oldest. */
export interface SuppressionCursor {
  after?: number;
  before?: number;
  end?: boolean;
}

export interface SuppressionListParams extends SuppressionCursor {
  limit: number;
  /** Already trimmed; absent when the search box is blank. */
  email?: string;
  reason?: SuppressionReason;
}

/** The suppressions feature's query keys: every list shares the prefix, so a change refreshes them all. */
export const suppressionKeys = {
  all: ['suppressions'] as const,
  list: (params: SuppressionListParams) => [...suppressionKeys.all, 'list', params] as const,
};
