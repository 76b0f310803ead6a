import { act, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@mailroom/ui';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi, type Stats } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const html = '<!DOCTYPE html><html><body><h1>Spring</h1><script>parent.alert(1)</script></body></html>';

function setup(
  overrides: Parameters<typeof campaign>[0] | null = null,
  stats: Stats = { jobsSent: 10, jobsFailed: 1, totalContactsCount: 12 },
) {
  const api = createFakeApi({ campaigns: [campaign({ id: 5, name: 'April newsletter', html, ...overrides })], stats: { 5: stats } });
  return { api, ...renderApp('/campaigns/reports/5', api, { fakeTimers: vi.isFakeTimers() }) };
}

describe('Campaign report: Overview', () => {
  it("reads 'Sent to: {jobsSent} / {totalContactsCount} Recipients ({jobsFailed} failed)' from the stats", async () => {
    setup();
    expect(await screen.findByText('Sent to: 10 / 12 Recipients (1 failed)')).toBeTruthy();
  });

  it('shows the audience (linked), the subject and the delivered date', async () => {
    setup();
    const tab = await screen.findByRole('tabpanel', { name: 'Overview' });
    const audience = within(tab).getByRole('link', { name: 'Newsletter readers' });
    expect(audience.getAttribute('href')).toBe('/audiences/3');
    expect(within(tab).getByText('Spring news', { selector: 'dd' })).toBeTruthy();
    expect(within(tab).getByText(formatDateTime('2024-04-02T09:15:30.000Z'))).toBeTruthy();
  });

  it('previews the sent html only inside a frame with an empty sandbox', async () => {
    setup();
    const frame = (await screen.findByTitle('Campaign email')) as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(html);
    expect(frame.hasAttribute('src')).toBe(false);
  });

  it('says so when there is no html, audience or delivery date', async () => {
    setup({ id: 5, name: 'April newsletter', html: null, audienceId: null, audienceName: null, deliveryDate: null, subject: null });
    expect(await screen.findByText('This campaign has no content to preview.')).toBeTruthy();
    expect(screen.queryByTitle('Campaign email')).toBeNull();
    expect(screen.getByText('Not delivered yet')).toBeTruthy();
    expect(screen.getAllByText('None')).toHaveLength(2);
  });

  it('while SENDING: a Sending chip and the progress (jobsSent + jobsFailed) / contactCount', async () => {
    setup({ id: 5, name: 'April newsletter', status: 'SENDING', contactCount: 20 }, { jobsSent: 4, jobsFailed: 1, totalContactsCount: 20 });
    expect(await screen.findByText('Sending')).toBeTruthy();
    const progress = screen.getByRole('progressbar', { name: 'Sending progress' });
    expect(progress.getAttribute('aria-valuenow')).toBe('0.25');
    expect(screen.getByText('25%')).toBeTruthy();
  });

  it('no progress once sent: a Sent chip', async () => {
    setup();
    expect(await screen.findByText('Sent')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText('Sending')).toBeNull();
  });

  it("an ERROR campaign's chip carries its error message", async () => {
    setup({ id: 5, name: 'April newsletter', status: 'ERROR', errorMessage: 'Daily sending quota exceeded' });
    const chip = await screen.findByText('Error');
    expect(chip.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(chip.getAttribute('aria-describedby')!)?.textContent).toBe('Daily sending quota exceeded');
  });

  it('refreshes the campaign and its stats every 5 s while SENDING, and stops once sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setup(
      { id: 5, name: 'April newsletter', status: 'SENDING', contactCount: 10 },
      { jobsSent: 2, jobsFailed: 0, totalContactsCount: 10 },
    );
    await screen.findByText('Sent to: 2 / 10 Recipients (0 failed)');
    const statCalls = () => api.calls('GET', '/api/reports/5/overview-stat').length;
    const campaignCalls = () => api.calls('GET', '/api/campaigns/5').length;
    const [stats0, campaign0] = [statCalls(), campaignCalls()];

    api.stats.set(5, { jobsSent: 6, jobsFailed: 1, totalContactsCount: 10 });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText('Sent to: 6 / 10 Recipients (1 failed)')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Sending progress' }).getAttribute('aria-valuenow')).toBe('0.7');
    expect(statCalls()).toBe(stats0 + 1);
    expect(campaignCalls()).toBe(campaign0 + 1);

    api.campaigns.set(5, { ...api.campaigns.get(5)!, status: 'SENT' });
    api.stats.set(5, { jobsSent: 9, jobsFailed: 1, totalContactsCount: 10 });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText('Sent')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    const settled = statCalls();
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(statCalls()).toBe(settled);
  });
});
