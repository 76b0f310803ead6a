/**
 * Follow up (an addition to the spec) from the campaign list and in the editor: the row menu offers it
 * for sent campaigns only, the dialog sends the member's choice and opens the new draft; the editor
 * names a follow-up's recipients with their count instead of the audience picker, and its preview,
 * validation and send confirmation count the same people.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, campaign, contact, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const sent = campaign({ id: 2, name: 'Autumn news', status: 'SENT', audienceId: 8, audienceName: 'Donors', jobsSent: 10 });
const draft = campaign({ id: 1, name: 'Spring appeal' });

async function openMenu(user: ReturnType<typeof renderApp>['user'], name: string) {
  await user.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
}

describe('Follow up from the campaign list', () => {
  it('is offered for a sent campaign only, and opens the new draft for the choice made', async () => {
    const api = createFakeApi({ campaigns: [draft, sent] });
    const { user, notify, location } = renderApp('/campaigns', api);
    await openMenu(user, 'Spring appeal');
    expect(screen.queryByRole('menuitem', { name: 'Follow up' })).toBeNull();
    await user.keyboard('{Escape}');

    await openMenu(user, 'Autumn news');
    await user.click(await screen.findByRole('menuitem', { name: 'Follow up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Follow up' });
    expect((within(dialog).getByRole('radio', { name: 'People who did not open it' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: 'People who did not click in it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create follow-up' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns/edit/3'));
    expect(api.calls('POST', '/api/campaigns/2/follow-up').map((call) => call.body)).toEqual([{ recipients: 'NOT_CLICKED' }]);
    expect(notify).toHaveBeenCalledWith('success', 'Follow-up of Autumn news created');
  });

  it("keeps the dialog open with the server's reason when it fails", async () => {
    const api = createFakeApi({ campaigns: [sent] });
    api.on('POST', /follow-up$/, () => api.json(409, { message: 'Only a sent campaign can be followed up.' }));
    const { user, location } = renderApp('/campaigns', api);
    await openMenu(user, 'Autumn news');
    await user.click(await screen.findByRole('menuitem', { name: 'Follow up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Follow up' });
    await user.click(within(dialog).getByRole('button', { name: 'Create follow-up' }));
    expect(await within(dialog).findByText('Only a sent campaign can be followed up.')).toBeTruthy();
    expect(location().pathname).toBe('/campaigns');
    expect((within(dialog).getByRole('button', { name: 'Create follow-up' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('A follow-up in the editor', () => {
  const donors = audience({ id: 8, name: 'Donors', numberOfContacts: 50, numberOfContactsWithErrors: 5 });
  const letter = template({ id: 4, name: 'Letter', html: '<p>Dear {{firstName}}</p>' });
  const followUp = campaign({
    id: 3,
    name: 'Autumn news (follow-up)',
    audienceId: 8,
    audienceName: 'Donors',
    templateId: 4,
    template: { id: 4, name: 'Letter', html: letter.html, preview: null },
    fromName: 'News',
    fromEmail: 'news@example.org',
    subject: 'Autumn',
    followUp: { campaignId: 2, campaignName: 'Autumn news', recipients: 'NOT_OPENED', recipientCount: 2 },
  });
  const everyone = [
    contact(11, 'ann@example.org', { firstName: 'Ann' }),
    contact(12, 'bob@example.org'),
    contact(13, 'cy@example.org', { firstName: 'Cy' }),
  ];
  const recipients = [everyone[0]!, everyone[1]!];

  it('names the recipients with their count, without the audience picker', async () => {
    const api = createFakeApi({ campaigns: [followUp], audiences: [donors], templates: [letter] });
    const { user } = renderApp('/campaigns/edit/3', api);
    // The draft is complete, so its sections open closed: the To heading sums it up.
    expect(await screen.findByText('People who did not open "Autumn news" (2 contacts)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /To.*did not open/ }));
    expect(await screen.findByText('People who did not open "Autumn news"')).toBeTruthy();
    expect(screen.getByText(/^2 contacts/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Donors' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /audience/ })).toBeNull();
  });

  it('previews and validates its recipients only, and confirms the send with their count', async () => {
    const api = createFakeApi({
      campaigns: [followUp],
      audiences: [donors],
      templates: [letter],
      contacts: { 8: everyone },
      recipients: { 3: recipients },
    });
    const { user } = renderApp('/campaigns/edit/3', api);
    await user.click(await screen.findByRole('button', { name: 'Preview Campaign' }));
    const preview = await screen.findByRole('dialog', { name: 'Preview Campaign' });
    // bob is listed, and named again by the validation: he lacks the first name the email uses.
    await waitFor(() => expect(within(preview).getAllByText('bob@example.org')).toHaveLength(2));
    expect(within(preview).getAllByText('ann@example.org').length).toBeGreaterThan(0);
    expect(within(preview).queryByText('cy@example.org')).toBeNull();
    expect(within(preview).getByText('People who did not open "Autumn news" (2)')).toBeTruthy();
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/validate-campaign')).toHaveLength(1));
    expect(api.calls('POST', '/api/campaigns/validate-campaign')[0]!.body).toMatchObject({ campaignId: 3, audienceId: 8 });
    expect(api.calls('GET', '/api/audiences/8/contacts')).toHaveLength(0);
    expect(api.calls('GET', '/api/audiences/8/suppressed-contacts')).toHaveLength(0);
    await user.click(within(preview).getByRole('button', { name: 'Close preview' }));

    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(
      within(confirm).getByText('This campaign will be sent to 2 contacts: People who did not open "Autumn news". Send it now?'),
    ).toBeTruthy();
    // The audience's invalid contacts are not this campaign's: no invalid-contacts warning came first.
    expect(screen.queryByRole('alertdialog', { name: 'Invalid contacts' })).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/3/send')).toHaveLength(1));
  });
});
