import { screen, waitFor, within } from '@testing-library/react';
import type { Segment } from '@mailroom/api-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const segment = (id: number, name: string): Segment => ({
  id,
  audienceId: 4,
  name,
  rule: { combinator: 'and', rules: [{ field: 'email.domain', operator: 'equals', value: 'example.org' }] },
  createdAt: '2024-06-01T09:00:00.000Z',
  updatedAt: '2024-06-01T09:00:00.000Z',
});

const setup = (segments: Segment[] = [], url = '/audiences/4/segments') => {
  const api = createFakeApi({ audiences: [audience({ id: 4, name: 'Tree news' })], segments });
  return { api, ...renderApp(url, api) };
};

describe('Segments: the list', () => {
  it('shows an empty state whose action opens a new segment', async () => {
    const { user, location } = setup();
    const empty = await screen.findByText('No segments yet');
    await user.click(within(empty.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'New segment' }));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4/segments/new'));
  });

  it('is linked from the audience page with how many there are', async () => {
    const { user, location } = setup([segment(3, 'Locals')], '/audiences/4');
    await user.click(await screen.findByRole('link', { name: 'Segments (1)' }));
    await waitFor(() => expect(location().pathname).toBe('/audiences/4/segments'));
    expect(await screen.findByText('domain is example.org')).toBeTruthy();
  });

  it('deletes after confirmation, and shows the campaigns that target a segment the API keeps (409)', async () => {
    const { api, user, notify } = setup([segment(3, 'Locals'), segment(5, 'Used')]);
    api.on('DELETE', /^\/api\/segments\/5$/, () =>
      api.json(409, { message: 'Campaigns not sent yet target this segment.', campaigns: [{ id: 12, name: 'June news' }] }),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete Used' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(await within(dialog).findByText('Campaigns not sent yet target this segment.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'June news' }).getAttribute('href')).toBe('/campaigns/12');
    expect(api.segments.has(5)).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(await screen.findByRole('button', { name: 'Delete Locals' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Deleted Locals'));
    expect(api.segments.has(3)).toBe(false);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Locals' })).toBeNull());
  });
});
