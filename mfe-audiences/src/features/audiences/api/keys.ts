/** The audiences feature's query keys: lists by their paging/filter, one audience, and its contacts. */
export interface AudienceListParams {
  page: number;
  limit: number;
  name: string;
}

export interface ContactListParams {
  page: number;
  limit: number;
  /** Already trimmed; absent when the search box is blank. */
  email?: string;
  /** true: contacts with errors, false: valid contacts, absent: all. */
  hasError?: boolean;
}

export const audienceKeys = {
  all: ['audiences'] as const,
  lists: () => [...audienceKeys.all, 'list'] as const,
  list: (params: AudienceListParams) => [...audienceKeys.lists(), params] as const,
  details: () => [...audienceKeys.all, 'detail'] as const,
  detail: (id: number) => [...audienceKeys.details(), id] as const,
  contacts: (id: number) => [...audienceKeys.detail(id), 'contacts'] as const,
  contactList: (id: number, params: ContactListParams) => [...audienceKeys.contacts(id), params] as const,
  /** Under the audience's own key: a change of its fields refreshes the audience (its headers) too. */
  fields: (id: number) => [...audienceKeys.detail(id), 'fields'] as const,
};
