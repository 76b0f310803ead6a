import { renderRemote } from '@mailroom/mf-contract/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import App from './App';

describe('the templates remote', () => {
  it('renders its area title under the base path the shell gives', () => {
    renderRemote(App, { notify: vi.fn(), basePath: '/templates' });
    expect(screen.getByRole('heading', { level: 1, name: 'Templates' })).toBeTruthy();
  });
});
