import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, contact, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const newsletter = audience({
  id: 7,
  name: 'Newsletter',
  headers: ['Username', 'Full Name'],
  source: 'CSV',
  numberOfContacts: 12,
  numberOfContactsWithErrors: 1,
});
const people = Array.from({ length: 12 }, (_, i) =>
  contact(i + 1, `person${i + 1}@example.org`, { Username: `person${i + 1}`, 'Full Name': `Person ${i + 1}` }),
);
people[2] = contact(3, 'broken', { Username: 'broken', 'Full Name': 'Broken Row' }, 'Invalid email address');

const setup = (options: { fakeTimers?: boolean } = {}, overrides: Partial<typeof newsletter> = {}) => {
  const api = createFakeApi({ audiences: [{ ...newsletter, ...overrides }], contacts: { 7: people } });
  return { api, ...renderApp('/audiences/7', api, options) };
};
const contactCalls = (api: ReturnType<typeof createFakeApi>) => api.calls('GET', '/api/audiences/7/contacts');

describe('Audience detail: sign-ups waiting for confirmation', () => {
  it('shows them apart from the contacts, and nothing when there are none', async () => {
    setup({}, { pendingCount: 4 });
    expect(await screen.findByText('4 waiting for confirmation')).toBeTruthy();
    expect(screen.getByText(/^12 contacts, 1 with errors/)).toBeTruthy();
  });

  it('says nothing of confirmation without pending sign-ups', async () => {
    setup({}, { pendingCount: 0 });
    await screen.findByText(/^12 contacts, 1 with errors/);
    expect(screen.queryByText(/waiting for confirmation/)).toBeNull();
  });
});

describe('Audience detail: title', () => {
  it('edits the name: Enter saves the trimmed name', async () => {
    const { api, user, notify } = setup();
    await screen.findByRole('heading', { name: 'Newsletter' });
    await user.click(screen.getByRole('button', { name: 'Edit audience name' }));
    const input = screen.getByRole('textbox', { name: 'Audience name' });
    expect(document.activeElement).toBe(input);
    await user.clear(input);
    await user.type(input, '  Weekly news  {Enter}');
    expect(await screen.findByRole('heading', { name: 'Weekly news' })).toBeTruthy();
    expect(api.calls('PUT', '/api/audiences/7')[0]!.body).toEqual({ name: 'Weekly news' });
    expect(notify).toHaveBeenCalledWith('success', 'Audience name updated successfully');
  });

  it('disables save for a blank name; Escape and the cancel icon leave the name as it was', async () => {
    const { api, user } = setup();
    await screen.findByRole('heading', { name: 'Newsletter' });
    await user.click(screen.getByRole('button', { name: 'Edit audience name' }));
    const input = screen.getByRole('textbox', { name: 'Audience name' });
    await user.clear(input);
    await user.type(input, '   ');
    expect((screen.getByRole('button', { name: 'Save audience name' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Enter}');
    expect(api.calls('PUT', '/api/audiences/7')).toHaveLength(0);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('heading', { name: 'Newsletter' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit audience name' }));
    await user.type(screen.getByRole('textbox', { name: 'Audience name' }), ' changed');
    await user.click(screen.getByRole('button', { name: 'Cancel editing' }));
    expect(screen.getByRole('heading', { name: 'Newsletter' })).toBeTruthy();
    expect(api.calls('PUT', '/api/audiences/7')).toHaveLength(0);
  });

  it('saves with the save icon and shows the fallback message when the server gives none', async () => {
    const { api, user, notify } = setup();
    api.on('PUT', /^\/api\/audiences\/7$/, () => new Response(null, { status: 500 }));
    await screen.findByRole('heading', { name: 'Newsletter' });
    await user.click(screen.getByRole('button', { name: 'Edit audience name' }));
    await user.type(screen.getByRole('textbox', { name: 'Audience name' }), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save audience name' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to update audience name'));
    expect(api.calls('PUT', '/api/audiences/7')[0]!.body).toEqual({ name: 'Newsletter 2' });
    expect(screen.getByRole('textbox', { name: 'Audience name' })).toBeTruthy();
  });

  it("reads 'Audience not found' when there is no such audience", async () => {
    renderApp('/audiences/99', createFakeApi());
    expect(await screen.findByRole('heading', { name: 'Audience not found' })).toBeTruthy();
  });
});

describe('Audience detail: contacts', () => {
  it('shows Status, email and one column per header, with the error message on the error icon', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Contacts' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Status', 'email', 'Username', 'Full Name']);
    expect(within(table).getByRole('img', { name: 'Invalid email address' })).toBeTruthy();
    expect(within(table).getAllByRole('img', { name: 'Valid' })).toHaveLength(9);
    expect(within(table).getByText('Person 2')).toBeTruthy();
  });

  it('shows a suppressed contact as suppressed, with the reason, instead of valid', async () => {
    const api = createFakeApi({
      audiences: [{ ...newsletter, numberOfContacts: 3, numberOfContactsWithErrors: 0 }],
      contacts: {
        7: [
          contact(1, 'quit@example.org', {}, null, 'UNSUBSCRIBE'),
          contact(2, 'gone@example.org', {}, null, 'HARD_BOUNCE'),
          contact(3, 'ok@example.org'),
        ],
      },
    });
    renderApp('/audiences/7', api);
    const table = await screen.findByRole('table', { name: 'Contacts' });
    const statuses = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]!);
    expect(statuses[0]!.textContent).toBe('Suppressed (unsubscribed)');
    expect(statuses[1]!.textContent).toBe('Suppressed (hard bounce)');
    expect(within(statuses[2]!).getByRole('img', { name: 'Valid' })).toBeTruthy();
    expect(within(table).getAllByRole('img', { name: 'Valid' })).toHaveLength(1);
  });

  it('debounces the email search by 500 ms, trims it and goes back to page 1', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, user } = setup({ fakeTimers: true });
    await screen.findByText('1–10 of 12');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–12 of 12');
    expect(contactCalls(api).at(-1)!.query.get('page')).toBe('2');

    const before = contactCalls(api).length;
    await user.type(screen.getByLabelText('Search by email'), ' person1 ');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(contactCalls(api)).toHaveLength(before);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(contactCalls(api)).toHaveLength(before + 1));
    const search = contactCalls(api).at(-1)!.query;
    expect(search.get('email')).toBe('person1');
    expect(search.get('page')).toBe('1');

    // Blank (after trimming) means no filter at all.
    await user.clear(screen.getByLabelText('Search by email'));
    await user.type(screen.getByLabelText('Search by email'), '   ');
    await act(() => vi.advanceTimersByTimeAsync(500));
    await waitFor(() => expect(contactCalls(api).at(-1)!.query.has('email')).toBe(false));
  });

  it('maps the Status filter to hasError', async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    expect(contactCalls(api)[0]!.query.has('hasError')).toBe(false);
    await user.selectOptions(screen.getByLabelText('Status'), 'Errors');
    await waitFor(() => expect(contactCalls(api).at(-1)!.query.get('hasError')).toBe('true'));
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Status'), 'Valid');
    await waitFor(() => expect(contactCalls(api).at(-1)!.query.get('hasError')).toBe('false'));
    await user.selectOptions(screen.getByLabelText('Status'), 'All');
    await waitFor(() => expect(contactCalls(api).at(-1)!.query.has('hasError')).toBe(false));
  });

  it('offers page sizes 5, 10, 25 and All; All asks for numberOfContacts and goes back to page 1', async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    const sizes = screen.getByLabelText('Rows per page');
    expect(
      within(sizes)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['5', '10', '25', 'All']);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–12 of 12');
    await user.selectOptions(sizes, 'All');
    await waitFor(() => expect(contactCalls(api).at(-1)!.query.toString()).toBe('page=1&limit=12'));
    expect(await screen.findByText('1–12 of 12')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('exports the contacts under the name from Content-Disposition', async () => {
    const createObjectURL = vi.fn(() => 'blob:contacts');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('Newsletter.csv');
      expect(this.href).toBe('blob:contacts');
    });
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Options' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export Contacts' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(api.calls('POST', '/api/audiences/7/download')).toHaveLength(1);
    click.mockRestore();
  });

  it('links Import Contacts to the wizard', async () => {
    const { user, location } = setup({}, { source: null, numberOfContacts: 0, numberOfContactsWithErrors: 0 });
    await user.click(await screen.findByRole('button', { name: 'Options' }));
    const item = await screen.findByRole('menuitem', { name: 'Import Contacts' });
    expect(item.getAttribute('href')).toBe('/audiences/7/import');
    await user.click(item);
    await waitFor(() => expect(location().pathname).toBe('/audiences/7/import'));
  });

  it('offers no import once a contact was added by hand (an import numbers an empty audience)', async () => {
    const { user } = setup({}, { source: null, numberOfContacts: 1, numberOfContactsWithErrors: 0 });
    await user.click(await screen.findByRole('button', { name: 'Options' }));
    await screen.findByRole('menuitem', { name: 'Export Contacts' });
    expect(screen.queryByRole('menuitem', { name: 'Import Contacts' })).toBeNull();
  });

  it('offers no import once the audience has a source', async () => {
    const { user } = setup({}, { source: 'CSV' });
    await user.click(await screen.findByRole('button', { name: 'Options' }));
    expect(await screen.findByRole('menuitem', { name: 'Export Contacts' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Import Contacts' })).toBeNull();
  });
});

describe('Audience detail: import state', () => {
  it('while importing: banner, disabled menu entry, polling every 3 s, then the contacts reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, user } = setup({ fakeTimers: true }, { isImporting: true });
    expect(await screen.findByText(/Contacts are being imported in the background/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Options' }));
    const importing = await screen.findByRole('menuitem', { name: 'Import in Progress...' });
    expect(importing.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Escape}');

    await screen.findByText('1–10 of 12');
    const audienceCalls = () => api.calls('GET', '/api/audiences/7').length;
    const firstAudienceCalls = audienceCalls();
    const firstContactCalls = contactCalls(api).length;

    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(audienceCalls()).toBe(firstAudienceCalls + 1));
    expect(contactCalls(api)).toHaveLength(firstContactCalls);

    api.audiences.get(7)!.isImporting = false;
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(audienceCalls()).toBe(firstAudienceCalls + 2));
    await waitFor(() => expect(screen.queryByText(/Contacts are being imported in the background/)).toBeNull());
    await waitFor(() => expect(contactCalls(api)).toHaveLength(firstContactCalls + 1));

    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(audienceCalls()).toBe(firstAudienceCalls + 2);
  });

  it('reloads the contacts when the audience shows an import that ended unseen, its contacts read just before', async () => {
    const { api, user } = setup({}, { source: null, numberOfContacts: 0, numberOfContactsWithErrors: 0 });
    api.contacts.set(7, []);
    expect(await screen.findByText('No contacts yet')).toBeTruthy();
    const before = contactCalls(api).length;
    // The import lands; the next read of the audience (here the one a rename answers) shows it.
    Object.assign(api.audiences.get(7)!, { source: 'CSV', numberOfContacts: 12, numberOfContactsWithErrors: 1 });
    api.contacts.set(7, people);
    await user.click(screen.getByRole('button', { name: 'Edit audience name' }));
    await user.type(screen.getByRole('textbox', { name: 'Audience name' }), ' 2{Enter}');
    expect(await screen.findByText('1–10 of 12')).toBeTruthy();
    expect(contactCalls(api).length).toBe(before + 1);
  });

  it('while importing, the empty contacts area says they will appear when the import finishes, not how to import', async () => {
    const { api } = setup({}, { isImporting: true, source: null, numberOfContacts: 0, numberOfContactsWithErrors: 0 });
    api.contacts.set(7, []);
    expect(await screen.findByText(/Contacts are being imported in the background/)).toBeTruthy();
    expect(await screen.findByText('Contacts will appear here when the import finishes')).toBeTruthy();
    expect(screen.queryByText('No contacts yet')).toBeNull();
    expect(screen.queryByText('Import contacts from the Options menu.')).toBeNull();
  });

  it("shows the last import's error", async () => {
    setup({}, { importErrorMessage: 'The file has no email column' });
    expect(await screen.findByText('Import Error')).toBeTruthy();
    expect(screen.getByText('The file has no email column')).toBeTruthy();
  });
});
