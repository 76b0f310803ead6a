import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RemoteName } from '@mailroom/mf-contract';
import { fakeRemote, renderShell, stubQuotaFetch } from '../../test/render';

describe('a remote that cannot be loaded', () => {
  it('shows an error panel in its own area while the rest of the shell works, and retries', async () => {
    stubQuotaFetch();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let audiencesUp = false;
    const loadRemote = vi.fn(async (name: RemoteName) => {
      if (name === 'audiences' && !audiencesUp) throw new Error('Failed to fetch http://localhost:3101/mf-manifest.json');
      return fakeRemote(name);
    });
    renderShell({ path: '/audiences', loadRemote });

    expect(await screen.findByText('The Audiences area could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Daily sending quota' })).toBeTruthy();
    expect(await screen.findByText('Sent: 120')).toBeTruthy();

    // Another area still loads.
    fireEvent.click(screen.getByRole('link', { name: 'Templates' }));
    expect((await screen.findByTestId('remote')).textContent).toContain('templates remote');

    // Back to the broken one, now up again: Retry loads it afresh.
    fireEvent.click(screen.getByRole('link', { name: 'Audiences' }));
    audiencesUp = true;
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('remote').textContent).toContain('audiences remote'));
    expect(loadRemote).toHaveBeenLastCalledWith('audiences', { retry: true });
  });

  it('contains a remote that throws while rendering', async () => {
    stubQuotaFetch();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const loadRemote = vi.fn(async (name: RemoteName) =>
      name === 'templates'
        ? {
            default: () => {
              throw new Error('boom');
            },
          }
        : fakeRemote(name),
    );
    renderShell({ path: '/templates', loadRemote });
    expect(await screen.findByText('The Templates area could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
  });
});
