/**
 * 'Follow up' on a report (an addition to the spec): offered for a SENT campaign only; the choice goes
 * to the API and the new draft opens in the campaigns remote's editor.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const stats = { jobsSent: 10, jobsFailed: 1, totalContactsCount: 12 };

describe('Follow up on the report', () => {
  it('is not offered while the campaign is sending', async () => {
    const api = createFakeApi({ campaigns: [campaign({ id: 5, name: 'Busy news', status: 'SENDING' })], stats: { 5: stats } });
    renderApp('/campaigns/reports/5', api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Busy news' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Follow up' })).toBeNull();
  });

  it('creates the follow-up for the choice made and opens it in the editor', async () => {
    const api = createFakeApi({ campaigns: [campaign({ id: 5, name: 'Autumn news', status: 'SENT' })], stats: { 5: stats } });
    api.on('POST', /follow-up$/, () => api.json(201, campaign({ id: 9, name: 'Autumn news (follow-up)' })));
    const { user, notify, location } = renderApp('/campaigns/reports/5', api);
    await user.click(await screen.findByRole('button', { name: 'Follow up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Follow up' });
    await user.click(within(dialog).getByRole('button', { name: 'Create follow-up' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns/edit/9'));
    expect(api.calls('POST', '/api/campaigns/5/follow-up').map((call) => call.body)).toEqual([{ recipients: 'NOT_OPENED' }]);
    expect(notify).toHaveBeenCalledWith('success', 'Follow-up of Autumn news created');
  });
});
