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
  { ...suppression(5, 'ours@example.org', 'MEMBER'), addedBy: 'mia@example.org' },
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
    // A member's addition names the member in a column of its own, not as a campaign.
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Email', 'Reason', 'Date', 'Campaign', 'Added by', 'Actions']);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(rows[0]!).slice(3, 5)).toEqual(['—', 'mia@example.org']);
    expect(cells(rows[4]!).slice(3, 5)).toEqual(['Autumn news', '—']);
    expect(
      screen.getByText(
        /^Campaigns are not sent to these addresses\. An address is listed when its owner unsubscribes or complains, when mail to it bounces for good or bounces softly too often, or when a member adds it\./,
      ),
    ).toBeTruthy();
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

    // hidden: jsdom may leave the page aria-hidden a while after a dialog is unmounted (no browser does).
    await user.click(await screen.findByRole('button', { name: 'Remove angry@example.org', hidden: true }));
    expect((await screen.findByRole('alertdialog')).textContent).toContain('complaint');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    // Not yet: the second confirmation.
    const second = await screen.findByRole('alertdialog', { name: 'This address complained' });
    expect(api.calls('DELETE', '/api/suppressions/2')).toHaveLength(0);
    await user.click(within(second).getByRole('button', { name: 'Remove anyway' }));
    await waitFor(() => expect(api.calls('DELETE', '/api/suppressions/2')[0]!.query.get('confirmComplaint')).toBe('true'));
    expect(api.suppressions.map((s) => s.email)).not.toContain('angry@example.org');
  });

  it('asks a second time for an unsubscribe, and removes it only once the member confirms the person asked again', async () => {
    const api = createFakeApi({ suppressions: list() });
    const user = userEvent.setup();
    renderApp('/audiences/suppressions', api);
    await user.click(await screen.findByRole('button', { name: 'Remove quit@example.org' }));
    const first = await screen.findByRole('alertdialog', { name: 'Remove suppression' });
    expect(first.textContent).toContain('unsubscribed');
    await user.click(within(first).getByRole('button', { name: 'Remove' }));

    const second = await screen.findByRole('alertdialog', { name: 'This person unsubscribed' });
    expect(second.textContent).toContain('quit@example.org asked not to receive your emails.');
    expect(second.textContent).toContain('Mailing them again is lawful only if they have since asked to receive them again');
    // Not without the member's word that the person asked again.
    await user.click(within(second).getByRole('button', { name: 'Remove anyway' }));
    expect(await within(second).findByText('Confirm that the person asked to receive your emails again, or cancel.')).toBeTruthy();
    expect(api.calls('DELETE', '/api/suppressions/3')).toHaveLength(0);

    await user.click(within(second).getByRole('checkbox', { name: 'quit@example.org has asked to receive our emails again' }));
    await user.click(within(second).getByRole('button', { name: 'Remove anyway' }));
    await waitFor(() => expect(api.calls('DELETE', '/api/suppressions/3')[0]!.query.get('confirmUnsubscribe')).toBe('true'));
    expect(api.calls('DELETE', '/api/suppressions/3')[0]!.query.get('confirmComplaint')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.suppressions.map((s) => s.email)).not.toContain('quit@example.org');
  });

  it('adds pasted addresses, closes the dialog and announces the outcome with the lines not added', async () => {
    const api = createFakeApi({ suppressions: [] });
    const user = userEvent.setup();
    renderApp('/audiences/suppressions', api);
    expect(await screen.findByText('No suppressed addresses')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add addresses' }));
    await user.type(screen.getByRole('textbox', { name: /Addresses/ }), 'a@example.org{enter}nonsense');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add suppressions' })).toBeNull());
    // In the screen's status region, so that it is announced. (jsdom leaves the page aria-hidden once a
    // form dialog is unmounted, which no browser does, so the region is found from its text here; the
    // e2e walk finds it by its role in Chromium.)
    const sentences = await screen.findByText('1 address was added to the suppressions. 1 line was not added:');
    const status = sentences.closest<HTMLElement>('[role="status"]')!;
    expect(status).toBeTruthy();
    expect(within(status).getByText(/Line 2: nonsense \(Invalid email address\)/)).toBeTruthy();
    expect(
      within(status)
        .getByText(/Line 2: nonsense/)
        .closest('ul')!
        .getAttribute('aria-label'),
    ).toBe('Lines not added');
    await user.click(within(status).getByRole('button', { name: 'Dismiss', hidden: true }));
    expect(status.textContent).toBe('');

    await user.click(screen.getByRole('button', { name: 'Add addresses', hidden: true }));
    await user.type(await screen.findByRole('textbox', { name: /Addresses/ }), 'b@example.org{enter}c@example.org');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await within(status).findByText('2 addresses were added to the suppressions.')).toBeTruthy();
    expect(status.querySelector('ul')).toBeNull();
  });
});

describe('an erased person on the list (issue 24)', () => {
  it('shows the hash with the reason erased, and offers no removal', async () => {
    const hash = `erased:${'a'.repeat(64)}@example.net`;
    const api = createFakeApi({ suppressions: [suppression(7, hash, 'ERASED'), suppression(8, 'quit@example.org', 'UNSUBSCRIBE')] });
    renderApp('/audiences/suppressions', api);
    const table = await screen.findByRole('table', { name: 'Suppressions' });
    // Newest first: the unsubscribe, then the erased key (its long address cut short on screen).
    const row = within(table).getAllByRole('row')[2]!;
    expect(within(row).getAllByRole('cell')[0]!.textContent).toMatch(/^erased:a+/);
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('erased');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove quit@example.org' })).toBeTruthy();
  });
});
