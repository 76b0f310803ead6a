import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, person } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ann = () =>
  person('ann@example.net', {
    audiences: [
      {
        audienceId: 1,
        audienceName: 'Newsletter',
        contactId: 11,
        email: 'Ann@Example.net',
        errorMessage: null,
        data: { Name: 'Ann', City: 'Paris' },
        importedAt: '2024-03-04T10:20:30.000Z',
        importedBy: 'mia@example.org',
        addedHow: 'import',
      },
    ],
    mails: [
      {
        id: 5,
        campaignId: 3,
        campaignName: 'Spring news',
        subject: 'Hello',
        status: 'SENT_SUCCESS',
        createdAt: '2024-04-01T08:00:00.000Z',
        sentAt: '2024-04-01T08:00:01.000Z',
        bounceType: null,
        bounceTime: null,
        complaintType: null,
        complaintTime: null,
        opens: { people: 1, machines: 2 },
        clicks: { people: 0, machines: 1 },
      },
    ],
    totalMails: 1,
    opens: { people: 1, machines: 2 },
    clicks: { people: 0, machines: 1 },
    suppression: {
      reason: 'UNSUBSCRIBE',
      createdAt: '2024-04-02T08:00:00.000Z',
      campaignId: 3,
      campaignName: 'Spring news',
      addedBy: null,
    },
    consent: [
      { kind: 'import', at: '2024-03-04T10:20:30.000Z', by: 'mia@example.org', audienceId: 1, audienceName: 'Newsletter' },
      { kind: 'form', at: '2024-05-06T10:20:30.000Z', by: 'Tree news', audienceId: 2, audienceName: 'Trees' },
    ],
  });

async function find(user: ReturnType<typeof userEvent.setup>, email: string) {
  await user.type(await screen.findByRole('textbox', { name: /Email address/ }), email);
  await user.keyboard('{Enter}');
}

describe('People', () => {
  it('finds a person by the whole address, any case, and shows audiences, mails, hits, suppression and consent', async () => {
    const api = createFakeApi({ people: [ann()] });
    const user = userEvent.setup();
    renderApp('/people', api, { basePath: '/people' });
    expect(await screen.findByRole('heading', { level: 1, name: 'People' })).toBeTruthy();
    // Find waits for an address.
    expect((screen.getByRole('button', { name: 'Find' }) as HTMLButtonElement).disabled).toBe(true);
    await find(user, '  ANN@example.net ');
    expect(await screen.findByRole('heading', { level: 2, name: 'ann@example.net' })).toBeTruthy();
    // The address went as a query value, trimmed; never in a path.
    expect(api.calls('GET', '/api/people').map((call) => call.query.get('email'))).toEqual(['ANN@example.net']);

    const summary = screen.getByLabelText('Summary');
    expect(within(summary).getByText('1 by a person, 2 by machines')).toBeTruthy();
    expect(within(summary).getByText('0 by people, 1 by a machine')).toBeTruthy();
    expect(within(summary).getByText(/^Suppressed \(unsubscribed\) since .*, from Spring news$/)).toBeTruthy();

    const audiences = screen.getByRole('table', { name: 'Audiences' });
    expect(within(audiences).getAllByRole('row')[1]!.textContent).toContain('Name: Ann · City: Paris');
    const mails = screen.getByRole('table', { name: 'Mails' });
    const cells = within(within(mails).getAllByRole('row')[1]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      'Spring news',
      'Hello',
      'Sent successfully',
      expect.any(String),
      '1 by a person, 2 by machines',
      '0 by people, 1 by a machine',
      '—',
    ]);
    expect(screen.getByText(/^Imported into Newsletter on .* by mia@example\.org$/)).toBeTruthy();
    expect(screen.getByText(/^Signed up to Trees on .* through the form Tree news$/)).toBeTruthy();
  });

  it('says when nothing is held, and when an address was erased', async () => {
    const api = createFakeApi({ people: [person('gone@example.net', { erasedAt: '2024-05-06T07:08:09.000Z' })] });
    const user = userEvent.setup();
    renderApp('/people', api, { basePath: '/people' });
    await find(user, 'nobody@example.net');
    expect(await screen.findByText('Nothing is held about this address')).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /Email address/ }));
    await find(user, 'gone@example.net');
    expect(await screen.findByText(/^This address was erased on /)).toBeTruthy();
    // Erased already: nothing left to erase.
    expect(screen.queryByRole('button', { name: 'Erase' })).toBeNull();
  });

  it('downloads everything as one JSON file', async () => {
    const api = createFakeApi({ people: [ann()] });
    const createObjectURL = vi.fn(() => 'blob:person');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const user = userEvent.setup();
    renderApp('/people', api, { basePath: '/people' });
    await find(user, 'ann@example.net');
    await user.click(await screen.findByRole('button', { name: 'Export everything' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(api.calls('GET', '/api/people/export').map((call) => call.query.get('email'))).toEqual(['ann@example.net']);
  });

  it('erases after a dialog that names what goes, and says so when a mail is being sent', async () => {
    const api = createFakeApi({ people: [ann()] });
    api.on('POST', /^\/api\/people\/erase$/, () =>
      api.calls('POST', '/api/people/erase').length === 1
        ? api.json(409, { message: 'A mail to this address is being handed to Amazon SES right now.' })
        : undefined,
    );
    const user = userEvent.setup();
    const view = renderApp('/people', api, { basePath: '/people' });
    await find(user, 'ann@example.net');
    await user.click(await screen.findByRole('button', { name: 'Erase' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Erase ann@example.net?' });
    expect(dialog.textContent).toContain('1 contact in Newsletter, with every field, will be deleted.');
    expect(dialog.textContent).toContain('1 mail and 4 opens and clicks stay in the reports');
    expect(dialog.textContent).toContain('Its suppression (unsubscribed) is replaced by the hash');
    await user.click(within(dialog).getByRole('button', { name: 'Erase' }));
    // Refused: said in the dialog, which stays open to try again.
    expect(await within(dialog).findByText('A mail to this address is being handed to Amazon SES right now.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(view.notify).toHaveBeenCalledWith('success', 'ann@example.net was erased');
    expect(await screen.findByText(/^This address was erased on /)).toBeTruthy();
    expect(api.calls('POST', '/api/people/erase').map((call) => call.body)).toEqual([
      { email: 'ann@example.net' },
      { email: 'ann@example.net' },
    ]);
  });
});
