import { useCallback, useState } from 'react';

export type ThemeName = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'mailroom.theme';

/** The stored choice (light when there is none or storage is unavailable). */
export function storedTheme(): ThemeName {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

/** The light/dark choice, kept in localStorage so it survives a reload. */
export function useThemePreference(): [ThemeName, (theme: ThemeName) => void] {
  const [theme, setThemeState] = useState<ThemeName>(storedTheme);
  const setTheme = useCallback((next: ThemeName) => {
    setThemeState(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // storage full or disabled: the choice lasts for this page only
    }
  }, []);
  return [theme, setTheme];
}
