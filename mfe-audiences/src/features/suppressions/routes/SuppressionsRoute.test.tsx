import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, suppression } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const list = () => [
  suppression(1, 'gone@example.org', 'HARD_BOUNCE', 'Autumn news'),
  suppression(2, 'angry@example.org', 'COMPLAINT', 'Autumn news'),
  suppression(3, 'quit@example.org', 'UNSUBSCRIBE', 'Spring news'),
  suppression(4, 'full@example.org', 'SOFT_BOUNCE', 'Spring news'),
  suppression(5, 'ours@example.org', 'MEMBER'),
];

describe('Suppressions', () => {
  it('lists every suppressed address, newest first, with its reason, date and campaign, reached from the audiences list', async () => {
    const api = createFakeApi({ suppressions: list() });
    const user = userEvent.setup();
    renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'Suppressions' }));
    const table = await screen.findByRole('table', { name: 'Suppressions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'ours@example.org',
      'full@example.org',
      'quit@example.org',
      'angry@example.org',
      'gone@example.org',
    ]);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'added by a member',
      'repeated soft bounces',
      'unsubscribed',
      'complaint',
      'hard bounce',
    ]);
    expect(within(rows[4]!).getByText('Autumn news')).toBeTruthy();
    expect(screen.getByText('1–5 of 5')).toBeTruthy();
  });

  it('searches by address and filters by reason on the server', async () => {
    const api = createFakeApi({ suppressions: list() });
    const user = userEvent.setup();
    renderApp('/audiences/suppressions', api);
    await screen.findByRole('table', { name: 'Suppressions' });
    await user.type(screen.getByRole('searchbox', { name: 'Search by email' }), 'qu');
    await waitFor(() => expect(screen.getByText('1–1 of 1')).toBeTruthy());
    expect(api.calls('GET', '/api/suppressions').at(-1)!.query.get('email')).toBe('qu');
    await user.clear(screen.getByRole('searchbox', { name: 'Search by email' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'complaint');
    await waitFor(() => expect(api.calls('GET', '/api/suppressions').at(-1)!.query.get('reason')).toBe('COMPLAINT'));
    expect(await screen.findByText('angry@example.org')).toBeTruthy();
  });

  it('names the reason when removing, and asks a second time for a complaint', async () => {
    const api = createFakeApi({ suppressions: list() });
    const user = userEvent.setup();
    renderApp('/audiences/suppressions', api);
    await user.click(await screen.findByRole('button', { name: 'Remove gone@example.org' }));
    const first = await screen.findByRole('alertdialog');
    expect(first.textContent).toContain('hard bounce');
    await user.click(within(first).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.suppressions.map((s) => s.email)).not.toContain('gone@example.org'));

    await user.click(await screen.findByRole('button', { name: 'Remove angry@example.org' }));
    expect((await screen.findByRole('alertdialog')).textContent).toContain('complaint');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    // Not yet: the second confirmation.
    const second = await screen.findByRole('alertdialog', { name: 'This address complained' });
    expect(api.calls('DELETE', '/api/suppressions/2')).toHaveLength(0);
    await user.click(within(second).getByRole('button', { name: 'Remove anyway' }));
    await waitFor(() => expect(api.calls('DELETE', '/api/suppressions/2')[0]!.query.get('confirmComplaint')).toBe('true'));
    expect(api.suppressions.map((s) => s.email)).not.toContain('angry@example.org');
  });

  it('adds pasted addresses and reports the lines not added', async () => {
    const api = createFakeApi({ suppressions: [] });
    const user = userEvent.setup();
    renderApp('/audiences/suppressions', api);
    expect(await screen.findByText('No suppressed addresses')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add addresses' }));
    await user.type(screen.getByRole('textbox', { name: /Addresses/ }), 'a@example.org{enter}nonsense');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(/1 added, 0 already suppressed, 1 lines not added/)).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Lines not added' })).getByText(/Line 2: nonsense/)).toBeTruthy();
  });
});
