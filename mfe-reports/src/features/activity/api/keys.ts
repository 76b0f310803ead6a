import type { ActivityKind, ActivityObjectType } from '@mailroom/api-client';

/** The log's filters and the page's cursor, as the address holds them: absent means none. */
export interface ActivityParams {
  member?: string;
  kind?: ActivityKind;
  objectType?: ActivityObjectType;
  objectId?: number;
  before?: number;
  after?: number;
  oldest?: boolean;
}

/** The activity log's query keys; the prefix is the remote's own (the shell's query client is shared). */
export const activityKeys = {
  all: ['activity'] as const,
  page: (params: ActivityParams) => [...activityKeys.all, params] as const,
};
