import { audienceKeys } from '../../audiences/api/keys';

/** The fields feature's query keys: under the audience's own, so a change of its fields refreshes the audience too. */
export const fieldKeys = {
  list: (audienceId: number) => [...audienceKeys.detail(audienceId), 'fields'] as const,
};
