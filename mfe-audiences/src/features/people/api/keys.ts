/** The people feature's query keys: one person's page, by the address as searched (trimmed). */
export const personKeys = {
  all: ['people'] as const,
  person: (email: string) => [...personKeys.all, 'person', email] as const,
};
