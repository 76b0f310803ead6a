import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from './test/fake-api';
import { renderApp } from './test/render';

afterEach(() => vi.unstubAllGlobals());

describe('the campaigns remote', () => {
  it('shows the list at its base path', async () => {
    renderApp('/campaigns', createFakeApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaigns' })).toBeTruthy();
  });

  it('sends an address the app does not know to /audiences (docs/product.md, Routes and screens)', async () => {
    const { location } = renderApp('/campaigns/unknown/page', createFakeApi());
    await waitFor(() => expect(location().pathname).toBe('/audiences'));
  });
});
