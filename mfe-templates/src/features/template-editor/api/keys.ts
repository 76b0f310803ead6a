/** The template editor feature's query keys: the template being edited. */
export const templateEditorKeys = {
  all: ['template-editor'] as const,
  template: (id: number) => [...templateEditorKeys.all, id] as const,
};
