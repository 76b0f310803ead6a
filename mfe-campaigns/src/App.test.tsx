import { renderRemote } from '@mailroom/mf-contract/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import App from './App';

describe('the campaigns remote', () => {
  it('renders its area title under the base path the shell gives', () => {
    renderRemote(App, { notify: vi.fn(), basePath: '/campaigns' });
    expect(screen.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeTruthy();
  });
});
