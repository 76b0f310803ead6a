import { act, screen, waitFor, within } from '@testing-library/react';
import type { CampaignStatus, EmailPerformanceRow } from '@mailroom/api-client';
import { formatDateTime } from '@mailroom/ui';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi, row, type FakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const LONG_ERROR = 'Message rejected: Email address is not verified in this region';
const LONG_BOUNCE = 'smtp; 550 5.1.1 The email account that you tried to reach does not exist';

/** Twelve contacts: eight delivered, one failed, one not sent, one without an address, one hard bounce. */
const rows = [
  ...Array.from({ length: 8 }, (_, i) => row({ contactId: i + 1, clicked: i < 3, opened: i < 5, humanOpened: i < 3, humanClicked: i < 2 })),
  row({ contactId: 9, id: 1009, email: 'failed@example.org', status: 'FAILED', errorMessage: LONG_ERROR }),
  row({ contactId: 10, id: null, email: 'waiting@example.org', status: 'NOT_SENT' }),
  row({ contactId: 11, email: null, status: 'SENT_WAIT_ACK' }),
  row({
    contactId: 12,
    email: 'gone@example.org',
    status: 'SENT_WAIT_ACK',
    bounceType: 'HARD',
    bounceMessage: LONG_BOUNCE,
    bounceTime: '2024-04-02T10:00:00.000Z',
    complaintType: 'abuse',
    complaintTime: '2024-04-03T11:30:00.000Z',
  }),
];

function setup({
  fakeTimers = false,
  status = 'SENT',
  rowsOf5 = rows,
}: { fakeTimers?: boolean; status?: CampaignStatus; rowsOf5?: EmailPerformanceRow[] } = {}) {
  const api = createFakeApi({
    campaigns: [campaign({ id: 5, name: 'Spring news', status })],
    stats: { 5: { jobsSent: 11, jobsFailed: 1, totalContactsCount: 12 } },
    rows: { 5: rowsOf5 },
  });
  return { api, ...renderApp('/campaigns/reports/5?tab=email-performance', api, { fakeTimers }) };
}

const pageCalls = (api: FakeApi) => api.calls('GET', '/api/reports/5/email-performance');
const lastQuery = (api: FakeApi) => pageCalls(api).at(-1)!.query.toString();
const table = () => screen.findByRole('table', { name: 'Email performance' });
const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr')!;
/**
 * A button of the open confirm dialog, looked up afresh on every try: Fluent may replace the dialog's
 * element while it opens (a loaded machine shows it), so an element found once can go stale.
 */
const dialogButton = (title: string | undefined, name: string) =>
  waitFor(() => within(screen.getByRole('alertdialog', title ? { name: title } : {})).getByRole('button', { name }));

describe('Email performance: table', () => {
  it('asks for page 1 of 10 without filters and shows the ten columns', async () => {
    const { api } = setup();
    const grid = await table();
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Email',
      'Send Status',
      'Clicked',
      'Opened',
      'Bounce Type',
      'Bounce Message',
      'Bounce Time',
      'Complaint Type',
      'Complaint Time',
      'Error Message',
    ]);
    expect(lastQuery(api)).toBe('page=1&limit=10');
    expect(within(grid).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
  });

  it("shows each field: labels, Yes/No, 'None' without a bounce, dates, and 'N/A' without an email", async () => {
    const { user } = setup();
    await table();
    const first = await rowOf('contact1@example.org');
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['contact1@example.org', 'Sent successfully', 'Yes', 'Yes', 'None', '', '', '', '', '']);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    const bounced = await rowOf('gone@example.org');
    const cells = within(bounced).getAllByRole('cell');
    expect(cells[1]!.textContent).toBe('Sent (waiting Ack)');
    expect(cells[4]!.textContent).toBe('HARD');
    expect(cells[6]!.textContent).toBe(formatDateTime('2024-04-02T10:00:00.000Z'));
    expect(cells[7]!.textContent).toBe('abuse');
    expect(cells[8]!.textContent).toBe(formatDateTime('2024-04-03T11:30:00.000Z'));
    const noEmail = within(await table())
      .getAllByRole('row')
      .find((tr) => within(tr).queryAllByRole('cell')[0]?.textContent === 'N/A');
    expect(noEmail).toBeTruthy();
  });

  it('cuts messages longer than 30 characters and keeps the full text in a tooltip', async () => {
    const { user } = setup();
    const failed = await rowOf('failed@example.org');
    const cut = within(failed).getByText(`${LONG_ERROR.slice(0, 29)}…`);
    expect(cut.getAttribute('aria-label')).toBe(LONG_ERROR);
    expect(cut.tabIndex).toBe(0);
    await user.hover(cut);
    expect((await screen.findByRole('tooltip')).textContent).toBe(LONG_ERROR);
  });

  it("shows 'No data available' when nothing matches", async () => {
    const { user } = setup();
    await table();
    await user.selectOptions(screen.getByLabelText('Bounce Type'), 'Soft');
    const grid = await table();
    expect(await within(grid).findByText('No data available')).toBeTruthy();
    expect(within(grid).getByText('No data available').getAttribute('colspan')).toBe('10');
  });

  it('offers page sizes 5, 10, 25 and 50 from 10; a new size goes back to page 1', async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    const sizes = screen.getByLabelText('Rows per page') as HTMLSelectElement;
    expect(
      within(sizes)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['5', '10', '25', '50']);
    expect(sizes.value).toBe('10');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–12 of 12');
    expect(lastQuery(api)).toBe('page=2&limit=10');
    await user.selectOptions(sizes, '5');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=5'));
    expect(await screen.findByText('1–5 of 12')).toBeTruthy();
    await user.selectOptions(sizes, '50');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=50'));
    expect(await screen.findByText('1–12 of 12')).toBeTruthy();
  });
});

describe('Email performance: filters', () => {
  it('debounces the email search by 500 ms, trims it and goes back to page 1', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, user } = setup({ fakeTimers: true });
    await screen.findByText('1–10 of 12');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–12 of 12');

    const before = pageCalls(api).length;
    await user.type(screen.getByLabelText('Search Email'), ' FAILED@ ');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(pageCalls(api)).toHaveLength(before);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(pageCalls(api)).toHaveLength(before + 1));
    expect(lastQuery(api)).toBe('page=1&limit=10&email=FAILED%40');
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();

    await user.clear(screen.getByLabelText('Search Email'));
    await act(() => vi.advanceTimersByTimeAsync(500));
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10'));
  });

  it('sends each Send Status as sendStatus, All as nothing, and goes back to page 1', async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    const select = screen.getByLabelText('Send Status');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All', 'Failed', 'Sent (waiting Ack)', 'Sent successfully', 'NOT_SENT', 'Queued', 'Sending', 'Unknown']);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–12 of 12');
    for (const [label, value] of [
      ['Failed', 'FAILED'],
      ['Sent (waiting Ack)', 'SENT_WAIT_ACK'],
      ['Sent successfully', 'SENT_SUCCESS'],
    ]) {
      await user.selectOptions(select, label!);
      await waitFor(() => expect(lastQuery(api)).toBe(`page=1&limit=10&sendStatus=${value}`));
    }
    await user.selectOptions(select, 'All');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10'));
  });

  it('asks the server for NOT_SENT pages like any status, with the info alert under the filter', async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    expect(screen.queryByText(/Showing all NOT_SENT contacts/)).toBeNull();
    await user.selectOptions(screen.getByLabelText('Send Status'), 'NOT_SENT');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&sendStatus=NOT_SENT'));
    expect(screen.getByText('Showing all NOT_SENT contacts. This may take a moment to load all data.')).toBeTruthy();
    expect(await rowOf('waiting@example.org')).toBeTruthy();
    expect(pageCalls(api).every((call) => Number(call.query.get('limit')) <= 50)).toBe(true);
    await user.selectOptions(screen.getByLabelText('Send Status'), 'Failed');
    await waitFor(() => expect(screen.queryByText(/Showing all NOT_SENT contacts/)).toBeNull());
  });

  it('sends Bounce Type as bounceStatus, Clicked and Opened as true or false', async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    await user.selectOptions(screen.getByLabelText('Bounce Type'), 'Hard');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&bounceStatus=HARD'));
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Bounce Type'), 'All');

    await user.selectOptions(screen.getByLabelText('Clicked'), 'Yes');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&clicked=true'));
    expect(await screen.findByText('1–3 of 3')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Clicked'), 'No');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&clicked=false'));

    await user.selectOptions(screen.getByLabelText('Opened'), 'Yes');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&clicked=false&opened=true'));
    await user.selectOptions(screen.getByLabelText('Opened'), 'No');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&clicked=false&opened=false'));
    await user.selectOptions(screen.getByLabelText('Clicked'), 'All');
    await user.selectOptions(screen.getByLabelText('Opened'), 'All');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10'));
  });

  it("shows opens and clicks only machines made as 'Yes (machine)' (an addition to the spec)", async () => {
    setup();
    await table();
    const cells = async (email: string) => (await rowOf(email)).querySelectorAll('td');
    // Clicked, Opened: a person did both; a machine clicked, a person opened; machines only opened.
    expect([...(await cells('contact1@example.org'))].slice(2, 4).map((cell) => cell.textContent)).toEqual(['Yes', 'Yes']);
    expect([...(await cells('contact3@example.org'))].slice(2, 4).map((cell) => cell.textContent)).toEqual(['Yes (machine)', 'Yes']);
    expect([...(await cells('contact4@example.org'))].slice(2, 4).map((cell) => cell.textContent)).toEqual(['No', 'Yes (machine)']);
  });

  it("says why a 'Yes (machine)' is a machine's in a tooltip the keyboard reaches (an addition to the spec)", async () => {
    const { user } = setup({
      rowsOf5: [
        row({
          contactId: 1,
          email: 'scanned@example.org',
          clicked: true,
          opened: true,
          humanClicked: false,
          humanOpened: false,
          clickEvidence: ['scanner-burst'],
          openEvidence: ['apple-privacy-proxy', 'scanner-burst'],
        }),
        row({ contactId: 2, email: 'read@example.org', clicked: false, opened: true }),
      ],
    });
    const [clicked, opened] = [...(await rowOf('scanned@example.org')).querySelectorAll('td')].slice(2, 4);
    // Both are stops of the keyboard (tests/e2e/machine-evidence.spec.ts tabs to them in a browser, where
    // the tooltip shows on focus); each tooltip describes its verdict.
    const [clickedVerdict, openedVerdict] = [within(clicked!), within(opened!)].map((cell) => cell.getByText('Yes (machine)'));
    expect([clickedVerdict!.tabIndex, openedVerdict!.tabIndex]).toEqual([0, 0]);
    await user.hover(clickedVerdict!);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Why a machine: every link followed within seconds.');
    expect(clickedVerdict!.getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
    await user.unhover(clickedVerdict!);
    await user.hover(openedVerdict!);
    await waitFor(() =>
      expect(screen.getByRole('tooltip').textContent).toBe(
        "Why a machine: Apple's privacy proxy fetched the images; every link followed within seconds.",
      ),
    );
    // A person's verdict has nothing to explain: plain text, not a stop of the keyboard.
    const read = [...(await rowOf('read@example.org')).querySelectorAll('td')][3]!;
    expect(read.textContent).toBe('Yes');
    expect(read.querySelector('[tabindex]')).toBeNull();
  });

  it("sends 'Yes, by a person' as humanOpened and humanClicked (an addition to the spec)", async () => {
    const { api, user } = setup();
    await screen.findByText('1–10 of 12');
    await user.selectOptions(screen.getByLabelText('Opened'), 'Yes, by a person');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&humanOpened=true'));
    expect(await screen.findByText('1–3 of 3')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Clicked'), 'Yes, by a person');
    await waitFor(() => expect(lastQuery(api)).toBe('page=1&limit=10&humanClicked=true&humanOpened=true'));
    expect(await screen.findByText('1–2 of 2')).toBeTruthy();
  });
});

describe('Email performance: sending actions', () => {
  it('retries a failed row with its retry icon and toasts the server message', async () => {
    const { api, user, notify } = setup();
    const failed = await rowOf('failed@example.org');
    expect(within(failed).queryByRole('button', { name: 'Send email to this contact' })).toBeNull();
    const before = pageCalls(api).length;
    await user.click(within(failed).getByRole('button', { name: 'Retry sending this failed email' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Job 1009 queued for retry'));
    expect(api.calls('POST', '/api/reports/5/retry-job/1009')).toHaveLength(1);
    // The report is refreshed: rows and counters.
    await waitFor(() => expect(pageCalls(api).length).toBeGreaterThan(before));
  });

  it("a failed retry toasts the server's message, or 'Failed to retry job'", async () => {
    const { api, user, notify } = setup();
    let answer = api.json(409, { message: 'The job is not FAILED' });
    api.on('POST', /retry-job/, () => answer);
    const failed = await rowOf('failed@example.org');
    await user.click(within(failed).getByRole('button', { name: 'Retry sending this failed email' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'The job is not FAILED'));
    answer = new Response(null, { status: 500 });
    await user.click(within(failed).getByRole('button', { name: 'Retry sending this failed email' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to retry job'));
  });

  it('sends to a NOT_SENT contact with its send icon', async () => {
    const { api, user, notify } = setup();
    const waiting = await rowOf('waiting@example.org');
    expect(within(waiting).queryByRole('button', { name: 'Retry sending this failed email' })).toBeNull();
    await user.click(within(waiting).getByRole('button', { name: 'Send email to this contact' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Contact 10 queued for sending'));
    expect(api.calls('POST', '/api/reports/5/send-to-contact/10')).toHaveLength(1);

    api.on('POST', /send-to-contact/, () => new Response(null, { status: 500 }));
    await user.click(within(waiting).getByRole('button', { name: 'Send email to this contact' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to send to contact'));
  });

  it('offers no action on delivered rows', async () => {
    setup();
    const delivered = await rowOf('contact1@example.org');
    expect(within(delivered).queryByRole('button')).toBeNull();
  });

  // Each dialog is opened once per test: re-opening a Fluent dialog in the same jsdom render right after
  // closing one leaves the new surface aria-hidden there (tabster's modal bookkeeping), which the
  // accessible queries rightly refuse to see.
  describe.each([
    {
      button: 'Retry All Failed',
      title: 'Retry All Failed Jobs',
      confirm: 'Retry All',
      path: '/api/reports/5/retry-all-failed-jobs',
      success: '1 failed queued',
      failure: 'Failed to retry failed jobs',
    },
    {
      button: 'Send to all NOT_SENT contacts',
      title: 'Send to NOT_SENT Contacts',
      confirm: 'Send to NOT_SENT',
      path: '/api/reports/5/send-to-not-sent',
      success: '1 NOT_SENT queued, 0 suppressed skipped',
      failure: 'Failed to send to NOT_SENT contacts',
    },
  ])("'$button'", ({ button, title, confirm, path, success, failure }) => {
    it(`asks '${title}' first; Cancel sends nothing`, async () => {
      const { api, user } = setup();
      await table();
      await user.click(screen.getByRole('button', { name: button }));
      await user.click(await dialogButton(title, 'Cancel'));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(api.calls('POST', path)).toHaveLength(0);
    });

    it(`'${confirm}' queues and toasts the server's message`, async () => {
      const { api, user, notify } = setup();
      await table();
      await user.click(screen.getByRole('button', { name: button }));
      await user.click(await dialogButton(title, confirm));
      await waitFor(() => expect(notify).toHaveBeenCalledWith('success', success));
      expect(api.calls('POST', path)).toHaveLength(1);
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    });

    it(`a failure toasts '${failure}'`, async () => {
      const { api, user, notify } = setup();
      api.on('POST', new RegExp(path.split('/').at(-1)!), () => new Response(null, { status: 500 }));
      await table();
      await user.click(screen.getByRole('button', { name: button }));
      await user.click(await dialogButton(title, confirm));
      await waitFor(() => expect(notify).toHaveBeenCalledWith('error', failure));
    });
  });
});

/** Contacts a send skips for good: NOT_SENT rows whose address is suppressed, one per reason. */
const suppressed = [
  row({ contactId: 20, id: null, email: 'quit@example.org', status: 'NOT_SENT', suppressionReason: 'UNSUBSCRIBE' }),
  row({ contactId: 21, id: null, email: 'bounced@example.org', status: 'NOT_SENT', suppressionReason: 'HARD_BOUNCE' }),
  row({ contactId: 22, id: null, email: 'angry@example.org', status: 'NOT_SENT', suppressionReason: 'COMPLAINT' }),
];

describe('Email performance: suppressed contacts', () => {
  it("shows a suppressed NOT_SENT contact as 'Suppressed' with the reason, and offers no send action for it", async () => {
    setup({ rowsOf5: [row({ contactId: 10, id: null, email: 'waiting@example.org', status: 'NOT_SENT' }), ...suppressed] });
    for (const [email, label] of [
      ['quit@example.org', 'Suppressed (unsubscribed)'],
      ['bounced@example.org', 'Suppressed (hard bounce)'],
      ['angry@example.org', 'Suppressed (complaint)'],
    ] as const) {
      const line = await rowOf(email);
      expect(within(line).getByText(label)).toBeTruthy();
      expect(within(line).queryByRole('button'), email).toBeNull();
    }
    const waiting = await rowOf('waiting@example.org');
    expect(within(waiting).getByText('NOT_SENT')).toBeTruthy();
    expect(within(waiting).getByRole('button', { name: 'Send email to this contact' })).toBeTruthy();
  });

  it("'Send to NOT_SENT' toasts how many it queued and how many suppressed contacts it skipped", async () => {
    const { api, user, notify } = setup({ rowsOf5: [...rows, ...suppressed] });
    await table();
    await user.click(screen.getByRole('button', { name: 'Send to all NOT_SENT contacts' }));
    await user.click(await dialogButton('Send to NOT_SENT Contacts', 'Send to NOT_SENT'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', '1 NOT_SENT queued, 3 suppressed skipped'));
    expect(api.calls('POST', '/api/reports/5/send-to-not-sent')).toHaveLength(1);
  });

  it("'Send to NOT_SENT' with only suppressed contacts left tells it as news, not as a success", async () => {
    const { user, notify } = setup({ rowsOf5: suppressed });
    await table();
    await user.click(screen.getByRole('button', { name: 'Send to all NOT_SENT contacts' }));
    await user.click(await dialogButton('Send to NOT_SENT Contacts', 'Send to NOT_SENT'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('info', '0 NOT_SENT queued, 3 suppressed skipped'));
    expect(notify).not.toHaveBeenCalledWith('success', expect.anything());
  });

  it("'Retry All' with nothing failed says there was nothing to retry", async () => {
    const { user, notify } = setup({ rowsOf5: rows.filter((r) => r.status !== 'FAILED') });
    await table();
    await user.click(screen.getByRole('button', { name: 'Retry All Failed' }));
    await user.click(await dialogButton('Retry All Failed Jobs', 'Retry All'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('info', 'Nothing to retry'));
    expect(notify).not.toHaveBeenCalledWith('success', expect.anything());
  });
});

describe('Email performance: export and failures', () => {
  it('exports the filtered rows as email-performance-{id}.xlsx', async () => {
    const createObjectURL = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const { api, user } = setup();
    await table();
    await user.selectOptions(screen.getByLabelText('Send Status'), 'Failed');
    await user.selectOptions(screen.getByLabelText('Opened'), 'No');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toEqual(['email-performance-5.xlsx']));
    expect(api.calls('GET', '/api/reports/5/export-email-performance')[0]!.query.toString()).toBe('sendStatus=FAILED&opened=false');
    click.mockRestore();
  });

  it("an export failure shows an error alert at the top of the tab: the server's message or the fallback", async () => {
    const { api, user } = setup();
    api.on('GET', /export-email-performance/, () => new Response(null, { status: 500 }));
    await table();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to export email performance data');
    const tab = screen.getByRole('tabpanel', { name: 'Email Performance' });
    expect(tab.firstElementChild!.contains(alert)).toBe(true);
  });

  it("a failed fetch shows an error alert with 'Failed to fetch email performance data' and a retry", async () => {
    const { api, user } = setup();
    let failing = true;
    api.on('GET', /email-performance$/, () => (failing ? new Response(null, { status: 500 }) : undefined));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch email performance data');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await table()).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('refreshes the rows every 5 s while the campaign is SENDING', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setup({ fakeTimers: true, status: 'SENDING' });
    await table();
    const before = pageCalls(api).length;
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(pageCalls(api).length).toBe(before + 1));
  });

  it('refreshes the rows of a sent campaign while they show a mail in transit, until it lands', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = setup({ fakeTimers: true });
    const list = api.rows.get(5)!;
    const retried = list.findIndex((r) => r.status === 'FAILED');
    // A retry read at once: the campaign already SENT, the mail still on its way.
    list[retried] = { ...list[retried]!, status: 'SENDING', errorMessage: null };
    expect(within(await rowOf('failed@example.org')).getAllByRole('cell')[1]!.textContent).toBe('Sending');
    const before = pageCalls(api).length;
    list[retried] = { ...list[retried]!, status: 'FAILED', errorMessage: LONG_ERROR };
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(pageCalls(api).length).toBe(before + 1));
    await waitFor(async () => expect(within(await rowOf('failed@example.org')).getAllByRole('cell')[1]!.textContent).toBe('Failed'));
    // Landed: no more refreshes.
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(pageCalls(api).length).toBe(before + 1);
  });
});
