/** The contact-import feature's query keys: the audience being imported into. */
export const importKeys = {
  all: ['contact-import'] as const,
  audience: (id: number) => [...importKeys.all, 'audience', id] as const,
  mapping: (id: number) => [...importKeys.all, 'mapping', id] as const,
};
