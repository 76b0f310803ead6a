/** The campaigns list's query keys: the lists by their paging and name filter. */
export interface CampaignListParams {
  page: number;
  limit: number;
  name: string;
  /** Send approval (issue 27): only the campaigns awaiting approval (`/campaigns?status=awaiting`). */
  awaiting: boolean;
}

export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: () => [...campaignKeys.all, 'list'] as const,
  list: (params: CampaignListParams) => [...campaignKeys.lists(), params] as const,
};
