import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const spring = campaign({ id: 5, name: 'Spring news' });
const setup = (url = '/campaigns/reports/5') => {
  const api = createFakeApi({ campaigns: [spring], stats: { 5: { jobsSent: 10, jobsFailed: 1, totalContactsCount: 12 } } });
  return { api, ...renderApp(url, api) };
};

/** A response the test releases when it chooses. */
function held() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

describe('Campaign report', () => {
  it('shows a spinner until both the campaign and its overview stats have loaded', async () => {
    const api = createFakeApi({ campaigns: [spring], stats: { 5: { jobsSent: 10, jobsFailed: 1, totalContactsCount: 12 } } });
    const stats = held();
    api.on('GET', /overview-stat$/, async () => {
      await stats.gate;
      return undefined;
    });
    renderApp('/campaigns/reports/5', api);
    expect(await screen.findByText('Loading report...')).toBeTruthy();
    await waitFor(() => expect(api.calls('GET', '/api/campaigns/5')).toHaveLength(1));
    // The campaign has answered; the stats have not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('Loading report...')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Spring news' })).toBeNull();
    stats.release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring news' })).toBeTruthy();
    expect(screen.queryByText('Loading report...')).toBeNull();
  });

  it('shows the name and three tabs, Overview first; the open tab is kept in the address', async () => {
    const { user, location } = setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring news' })).toBeTruthy();
    const names = ['Overview', 'Email Performance', 'Click Performance'];
    expect(screen.getAllByRole('tab')).toEqual(names.map((name) => screen.getByRole('tab', { name })));
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Overview' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Click Performance' }));
    expect(await screen.findByRole('heading', { name: 'Links in this email' })).toBeTruthy();
    expect(location().search).toBe('?tab=click-performance');
    expect(screen.getByRole('tabpanel', { name: 'Click Performance' })).toBeTruthy();

    // A focused tab opens with Enter (the arrow keys that move between tabs are Fluent's, tested end to end).
    screen.getByRole('tab', { name: 'Email Performance' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByLabelText('Search Email')).toBeTruthy();
    expect(location().search).toBe('?tab=email-performance');
  });

  it('opens the tab named in the address', async () => {
    setup('/campaigns/reports/5?tab=email-performance');
    expect(await screen.findByLabelText('Search Email')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Email Performance' }).getAttribute('aria-selected')).toBe('true');
  });

  it("reads 'No Campaign Found!' for an unknown campaign, without a toast", async () => {
    const { notify } = setup('/campaigns/reports/99');
    expect(await screen.findByRole('heading', { name: 'No Campaign Found!' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Campaigns' }).getAttribute('href')).toBe('/campaigns');
    expect(notify).not.toHaveBeenCalled();
  });

  it("reads 'No Campaign Found!' for an id that is not a positive integer, and asks nothing", async () => {
    const { api } = setup('/campaigns/reports/5x');
    expect(await screen.findByRole('heading', { name: 'No Campaign Found!' })).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });

  it('shows the failure and a retry in place when the stats cannot be loaded', async () => {
    const { api, user, notify } = setup();
    let failing = true;
    api.on('GET', /overview-stat$/, () => (failing ? new Response(null, { status: 500 }) : undefined));
    expect(await screen.findByRole('heading', { name: 'No Campaign Found!' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Failed to load the report');
    expect(notify).not.toHaveBeenCalled();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring news' })).toBeTruthy();
  });

  it('sends a report address without an id, unknown to the app, to /audiences (docs/product.md, Routes and screens)', async () => {
    const { location } = setup('/campaigns/reports');
    await waitFor(() => expect(location().pathname).toBe('/audiences'));
  });
});
