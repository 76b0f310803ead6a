import { useCallback, useState, useSyncExternalStore } from 'react';

export type ThemeName = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'mailroom.theme';

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

/** The member's own choice, or null when they never made one (or storage is unavailable). */
export function storedTheme(): ThemeName | null {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'dark' || stored === 'light' ? stored : null;
  } catch {
    return null;
  }
}

/** The system's (or browser's) light or dark setting; light where it cannot be read. */
export function systemTheme(): ThemeName {
  return typeof window.matchMedia === 'function' && window.matchMedia(SYSTEM_DARK).matches ? 'dark' : 'light';
}

/** The theme a page opens with: the member's choice, else the system's setting. */
export function initialTheme(): ThemeName {
  return storedTheme() ?? systemTheme();
}

function subscribeToSystemTheme(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(SYSTEM_DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * The light/dark theme: the system's setting, followed while the page is open, until the member
 * flips the switch; their choice is then kept in localStorage so it survives a reload.
 */
export function useThemePreference(): [ThemeName, (theme: ThemeName) => void] {
  const [chosen, setChosen] = useState<ThemeName | null>(storedTheme);
  const system = useSyncExternalStore(subscribeToSystemTheme, systemTheme);
  const setTheme = useCallback((next: ThemeName) => {
    setChosen(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // storage full or disabled: the choice lasts for this page only
    }
  }, []);
  return [chosen ?? system, setTheme];
}
