import { useEffect, useState } from 'react';
import { webLightTheme, type Theme } from '@fluentui/react-components';
import type { ThemeName } from './useThemePreference';

let darkTheme: Theme | null = null;

/** Fetches the dark theme (once); bootstrap awaits it before the first render when it is the stored choice. */
export function loadDarkTheme(): Promise<Theme> {
  return darkTheme ? Promise.resolve(darkTheme) : import('./darkTheme').then(({ webDarkTheme }) => (darkTheme = webDarkTheme));
}

/** Fluent's theme for `name`: the dark one as soon as it is loaded (the light one meanwhile, or if it cannot be). */
export function useFluentTheme(name: ThemeName): Theme {
  const [, setLoaded] = useState(darkTheme);
  useEffect(() => {
    if (name !== 'dark' || darkTheme) return;
    let active = true;
    loadDarkTheme()
      .then((theme) => {
        if (active) setLoaded(theme);
      })
      .catch((error: unknown) => console.error('The dark theme could not be loaded', error));
    return () => {
      active = false;
    };
  }, [name]);
  return name === 'dark' && darkTheme ? darkTheme : webLightTheme;
}
