import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportDomain, ReportOverview, ReportTimeline } from '@mailroom/api-client';
import { formatDateTime } from '@mailroom/ui';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi, domain, figures, type Stats } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The Overview's details as [term, value] pairs, in order. */
const terms = (tab: HTMLElement) => [...tab.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);

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

  it('shows the audience (linked), the subject and when sending started (deliveryDate), named Started', async () => {
    setup();
    const tab = await screen.findByRole('tabpanel', { name: 'Overview' });
    const audience = within(tab).getByRole('link', { name: 'Newsletter readers' });
    expect(audience.getAttribute('href')).toBe('/audiences/3');
    expect(within(tab).getByText('Spring news', { selector: 'dd' })).toBeTruthy();
    // 'Delivered' is the figure of SES's delivery events; deliveryDate is the time sending started.
    expect(terms(tab)).toEqual([
      ['Audience', 'Newsletter readers'],
      ['Subject', 'Spring news'],
      ['Started', formatDateTime('2024-04-02T09:15:30.000Z')],
    ]);
  });

  it('shows the segment it was sent to, with its rule in words as it was at send time (issue 26)', async () => {
    setup({
      id: 5,
      name: 'April newsletter',
      segment: {
        id: null,
        name: 'Ann at example.org',
        rule: {
          combinator: 'and',
          rules: [
            { field: 'fields.firstName', operator: 'contains', value: 'Ann' },
            { field: 'email.domain', operator: 'equals', value: 'example.org' },
          ],
        },
      },
    });
    const tab = await screen.findByRole('tabpanel', { name: 'Overview' });
    expect(terms(tab)).toEqual([
      ['Audience', 'Newsletter readers'],
      ['Segment', 'Ann at example.org: contacts who match firstName contains Ann AND domain is example.org'],
      ['Subject', 'Spring news'],
      ['Started', formatDateTime('2024-04-02T09:15:30.000Z')],
    ]);
  });

  it.each([
    ['2024-04-02T09:15:30.000Z', '2024-04-02T09:15:30.450Z', 'on time'],
    ['2024-04-02T09:15:30.000Z', '2024-04-02T09:15:31.000Z', '1 second after the planned time'],
    ['2024-04-02T09:15:00.000Z', '2024-04-02T09:15:42.900Z', '42 seconds after the planned time'],
    ['2024-04-02T09:14:30.000Z', '2024-04-02T09:15:30.000Z', '1 minute after the planned time'],
    ['2024-04-02T07:10:00.000Z', '2024-04-02T09:15:30.000Z', '2 hours 5 minutes after the planned time'],
    ['2024-04-02T08:15:30.000Z', '2024-04-02T09:15:30.000Z', '1 hour after the planned time'],
  ])('a campaign planned for %s that started at %s reads how late it started: %s', async (scheduledAt, deliveryDate, delay) => {
    setup({ id: 5, name: 'April newsletter', scheduledAt, deliveryDate });
    const tab = await screen.findByRole('tabpanel', { name: 'Overview' });
    expect(await screen.findByText(`${formatDateTime(deliveryDate)} (${delay})`)).toBeTruthy();
    expect(terms(tab).map(([term]) => term)).toEqual(['Audience', 'Subject', 'Planned', 'Started']);
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
    expect(screen.getByText('Not started yet')).toBeTruthy();
    expect(screen.getAllByText('None')).toHaveLength(2);
  });

  it('while SENDING: a Sending chip and the progress (jobsSent + jobsFailed) / contactCount', async () => {
    setup({ id: 5, name: 'April newsletter', status: 'SENDING', contactCount: 20 }, { jobsSent: 4, jobsFailed: 1, totalContactsCount: 20 });
    expect(await screen.findByText('Sending')).toBeTruthy();
    const progress = screen.getByRole('progressbar', { name: 'Sending progress' });
    expect(progress.getAttribute('aria-valuenow')).toBe('0.25');
    expect(screen.getByText('25%')).toBeTruthy();
  });

  it("a campaign paused at the daily quota says 'Paused: daily quota reached, resumes at HH:mm' in local time, with its progress", async () => {
    // 23:05 in the test machine's own zone.
    const quotaPausedUntil = new Date(2026, 10, 29, 23, 5).toISOString();
    setup(
      { id: 5, name: 'April newsletter', status: 'SENDING', contactCount: 20, quotaPausedUntil },
      { jobsSent: 4, jobsFailed: 1, totalContactsCount: 20 },
    );
    expect(await screen.findByText('Paused: daily quota reached, resumes at 23:05')).toBeTruthy();
    expect(screen.queryByText('Sending')).toBeNull();
    expect(screen.getByRole('progressbar', { name: 'Sending progress' }).getAttribute('aria-valuenow')).toBe('0.25');
  });

  it("a campaign held by the warm-up plan says 'Paused: warm-up volume for today reached, resumes at HH:mm'", async () => {
    const quotaPausedUntil = new Date(2026, 10, 30, 1, 0).toISOString();
    setup(
      { id: 5, name: 'April newsletter', status: 'SENDING', contactCount: 20, quotaPausedUntil, pausedFor: 'WARM_UP' },
      { jobsSent: 5, jobsFailed: 0, totalContactsCount: 20 },
    );
    expect(await screen.findByText('Paused: warm-up volume for today reached, resumes at 01:00')).toBeTruthy();
    expect(screen.queryByText(/daily quota/)).toBeNull();
  });

  it('no progress once sent: a Sent chip', async () => {
    setup();
    expect(await screen.findByText('Sent')).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Sending progress' })).toBeNull();
    expect(screen.queryByText('Sending')).toBeNull();
  });

  it('a scheduled campaign reads Scheduled, not Draft, as the campaigns list says', async () => {
    setup({ id: 5, name: 'April newsletter', status: 'SCHEDULED', scheduledAt: '2030-01-01T09:00:00.000Z', deliveryDate: null });
    const tab = await screen.findByRole('tabpanel', { name: 'Overview' });
    expect(within(tab).getByText('Scheduled', { exact: true })).toBeTruthy();
    expect(within(tab).queryByText('Draft', { exact: true })).toBeNull();
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
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Sending progress' })).toBeNull());
    const settled = statCalls();
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(statCalls()).toBe(settled);
  });
});

const STARTED = '2024-04-02T09:00:00.000Z';

function setupOutcomes(
  outcomes: { figures?: ReportOverview; timeline?: ReportTimeline; domains?: ReportDomain[] },
  overrides: Partial<Parameters<typeof campaign>[0]> = {},
) {
  const api = createFakeApi({
    campaigns: [campaign({ id: 5, name: 'April newsletter', html, ...overrides })],
    stats: { 5: { jobsSent: 200, jobsFailed: 2, totalContactsCount: 202 } },
    ...(outcomes.figures ? { figures: { 5: outcomes.figures } } : {}),
    ...(outcomes.timeline ? { timelines: { 5: outcomes.timeline } } : {}),
    ...(outcomes.domains ? { domains: { 5: outcomes.domains } } : {}),
  });
  return { api, ...renderApp('/campaigns/reports/5', api, { fakeTimers: vi.isFakeTimers() }) };
}

const sentFigures = figures({
  sent: 200,
  delivered: 190,
  bouncedHard: 6,
  bouncedSoft: 4,
  complaints: 1,
  unsubscribed: 3,
  openedHuman: 80,
  openedMachine: 40,
  clickedHuman: 20,
  clickedMachine: 10,
  failed: 2,
  unknown: 5,
  totalContactsCount: 202,
  sendingStartedAt: STARTED,
});

const hour = (index: number, counts: Partial<ReportTimeline['buckets'][number]>) => ({
  start: new Date(Date.parse(STARTED) + index * 3_600_000).toISOString(),
  hours: 1 as const,
  sent: 0,
  opensHuman: 0,
  opensMachine: 0,
  clicksHuman: 0,
  clicksMachine: 0,
  ...counts,
});

/** The tile of one figure: its name, rate and the count it comes from. */
async function tile(label: string) {
  const list = await screen.findByRole('list', { name: 'Figures' });
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.startsWith(label));
  if (!item) throw new Error(`no tile ${label}`);
  return item.textContent;
}

describe('Campaign report: Overview figures, timeline and domains (an addition to the spec)', () => {
  it('shows each figure with its rate over the mails sent, people and machines apart, click-to-open over people who opened', async () => {
    setupOutcomes({ figures: sentFigures });
    expect(await screen.findByText('Sent to: 200 / 202 Recipients (2 failed)')).toBeTruthy();
    expect(await tile('Delivered')).toBe('Delivered95.0%190 of 200 sent');
    expect(await tile('Bounced (hard)')).toBe('Bounced (hard)3.0%6 of 200 sent');
    expect(await tile('Bounced (soft)')).toBe('Bounced (soft)2.0%4 of 200 sent');
    expect(await tile('Complaints')).toBe('Complaints0.5%1 of 200 sent');
    expect(await tile('Unsubscribed')).toBe('Unsubscribed1.5%3 of 200 sent');
    expect(await tile('Opened by people')).toBe('Opened by people40.0%80 of 200 sent');
    expect(await tile('Opened by machines')).toBe('Opened by machines20.0%40 of 200 sent');
    expect(await tile('Clicked by people')).toBe('Clicked by people10.0%20 of 200 sent');
    expect(await tile('Clicked by machines')).toBe('Clicked by machines5.0%10 of 200 sent');
    expect(await tile('Click-to-open (people)')).toBe('Click-to-open (people)25.0%20 of 80 who opened');
    expect(await tile('Failed')).toBe('Failed1.0%2 of 200 sent');
    expect(await tile('Unknown')).toBe('Unknown2.5%5 of 200 sent');
    expect(screen.queryByText('No opens yet.')).toBeNull();
  });

  it('a campaign not sent yet says so plainly, with no figures, timeline or domains', async () => {
    setupOutcomes({}, { status: 'DRAFT', deliveryDate: null });
    expect(await screen.findByText('Not sent yet: the figures, the timeline and the domains appear once sending starts.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Figures' })).toBeNull();
    expect(await screen.findByText('Nothing sent yet: the timeline starts when sending does.')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Show as table' })).toBeNull();
    expect(await screen.findByText('No mails sent yet.')).toBeTruthy();
  });

  it('a sent campaign nobody opened yet says so, and still shows its figures and the send progress', async () => {
    setupOutcomes({
      figures: figures({ sent: 50, delivered: 48, totalContactsCount: 50, sendingStartedAt: STARTED }),
      timeline: { sendingStartedAt: STARTED, buckets: [hour(0, { sent: 50 })] },
    });
    expect(await screen.findByText('No opens yet.')).toBeTruthy();
    expect(await screen.findByText('No opens or clicks yet.')).toBeTruthy();
    expect(await tile('Delivered')).toBe('Delivered96.0%48 of 50 sent');
    expect(await tile('Click-to-open (people)')).toBe('Click-to-open (people)0.0%0 of 0 who opened');
  });

  it("the timeline's figures as a table: hourly then daily buckets, the sent so far, people and machines apart", async () => {
    const user = userEvent.setup();
    const day = {
      start: '2024-04-05T00:00:00.000Z',
      hours: 24 as const,
      sent: 0,
      opensHuman: 3,
      opensMachine: 0,
      clicksHuman: 1,
      clicksMachine: 0,
    };
    setupOutcomes({
      figures: sentFigures,
      timeline: {
        sendingStartedAt: STARTED,
        buckets: [
          hour(0, { sent: 120, opensHuman: 30, opensMachine: 35, clicksHuman: 5, clicksMachine: 9 }),
          hour(1, { sent: 80, opensHuman: 12 }),
          day,
        ],
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Show as table' });
    expect(screen.queryByRole('table', { name: 'Timeline' })).toBeNull();
    await user.click(toggle);
    const table = await screen.findByRole('table', { name: 'Timeline' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .getAllByRole(row.querySelector('th') ? 'columnheader' : 'cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Time', 'Mails sent', 'Sent so far', 'Opens by people', 'Opens by machines', 'Clicks by people', 'Clicks by machines'],
      [formatDateTime(STARTED, 'YYYY-MM-DD HH:mm'), '120', '120', '30', '35', '5', '9'],
      [formatDateTime('2024-04-02T10:00:00.000Z', 'YYYY-MM-DD HH:mm'), '80', '200', '12', '0', '0', '0'],
      [formatDateTime(day.start, 'YYYY-MM-DD'), '0', '200', '3', '0', '1', '0'],
    ]);
    await user.click(toggle);
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Timeline' })).toBeNull());
  });

  it("draws the 'Sent so far' line of a single hourly bucket (a line needs two points: it runs to the hour's end)", async () => {
    setupOutcomes({
      figures: figures({ sent: 50, delivered: 48, totalContactsCount: 50, sendingStartedAt: STARTED }),
      timeline: { sendingStartedAt: STARTED, buckets: [hour(0, { sent: 50, opensHuman: 4 })] },
    });
    const root = await waitFor(() => {
      const chart = document.querySelector<HTMLElement>('[data-chart="timeline"]');
      if (!chart) throw new Error('no chart yet');
      return chart;
    });
    await waitFor(() => expect(root.querySelectorAll('g[aria-label^="Sent so far"]')).toHaveLength(2));
    // One line per chart (opens, clicks), from the bucket's start to its end, both at the 50 sent.
    for (const series of root.querySelectorAll('g[aria-label^="Sent so far"]')) {
      expect(series.getAttribute('aria-label')).toBe('Sent so far, line with 2 data points.');
      expect(series.querySelectorAll('line')).toHaveLength(1);
    }
  });

  it("domains: 'Other' for the rest, people's open and click rates, a flagged domain marked in words", async () => {
    setupOutcomes({
      figures: sentFigures,
      domains: [
        domain({
          domain: 'gmail.com',
          sent: 120,
          delivered: 118,
          bouncedHard: 1,
          bouncedSoft: 1,
          openedHuman: 60,
          clickedHuman: 15,
          limitWaits: 31,
          deferrals: 7,
          sesThrottles: 2,
        }),
        domain({
          domain: 'outlook.com',
          sent: 60,
          delivered: 52,
          bouncedHard: 5,
          bouncedSoft: 3,
          complaints: 1,
          openedHuman: 12,
          clickedHuman: 3,
          flagged: true,
        }),
        domain({ domain: null, sent: 20, delivered: 20, openedHuman: 8, clickedHuman: 2, sesThrottles: 4 }),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Deliverability by domain' });
    const cells = (name: string) => {
      const row = within(table)
        .getAllByRole('row')
        .find((r) => r.querySelector('td')?.textContent?.startsWith(name));
      return row
        ? within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent)
        : null;
    };
    // What held each domain back (issue 28): waits for its limit, deferrals to a later slot, SES's 429s.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent)
        .slice(-3),
    ).toEqual(['Waited for domain limit', 'Deferred', 'Throttled by SES']);
    expect(cells('gmail.com')).toEqual(['gmail.com', '120', '118', '1', '1', '0', '50.0%', '12.5%', '31', '7', '2']);
    expect(cells('outlook.com')).toEqual([
      'outlook.com High bounces or complaints',
      '60',
      '52',
      '5',
      '3',
      '1',
      '20.0%',
      '5.0%',
      '0',
      '0',
      '0',
    ]);
    expect(cells('Other')).toEqual(['Other', '20', '20', '0', '0', '0', '40.0%', '10.0%', '0', '0', '4']);
    expect(within(table).getAllByText('High bounces or complaints')).toHaveLength(1);
  });

  it('refreshes the figures, the timeline and the domains every 5 s while SENDING, and stops once sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setupOutcomes(
      { figures: figures({ sent: 10, delivered: 4, sendingStartedAt: STARTED }), domains: [domain({ domain: 'gmail.com', sent: 10 })] },
      { status: 'SENDING', contactCount: 100 },
    );
    expect(await tile('Delivered')).toBe('Delivered40.0%4 of 10 sent');
    const calls = () => ['overview', 'timeline', 'domains'].map((name) => api.calls('GET', `/api/reports/5/${name}`).length);
    const before = calls();

    api.overviews.set(5, figures({ sent: 40, delivered: 30, sendingStartedAt: STARTED }));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(async () => expect(await tile('Delivered')).toBe('Delivered75.0%30 of 40 sent'));
    expect(calls()).toEqual(before.map((count) => count + 1));

    api.campaigns.set(5, { ...api.campaigns.get(5)!, status: 'SENT' });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText('Sent')).toBeTruthy();
    const settled = calls();
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(calls()).toEqual(settled);
  });
});
