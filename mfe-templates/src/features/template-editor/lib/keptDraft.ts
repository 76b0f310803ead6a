import type { TemplateDraft } from '../api/templateEditor';

const key = (templateId: number) => `mailroom.template-draft.${templateId}`;

/**
 * Changes that could not be saved before the member left the editor (a failed save, or a reload
 * they confirmed), kept in this tab's session storage so the editor can restore them next time.
 * Storage may be full or disabled: then there is nothing more to do than the toast already said.
 */
export const keptDraft = {
  keep(templateId: number, draft: TemplateDraft) {
    try {
      sessionStorage.setItem(key(templateId), JSON.stringify(draft));
    } catch {
      // Nothing else can hold it.
    }
  },
  read(templateId: number): TemplateDraft | null {
    try {
      const raw = sessionStorage.getItem(key(templateId));
      if (raw === null) return null;
      const draft = JSON.parse(raw) as Partial<TemplateDraft>;
      return typeof draft.html === 'string' && typeof draft.design === 'object' && draft.design !== null
        ? { design: draft.design, html: draft.html }
        : null;
    } catch {
      return null;
    }
  },
  drop(templateId: number) {
    try {
      sessionStorage.removeItem(key(templateId));
    } catch {
      // Already unreachable.
    }
  },
};
