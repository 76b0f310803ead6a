import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { describe, expect, it, vi } from 'vitest';
import { SENDS_MAIL } from '@mailroom/mf-contract';
import { ShellContext } from '../../ShellContext';
import { sampleQuota, stubQuotaFetch, testConfig } from '../../test/render';
import { QuotaBar, SENDING_AND_IMPORTS_PAUSED } from './QuotaBar';
import { cappedPercentage, formatPercentage, quotaLevel } from './quota';
import type { Role } from '@mailroom/mf-contract/roles';

function renderQuotaBar(queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } }), role?: Role) {
  return render(
    <FluentProvider theme={webLightTheme}>
      <QueryClientProvider client={queryClient}>
        <ShellContext.Provider
          value={{ config: testConfig, apiBaseUrl: 'http://api.test', getAccessToken: async () => 'token-1', loadRemote: vi.fn() }}
        >
          <QuotaBar role={role} />
        </ShellContext.Provider>
      </QueryClientProvider>
    </FluentProvider>,
  );
}

const region = () => screen.getByRole('region', { name: 'Daily sending quota' });

describe('quota colour and figures', () => {
  it.each([
    [0, 'success'],
    [69.99, 'success'],
    [70, 'warning'],
    [89.99, 'warning'],
    [90, 'error'],
    [120, 'error'],
  ] as const)('%s percent is %s', (percentage, level) => {
    expect(quotaLevel(percentage)).toBe(level);
  });

  it('shows the percentage with 2 decimals and caps the bar at 100', () => {
    expect(formatPercentage(12.3456)).toBe('12.35%');
    expect(formatPercentage(70)).toBe('70.00%');
    expect(cappedPercentage(123.45)).toBe(100);
    expect(cappedPercentage(55.5)).toBe(55.5);
  });
});

describe('QuotaBar', () => {
  it('reads "Loading quota information..." while the quota loads', () => {
    stubQuotaFetch('pending');
    renderQuotaBar();
    expect(within(region()).getByText('Loading quota information...')).toBeTruthy();
  });

  it("shows the member's role (issue 27)", async () => {
    stubQuotaFetch();
    renderQuotaBar(undefined, 'sender');
    expect(await within(region()).findByText('Your role: Sender')).toBeTruthy();
  });

  it('shows an error alert when the quota cannot be fetched', async () => {
    stubQuotaFetch(500);
    renderQuotaBar();
    const alert = await within(region()).findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch quota information');
  });

  it('shows sent and remaining chips, the percentage and the bar, with the bearer token', async () => {
    const fetchMock = stubQuotaFetch({ ...sampleQuota, emailsSent: 734, remainingSends: 266, quotaUsedPercentage: 73.4 });
    renderQuotaBar();
    expect(await screen.findByText('Sent: 734')).toBeTruthy();
    expect(screen.getByText('Remaining: 266')).toBeTruthy();
    expect(screen.getByText('73.40%')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Quota used' });
    expect(bar.getAttribute('aria-valuenow')).toBe('73.4');
    expect(bar.closest('[data-quota-level]')?.getAttribute('data-quota-level')).toBe('warning');

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://api.test/api/ses-quota');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer token-1');
  });

  it('caps the bar at 100 percent and turns it to error from 90 percent', async () => {
    stubQuotaFetch({ ...sampleQuota, quotaUsedPercentage: 123.456 });
    renderQuotaBar();
    expect(await screen.findByText('123.46%')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Quota used' });
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(bar.closest('[data-quota-level]')?.getAttribute('data-quota-level')).toBe('error');
  });

  it.each([
    [69.99, 'success'],
    [70, 'warning'],
    [89.99, 'warning'],
    [90, 'error'],
  ])('colours %s percent as %s', async (percentage, level) => {
    stubQuotaFetch({ ...sampleQuota, quotaUsedPercentage: percentage });
    renderQuotaBar();
    await screen.findByText(formatPercentage(percentage));
    expect(region().querySelector('[data-quota-level]')?.getAttribute('data-quota-level')).toBe(level);
  });

  it('says that sending and imports are paused while the broker is away, above the figures', async () => {
    stubQuotaFetch({ ...sampleQuota, emailsSent: 5, sendingAndImportsPaused: true });
    renderQuotaBar();
    const status = await within(region()).findByRole('status');
    expect(status.textContent).toBe(SENDING_AND_IMPORTS_PAUSED);
    expect(within(region()).getByText('Sent: 5')).toBeTruthy();
    expect(status.compareDocumentPosition(within(region()).getByText('Sent: 5')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says nothing of a pause when the broker is there', async () => {
    stubQuotaFetch({ ...sampleQuota, emailsSent: 6, sendingAndImportsPaused: false });
    renderQuotaBar();
    await screen.findByText('Sent: 6');
    expect(within(region()).queryByRole('status')).toBeNull();
    expect(screen.queryByText(SENDING_AND_IMPORTS_PAUSED)).toBeNull();
  });

  it('expands to the max send rate and the 24-hour limit', async () => {
    stubQuotaFetch({ ...sampleQuota, maxSendRate: 14, max24HourSend: 50000 });
    renderQuotaBar();
    const toggle = await screen.findByRole('button', { name: 'Quota details' });
    expect(screen.queryByText('Max send rate: 14 per second')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Max send rate: 14 per second')).toBeTruthy();
    expect(screen.getByText('24-hour limit: 50000')).toBeTruthy();
  });
});

describe('the quota after a send', () => {
  /** fetch answering the quota call with each of `answers` in turn (the last one again after that). */
  function stubQuotas(...answers: number[]) {
    let call = 0;
    const fetchMock = vi.fn(async () => {
      const emailsSent = answers[Math.min(call++, answers.length - 1)]!;
      return new Response(JSON.stringify({ ...sampleQuota, emailsSent }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  /** What a remote does: a mutation on the shared client, marked or not as sending mail. */
  const runMutation = (queryClient: QueryClient, meta?: Record<string, unknown>) =>
    queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: async () => 'queued', ...(meta ? { meta } : {}) })
      .execute(undefined);

  it('is read again as soon as a mutation that sends mail succeeds', async () => {
    const fetchMock = stubQuotas(0, 3);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderQuotaBar(queryClient);
    expect(await within(await screen.findByRole('region', { name: 'Daily sending quota' })).findByText('Sent: 0')).toBeTruthy();

    await act(() => runMutation(queryClient, { other: true }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await act(() => runMutation(queryClient, SENDS_MAIL));
    expect(await within(region()).findByText('Sent: 3')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is read again as soon as a mutation that sends mail fails (the broker may be away)', async () => {
    let call = 0;
    const fetchMock = vi.fn(async () => {
      const paused = call++ > 0;
      return new Response(JSON.stringify({ ...sampleQuota, sendingAndImportsPaused: paused }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderQuotaBar(queryClient);
    await within(await screen.findByRole('region', { name: 'Daily sending quota' })).findByText(`Sent: ${sampleQuota.emailsSent}`);
    expect(within(region()).queryByRole('status')).toBeNull();
    const refused = queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationFn: async () => Promise.reject(new Error('503')),
        meta: SENDS_MAIL,
      })
      .execute(undefined);
    await act(() => refused.catch(() => undefined));
    expect(await within(region()).findByRole('status')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is read every 30 s while sending is paused, every 5 minutes otherwise', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let paused = true;
      const fetchMock = vi.fn(async () => {
        return new Response(JSON.stringify({ ...sampleQuota, sendingAndImportsPaused: paused }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      });
      vi.stubGlobal('fetch', fetchMock);
      renderQuotaBar();
      expect(await within(await screen.findByRole('region', { name: 'Daily sending quota' })).findByRole('status')).toBeTruthy();
      paused = false;
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(fetchMock).toHaveBeenCalledTimes(2);
      await vi.waitFor(() => expect(within(region()).queryByRole('status')).toBeNull());
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is read every 5 s after a send until the count stands still for 30 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = stubQuotas(0, 1, 2, 2);
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      renderQuotaBar(queryClient);
      expect(await within(await screen.findByRole('region', { name: 'Daily sending quota' })).findByText('Sent: 0')).toBeTruthy();
      await act(() => runMutation(queryClient, SENDS_MAIL));
      expect(await within(region()).findByText('Sent: 1')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(await within(region()).findByText('Sent: 2')).toBeTruthy();
      // 2 stays: read every 5 s for 30 s more, then the idle 5-minute refresh again.
      await act(() => vi.advanceTimersByTimeAsync(35_000));
      const settled = fetchMock.mock.calls.length;
      expect(settled).toBeGreaterThanOrEqual(8);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(fetchMock).toHaveBeenCalledTimes(settled);
    } finally {
      vi.useRealTimers();
    }
  });
});
