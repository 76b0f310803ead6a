/** The templates list feature's query keys: pages of templates by paging and name. */
export interface TemplateListParams {
  page: number;
  limit: number;
  name: string;
}

export const templateKeys = {
  all: ['templates'] as const,
  lists: () => [...templateKeys.all, 'list'] as const,
  list: (params: TemplateListParams) => [...templateKeys.lists(), params] as const,
};
