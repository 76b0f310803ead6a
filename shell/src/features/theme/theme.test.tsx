import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderShell, stubQuotaFetch } from '../../test/render';
import { THEME_STORAGE_KEY } from './useThemePreference';

describe('theme switch', () => {
  it('keeps the choice in localStorage across a reload', async () => {
    stubQuotaFetch();
    const first = renderShell({ path: '/audiences' });
    const toggle = await screen.findByRole('switch', { name: 'Dark theme' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    first.unmount();

    renderShell({ path: '/audiences' });
    expect(((await screen.findByRole('switch', { name: 'Dark theme' })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('switch', { name: 'Dark theme' }));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it("follows the system's dark setting, and its changes, until the member chooses", async () => {
    let dark = true;
    const listeners = new Set<() => void>();
    // Width queries as the setup answers them (a wide window); the colour scheme from here.
    const widths = window.matchMedia.bind(window);
    vi.stubGlobal('matchMedia', (query: string) =>
      query === '(prefers-color-scheme: dark)'
        ? {
            get matches() {
              return dark;
            },
            media: query,
            addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
            removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
          }
        : widths(query),
    );
    const systemTurns = (toDark: boolean) =>
      act(() => {
        dark = toDark;
        for (const listener of listeners) listener();
      });
    stubQuotaFetch();
    renderShell({ path: '/audiences' });
    const toggle = (await screen.findByRole('switch', { name: 'Dark theme' })) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    systemTurns(false);
    expect(toggle.checked).toBe(false);
    systemTurns(true);
    expect(toggle.checked).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();

    fireEvent.click(toggle);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    systemTurns(false);
    systemTurns(true);
    expect(toggle.checked).toBe(false);
  });
});
