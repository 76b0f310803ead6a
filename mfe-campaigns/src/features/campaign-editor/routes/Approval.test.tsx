/**
 * Send approval in the editor and the list (issue 27): a campaign that needs approval offers 'Request approval'
 * instead of Send and Schedule, then waits read-only; its requester may withdraw the request, another member
 * approves it (after the same count as Send) or declines it with a reason; `/campaigns?status=awaiting` lists the
 * waiting ones. The signed-in member of these tests is mia@example.org.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { audience, campaign, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

const newsletter = audience({ id: 7, name: 'Newsletter', numberOfContacts: 10 });
const welcome = template({ id: 3, name: 'Welcome', html: '<p>Hi</p>' });
const ready = {
  audienceId: 7,
  audienceName: 'Newsletter',
  numberOfContacts: 10,
  fromName: 'Mia Member',
  fromEmail: 'news@example.org',
  subject: 'Autumn news',
  templateId: 3,
  template: { id: 3, name: 'Welcome', html: welcome.html, preview: null },
};
const waitingFor = (requestedByEmail: string, at: string | null = null) => ({
  status: 'AWAITING_APPROVAL' as const,
  approvalRequired: true,
  approval: {
    id: 1,
    state: 'WAITING' as const,
    requestedByEmail,
    requestedAt: '2026-11-28T09:00:00.000Z',
    at,
    answeredByEmail: null,
    answeredAt: null,
    reason: null,
  },
});

describe('a campaign that needs approval', () => {
  it('offers Request approval instead of Send and Schedule, and waits read-only once requested', async () => {
    const api = createFakeApi({
      campaigns: [campaign({ id: 2, name: 'Autumn appeal', ...ready, approvalRequired: true, approval: null })],
      audiences: [newsletter],
      templates: [welcome],
    });
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Request approval' }));
    expect(screen.getByRole('button', { name: 'Request approval to schedule' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    const dialog = await screen.findByRole('alertdialog', { name: 'Request approval' });
    expect(
      within(dialog).getByText(/Once another member approves it, this campaign will be sent to 10 contacts of “Newsletter”/),
    ).toBeTruthy();
    // Saved first, as Send saves, and nothing requested before the confirmation.
    expect(api.calls('PUT', '/api/campaigns/2')).toHaveLength(1);
    expect(api.calls('POST', '/api/campaigns/2/approval-request')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Request approval' }));
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/2/approval-request')).toHaveLength(1));
    expect(api.calls('POST', '/api/campaigns/2/send')).toHaveLength(0);
    expect(notify).toHaveBeenCalledWith('success', 'Approval of Autumn appeal is requested; another member can approve it');
    // Read-only, waiting: its requester can only withdraw the request.
    expect(await screen.findByText(/asked on .* for approval to send it now/)).toBeTruthy();
    // Once the confirmation has closed (the page behind it is hidden from assistive technology until then).
    expect(await screen.findByRole('button', { name: 'Withdraw request' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Campaign name' }) as HTMLInputElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Withdraw request' }));
    await waitFor(() => expect(api.calls('DELETE', '/api/campaigns/2/approval-request')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Request approval' })).toBeTruthy();
  });

  it("another member's request: approved after the same count as Send, then back to the list", async () => {
    const api = createFakeApi({
      campaigns: [campaign({ id: 2, name: 'Autumn appeal', ...ready, ...waitingFor('sam@example.org') })],
      audiences: [newsletter],
      templates: [welcome],
    });
    const { user, location, notify } = renderApp('/campaigns/edit/2', api);
    expect(await screen.findByText(/sam@example.org asked on/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Withdraw request' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve campaign' });
    expect(within(dialog).getByText('This campaign will be sent to 10 contacts of “Newsletter”. Approve and send it now?')).toBeTruthy();
    // The reviewer changes nothing: no save.
    expect(api.calls('PUT', '/api/campaigns/2')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve and send' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    expect(api.calls('POST', '/api/campaigns/2/approve')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'Approved: The campaign is being sent.');
  });

  it('is declined only with a reason, which is sent', async () => {
    const api = createFakeApi({
      campaigns: [campaign({ id: 2, name: 'Autumn appeal', ...ready, ...waitingFor('sam@example.org') })],
      audiences: [newsletter],
      templates: [welcome],
    });
    const { user, location } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline request' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(await within(dialog).findByText('Say why the request is declined')).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/2/decline')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Wrong audience');
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    expect(api.calls('POST', '/api/campaigns/2/decline').at(-1)!.body).toEqual({ reason: 'Wrong audience' });
  });

  it('says why a declined request was declined', async () => {
    const api = createFakeApi({
      campaigns: [
        campaign({
          id: 2,
          name: 'Autumn appeal',
          ...ready,
          approvalRequired: true,
          approval: {
            ...waitingFor('mia@example.org').approval,
            state: 'DECLINED',
            answeredByEmail: 'sam@example.org',
            reason: 'Too early',
          },
        }),
      ],
      audiences: [newsletter],
      templates: [welcome],
    });
    renderApp('/campaigns/edit/2', api);
    expect(await screen.findByText(/sam@example.org declined the approval request: “Too early”/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Request approval' })).toBeTruthy();
  });
});

describe('the list of waiting requests', () => {
  it('/campaigns?status=awaiting lists only the campaigns awaiting approval, to review in the editor', async () => {
    const api = createFakeApi({
      campaigns: [
        campaign({ id: 2, name: 'Autumn appeal', ...ready, ...waitingFor('sam@example.org'), updatedByEmail: 'sam@example.org' }),
        campaign({ id: 3, name: 'Spring appeal' }),
      ],
    });
    const { user, location } = renderApp('/campaigns?status=awaiting', api);
    expect(await screen.findByText('Autumn appeal')).toBeTruthy();
    expect(screen.queryByText('Spring appeal')).toBeNull();
    expect(screen.getByRole('button', { name: 'Awaiting approval' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('Requested by sam@example.org')).toBeTruthy();
    expect(api.calls('GET', '/api/campaigns').at(-1)!.query.get('status')).toBe('AWAITING_APPROVAL');
    expect(screen.getByRole('link', { name: 'Review Autumn appeal' }).getAttribute('href')).toBe('/campaigns/edit/2');
    await user.click(screen.getByRole('button', { name: 'All campaigns' }));
    expect(await screen.findByText('Spring appeal')).toBeTruthy();
    expect(location().search).toBe('');
  });
});
