import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
});
