import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const newsletter = audience({
  id: 1,
  name: 'Newsletter',
  numberOfContacts: 120,
  source: 'CSV',
  createdAt: new Date(2024, 2, 4, 15, 20, 30).toISOString(),
});
const volunteers = audience({ id: 2, name: 'Volunteers', isImporting: true });
const donors = audience({ id: 3, name: 'Donors', numberOfContacts: 8, numberOfContactsWithErrors: 2 });

describe('Audiences list', () => {
  it('shows the audiences with their columns, import spinner and error icon', async () => {
    const api = createFakeApi({ audiences: [newsletter, volunteers, donors] });
    renderApp('/audiences', api);
    const table = await screen.findByRole('table', { name: 'Audiences' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Name', 'Contacts', 'Imported From', 'Created At', 'Actions']);
    const row = within(table).getByText('Newsletter').closest('tr')!;
    expect(within(row).getByText('120')).toBeTruthy();
    expect(within(row).getByText('CSV')).toBeTruthy();
    expect(within(row).getByText('2024-03-04 15:20:30 PM')).toBeTruthy();
    expect(within(within(table).getByText('Volunteers').closest('tr')!).getByRole('progressbar')).toBeTruthy();
    expect(within(table).getByRole('img', { name: '2 contacts with errors' })).toBeTruthy();
    expect(api.calls('GET', '/api/audiences')[0]!.query.toString()).toBe('page=1&limit=10');
  });

  it('reads page, limit and name from the query string', async () => {
    const api = createFakeApi({ audiences: [newsletter, volunteers, donors] });
    renderApp('/audiences?page=2&limit=1&name=o', api);
    await screen.findByText('Donors');
    expect(api.calls('GET', '/api/audiences')[0]!.query.toString()).toBe('page=2&limit=1&name=o');
    expect((screen.getByLabelText('Search by name') as HTMLInputElement).value).toBe('o');
    expect(screen.getByText('2–2 of 2')).toBeTruthy();
  });

  it('searches on Enter and on the Search button, going back to page 1', async () => {
    const api = createFakeApi({ audiences: [newsletter, volunteers, donors] });
    const { user, location } = renderApp('/audiences?page=2&limit=2', api);
    await screen.findByText('Donors');

    await user.type(screen.getByLabelText('Search by name'), 'news{Enter}');
    await waitFor(() => expect(location().search).toBe('?page=1&limit=2&name=news'));
    expect(await screen.findByText('Newsletter')).toBeTruthy();
    expect(screen.queryByText('Donors')).toBeNull();
    expect(api.calls('GET', '/api/audiences').at(-1)!.query.get('name')).toBe('news');

    await user.clear(screen.getByLabelText('Search by name'));
    await user.type(screen.getByLabelText('Search by name'), ' don ');
    expect(location().search).toBe('?page=1&limit=2&name=news');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(location().search).toBe('?page=1&limit=2&name=don'));
    expect(await screen.findByText('Donors')).toBeTruthy();
  });

  it('pages with the footer controls and resets the page when the page size changes', async () => {
    const many = Array.from({ length: 23 }, (_, i) => audience({ id: i + 1, name: `Audience ${i + 1}` }));
    const api = createFakeApi({ audiences: many });
    const { user, location } = renderApp('/audiences', api);
    await screen.findByText('1–10 of 23');
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    await waitFor(() => expect(location().search).toBe('?page=3'));
    expect(await screen.findByText('21–23 of 23')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await waitFor(() => expect(location().search).toBe('?page=1&limit=25'));
  });

  it('shows an empty state', async () => {
    renderApp('/audiences', createFakeApi());
    expect(await screen.findByText('No audiences yet')).toBeTruthy();
  });

  it('opens an audience with View', async () => {
    const api = createFakeApi({ audiences: [newsletter] });
    const { user, location } = renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'View Newsletter' }));
    await waitFor(() => expect(location().pathname).toBe('/audiences/1'));
  });

  it('refetches every 3 s while an audience on the page is importing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = createFakeApi({ audiences: [newsletter, volunteers] });
    renderApp('/audiences', api, { fakeTimers: true });
    await screen.findByText('Volunteers');
    const before = api.calls('GET', '/api/audiences').length;
    api.audiences.get(2)!.isImporting = false;
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(api.calls('GET', '/api/audiences').length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(api.calls('GET', '/api/audiences').length).toBe(before + 1);
  });
});

describe('Create Audience dialog', () => {
  it('keeps Create disabled while the name is blank and says so', async () => {
    const api = createFakeApi();
    const { user } = renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'Create Audience' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    const input = within(dialog).getByLabelText(/Audience name/);
    await user.type(input, '   ');
    expect(within(dialog).getByText('Fill your audience name')).toBeTruthy();
    expect(create.disabled).toBe(true);
    await user.keyboard('{Enter}');
    expect(api.calls('POST', '/api/audiences')).toHaveLength(0);
  });

  it('sends the trimmed name and opens the new audience', async () => {
    const api = createFakeApi();
    const { user, location } = renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'Create Audience' }));
    await user.type(within(await screen.findByRole('dialog')).getByLabelText(/Audience name/), '  Members 2025  {Enter}');
    await waitFor(() => expect(location().pathname).toBe('/audiences/1'));
    expect(api.calls('POST', '/api/audiences')[0]!.body).toEqual({ name: 'Members 2025' });
    // By text, not role: Fluent's modal hides the page from assistive technology for a moment
    // after a dialog that lived under 250 ms (faster than any person types) is removed.
    expect(await screen.findByText('Members 2025', { selector: 'h1' })).toBeTruthy();
  });

  it("shows the server's message inside the dialog on failure", async () => {
    const api = createFakeApi();
    api.on('POST', /^\/api\/audiences$/, () => api.json(400, { message: 'name must be shorter' }));
    const { user, location } = renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'Create Audience' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Audience name/), 'Members');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('name must be shorter')).toBeTruthy();
    expect(location().pathname).toBe('/audiences');
  });
});

describe('Rename and Delete', () => {
  it('marks a blank new name as an error and does nothing, then renames', async () => {
    const api = createFakeApi({ audiences: [newsletter] });
    const { user, notify } = renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'More actions for Newsletter' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(/New name/);
    await user.clear(input);
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('PUT', '/api/audiences/1')).toHaveLength(0);

    await user.type(input, ' Weekly news ');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PUT', '/api/audiences/1')[0]!.body).toEqual({ name: 'Weekly news' });
    expect(notify).toHaveBeenCalledWith('success', 'Audience name updated successfully');
    expect(await screen.findByText('Weekly news')).toBeTruthy();
  });

  it('deletes after confirmation', async () => {
    const api = createFakeApi({ audiences: [newsletter, donors] });
    const { user } = renderApp('/audiences', api);
    await user.click(await screen.findByRole('button', { name: 'More actions for Donors' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(api.calls('DELETE', '/api/audiences/3')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Donors')).toBeNull());
    expect(api.calls('DELETE', '/api/audiences/3')).toHaveLength(1);
  });
});
