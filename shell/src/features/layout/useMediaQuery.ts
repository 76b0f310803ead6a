import { useSyncExternalStore } from 'react';

/** Whether `query` matches now, following changes (true where matchMedia does not exist). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : true),
    () => true,
  );
}

/** docs/product.md, Limits and constants breakpoint sm: the permanent drawer and the login photo start at 600px. */
export const WIDE_SCREEN = '(min-width: 600px)';
