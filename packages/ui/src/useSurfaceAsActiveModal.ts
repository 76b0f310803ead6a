import { useActivateModal } from '@fluentui/react-tabster';
import { useCallback } from 'react';

/**
 * A ref for a DialogSurface that makes it the active modal once it is in the page. Fluent's dialog leaves that to
 * tabster's focus tracking, which can miss it when a dialog opens within a quarter of a second of another closing
 * (a quick keyboard user, a busy machine): the old modal is still counted active, the new one is taken for "the rest
 * of the page" and gets `aria-hidden`, so a screen reader cannot read it and role queries cannot find it.
 */
export function useSurfaceAsActiveModal(): (surface: HTMLElement | null) => void {
  const activateModal = useActivateModal();
  return useCallback(
    (surface: HTMLElement | null) => {
      if (surface) activateModal(surface);
    },
    [activateModal],
  );
}
