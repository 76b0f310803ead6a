import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatInMemberZone } from '@mailroom/ui';
import { campaign, createFakeApi, deferred } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const draft = campaign({
  id: 1,
  name: 'Spring appeal',
  audienceId: 7,
  audienceName: 'Newsletter',
  updatedAt: new Date(2024, 4, 6, 9, 8, 7).toISOString(),
  updatedByEmail: 'mia@example.org',
});
const sent = campaign({
  id: 2,
  name: 'Winter news',
  status: 'SENT',
  audienceId: 8,
  audienceName: 'Donors',
  deliveryDate: new Date(2024, 0, 15, 14, 30, 0).toISOString(),
  updatedAt: new Date(2024, 0, 15, 14, 0, 0).toISOString(),
  contactCount: 42,
  jobsSent: 40,
  jobsFailed: 2,
  uniqueOpens: 17,
  uniqueClicks: 3,
  humanUniqueOpens: 12,
  humanUniqueClicks: 1,
});
const sending = campaign({
  id: 3,
  name: 'Autumn drive',
  status: 'SENDING',
  contactCount: 200,
  jobsSent: 45,
  jobsFailed: 5,
  deliveryDate: sent.deliveryDate,
});
const failed = campaign({
  id: 4,
  name: 'Summer gala',
  status: 'ERROR',
  errorMessage: 'Daily sending quota used up',
  contactCount: 10,
  jobsSent: 4,
  deliveryDate: sent.deliveryDate,
});

const row = (name: string) => screen.getByText(name, { selector: 'a' }).closest('tr')!;

describe('Campaigns list', () => {
  it('shows the title, Create Campaign, search and the columns', async () => {
    const api = createFakeApi({ campaigns: [draft, sent] });
    renderApp('/campaigns', api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaigns' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Campaign' })).toBeTruthy();
    expect(screen.getByLabelText('Search by name')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Status', 'Open rate', 'Click Rate', 'Actions']);
    expect(api.calls('GET', '/api/campaigns')[0]!.query.toString()).toBe('page=1&limit=10');
  });

  it('links a draft to its editor and shows its audience and last edit', async () => {
    const api = createFakeApi({ campaigns: [draft] });
    const { user, location } = renderApp('/campaigns', api);
    await screen.findByText('Spring appeal');
    const cells = within(row('Spring appeal'));
    expect(cells.getByRole('link', { name: 'Spring appeal' }).getAttribute('href')).toBe('/campaigns/edit/1');
    expect(cells.getByRole('link', { name: 'Newsletter' }).getAttribute('href')).toBe('/audiences/7');
    expect(cells.getByText(/^To:/)).toBeTruthy();
    expect(cells.getByText('Last edited: on 2024-05-06 09:08:07 AM by mia@example.org')).toBeTruthy();
    expect(cells.queryByText(/recipients/)).toBeNull();
    expect(cells.getByText('Draft')).toBeTruthy();
    await user.click(cells.getByRole('link', { name: 'Edit Spring appeal' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns/edit/1'));
  });

  it('links a sent campaign to its report with its sent date, recipients and rates', async () => {
    const api = createFakeApi({ campaigns: [sent] });
    renderApp('/campaigns', api);
    await screen.findByText('Winter news');
    const cells = within(row('Winter news'));
    expect(cells.getByRole('link', { name: 'Winter news' }).getAttribute('href')).toBe('/campaigns/reports/2');
    expect(cells.getByText('2024-01-15 14:30:00 PM')).toBeTruthy();
    expect(cells.getByText('40 / 42 recipients (2 failed)')).toBeTruthy();
    // 17 / 40 and 3 / 40.
    expect(cells.getByText('42.5%')).toBeTruthy();
    expect(cells.getByText('17 opens')).toBeTruthy();
    expect(cells.getByText('7.5%')).toBeTruthy();
    expect(cells.getByText('3 clicks')).toBeTruthy();
    // Without machines (an addition to the spec): 12 / 40 and 1 / 40, under each rate.
    expect(cells.getByText('30.0% by people')).toBeTruthy();
    expect(cells.getByText('2.5% by people')).toBeTruthy();
    // The reports remote owns that address; here the link is what can be checked.
    expect(cells.getByRole('link', { name: 'View report of Winter news' }).getAttribute('href')).toBe('/campaigns/reports/2');
  });

  it("names a campaign's segment after its audience (issue 26)", async () => {
    const segment = { id: 5, name: 'Over forty', rule: { combinator: 'and' as const, rules: [] } };
    const api = createFakeApi({ campaigns: [campaign({ ...draft, segment })] });
    renderApp('/campaigns', api);
    await screen.findByText('Spring appeal');
    const audience = within(row('Spring appeal')).getByRole('link', { name: 'Newsletter' });
    expect(audience.parentElement?.textContent).toBe('To: Newsletter – Over forty');
  });

  it('divides by 1 when nothing was sent', async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...draft, uniqueOpens: 1 })] });
    renderApp('/campaigns', api);
    await screen.findByText('Spring appeal');
    const cells = within(row('Spring appeal'));
    expect(cells.getByText('100.0%')).toBeTruthy();
    expect(cells.getByText('1 open')).toBeTruthy();
    expect(cells.getByText('0.0%')).toBeTruthy();
    expect(cells.getByText('0 clicks')).toBeTruthy();
    expect(cells.getAllByText('0.0% by people')).toHaveLength(2);
  });

  it('shows Sending with its progress, Sent and Error chips', async () => {
    const api = createFakeApi({ campaigns: [sending, sent, failed] });
    const { user } = renderApp('/campaigns', api);
    await screen.findByText('Autumn drive');
    // The progress bar's component is fetched when a campaign on the page is sending.
    const progress = await within(row('Autumn drive')).findByRole('progressbar', { name: 'Autumn drive: 25% sent' });
    expect(progress.getAttribute('aria-valuenow')).toBe('0.25');
    expect(within(row('Autumn drive')).getByText('Sending')).toBeTruthy();
    expect(within(row('Winter news')).getByText('Sent')).toBeTruthy();
    expect(within(row('Winter news')).queryByRole('button', { name: /Continue sending/ })).toBeNull();

    const error = within(row('Summer gala')).getByText('Error');
    await user.hover(error);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Daily sending quota used up');
    expect(within(row('Summer gala')).getByRole('button', { name: 'Continue sending Summer gala' })).toBeTruthy();
  });

  it('says a campaign paused at the daily quota resumes at a local time, and stops it after asking', async () => {
    // 06:40 in the test machine's own zone: the list shows local time.
    const until = new Date(2030, 5, 8, 6, 40).toISOString();
    const paused = campaign({ ...sending, id: 6, name: 'Paused news', quotaPausedUntil: until });
    const api = createFakeApi({ campaigns: [paused, sending] });
    const { user } = renderApp('/campaigns', api);
    await screen.findByText('Paused news');
    const cells = within(row('Paused news'));
    expect(cells.getByText('Paused: daily quota reached, resumes at 06:40')).toBeTruthy();
    expect(cells.queryByText('Sending')).toBeNull();
    // A campaign that is only sending says so, and offers no stop.
    expect(within(row('Autumn drive')).getByText('Sending')).toBeTruthy();
    expect(within(row('Autumn drive')).queryByRole('button', { name: /Stop sending/ })).toBeNull();

    await user.click(cells.getByRole('button', { name: 'Stop sending Paused news' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Stop Campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('POST', '/api/campaigns/6/stop')).toHaveLength(0);
    await user.click(await within(row('Paused news')).findByRole('button', { name: 'Stop sending Paused news' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Stop Campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Stop Sending' }));
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/6/stop')).toHaveLength(1));
    // Read again: the campaign is stopped, and continue is offered.
    expect(await within(row('Paused news')).findByRole('button', { name: 'Continue sending Paused news' })).toBeTruthy();
    expect(within(row('Paused news')).queryByText(/Paused: daily quota reached/)).toBeNull();
  });

  it('says a campaign held by the warm-up plan resumes the next day by itself, and may be stopped as well', async () => {
    const until = new Date(2030, 5, 9, 2, 0).toISOString();
    const warming = campaign({ ...sending, id: 7, name: 'Warming news', quotaPausedUntil: until, pausedFor: 'WARM_UP' });
    const { user } = renderApp('/campaigns', createFakeApi({ campaigns: [warming] }));
    await screen.findByText('Warming news');
    const cells = within(row('Warming news'));
    expect(cells.getByText('Paused: warm-up volume for today reached, resumes at 02:00')).toBeTruthy();
    expect(cells.queryByText(/daily quota/)).toBeNull();
    await user.click(cells.getByRole('button', { name: 'Stop sending Warming news' }));
    expect(await screen.findByRole('alertdialog', { name: 'Stop Campaign' })).toBeTruthy();
  });

  it("shows a scheduled campaign's chip with its time, opens it in the editor and offers no rename or delete", async () => {
    const at = new Date(2030, 5, 7, 8, 30).toISOString();
    const scheduled = campaign({ id: 5, name: 'Later news', status: 'SCHEDULED', scheduledAt: at });
    const { user } = renderApp('/campaigns', createFakeApi({ campaigns: [scheduled] }));
    await screen.findByText('Later news', { selector: 'a' });
    expect(within(row('Later news')).getByText('Scheduled')).toBeTruthy();
    expect(within(row('Later news')).getByText(formatInMemberZone(at))).toBeTruthy();
    expect(within(row('Later news')).getByRole('link', { name: 'Later news' }).getAttribute('href')).toBe('/campaigns/edit/5');
    expect(within(row('Later news')).getByRole('link', { name: 'Open Later news' }).getAttribute('href')).toBe('/campaigns/edit/5');
    await user.click(within(row('Later news')).getByRole('button', { name: /More actions/ }));
    expect((await screen.findByRole('menuitem', { name: 'Rename' })).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('reads page, limit and name from the query string and searches from page 1', async () => {
    const many = Array.from({ length: 23 }, (_, i) => campaign({ id: i + 1, name: `Campaign ${i + 1}` }));
    const api = createFakeApi({ campaigns: many });
    const { user, location } = renderApp('/campaigns?page=2&limit=5&name=campaign', api);
    expect(await screen.findByText('6–10 of 23')).toBeTruthy();
    expect(api.calls('GET', '/api/campaigns')[0]!.query.toString()).toBe('page=2&limit=5&name=campaign');
    expect((screen.getByLabelText('Search by name') as HTMLInputElement).value).toBe('campaign');

    await user.clear(screen.getByLabelText('Search by name'));
    await user.type(screen.getByLabelText('Search by name'), 'campaign 2{Enter}');
    await waitFor(() => expect(location().search).toBe('?page=1&limit=5&name=campaign+2'));
    expect(await screen.findByText('1–5 of 5')).toBeTruthy();

    await user.clear(screen.getByLabelText('Search by name'));
    await user.type(screen.getByLabelText('Search by name'), 'campaign 1');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(location().search).toBe('?page=1&limit=5&name=campaign+1'));

    await user.click(await screen.findByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(location().search).toBe('?page=2&limit=5&name=campaign+1'));
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await waitFor(() => expect(location().search).toBe('?page=1&limit=25&name=campaign+1'));
  });

  it("finds a follow-up by its name, parentheses and all, and names with the contract's other reserved characters", async () => {
    const api = createFakeApi({
      campaigns: [
        campaign({ id: 1, name: 'Autumn news' }),
        campaign({ id: 2, name: 'Autumn news (follow-up)' }),
        campaign({ id: 3, name: "Mia's sale! *today*" }),
      ],
    });
    const { user } = renderApp('/campaigns', api);
    await user.type(await screen.findByLabelText('Search by name'), '(follow-up){Enter}');
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();
    expect(within(row('Autumn news (follow-up)')).getByRole('link', { name: 'Autumn news (follow-up)' })).toBeTruthy();
    // Sent percent-encoded, as the contract asks of every reserved character (the API refuses them bare).
    const searched = api.calls('GET', '/api/campaigns').at(-1)!;
    expect(new URL(searched.request.url).search).toContain('name=%28follow-up%29');

    await user.clear(screen.getByLabelText('Search by name'));
    await user.type(screen.getByLabelText('Search by name'), "Mia's sale! *{Enter}");
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();
    expect(within(row("Mia's sale! *today*")).getByRole('link', { name: "Mia's sale! *today*" })).toBeTruthy();
  });

  it('shows an empty state, a no-match state and a failure with a retry', async () => {
    const api = createFakeApi();
    const { unmount } = renderApp('/campaigns', api);
    expect(await screen.findByText('No campaigns yet')).toBeTruthy();
    unmount();

    renderApp('/campaigns?name=zzz', api);
    expect(await screen.findByText('No campaigns match “zzz”')).toBeTruthy();
  });

  it('shows a failed load with a retry', async () => {
    const api = createFakeApi({ campaigns: [draft] });
    let fail = true;
    api.on('GET', /^\/api\/campaigns$/, () => (fail ? api.json(500, { message: 'Database is down' }) : undefined));
    const { user } = renderApp('/campaigns', api);
    expect(await screen.findByText('Database is down')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Spring appeal')).toBeTruthy();
  });

  it('reads the page again every 5 s while a campaign on it is sending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = createFakeApi({ campaigns: [sending, draft] });
    renderApp('/campaigns', api, { fakeTimers: true });
    await screen.findByRole('progressbar', { name: 'Autumn drive: 25% sent' });
    const before = api.calls('GET', '/api/campaigns').length;
    Object.assign(api.campaigns.get(3)!, { status: 'SENT', jobsSent: 195 });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(api.calls('GET', '/api/campaigns').length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(api.calls('GET', '/api/campaigns').length).toBe(before + 1);
  });
});

describe('Create Campaign', () => {
  it("creates 'My Campaign' and opens its editor", async () => {
    const api = createFakeApi({ campaigns: [draft] });
    const { user, location } = renderApp('/campaigns', api);
    await user.click(await screen.findByRole('button', { name: 'Create Campaign' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns/edit/2'));
    expect(api.calls('POST', '/api/campaigns')[0]!.body).toEqual({ name: 'My Campaign' });
  });

  it('says why it could not create one', async () => {
    const api = createFakeApi();
    api.on('POST', /^\/api\/campaigns$/, () => new Response(null, { status: 500 }));
    const { user, notify, location } = renderApp('/campaigns', api);
    await user.click(await screen.findByRole('button', { name: 'Create Campaign' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to create campaign'));
    expect(location().pathname).toBe('/campaigns');
  });
});

describe('Continue sending', () => {
  it('asks first, then continues, disabled while the request runs, and reloads the list', async () => {
    const api = createFakeApi({ campaigns: [failed] });
    const inFlight = deferred();
    api.on('POST', /^\/api\/campaigns\/4\/continue$/, async () => {
      await inFlight.promise;
      return undefined;
    });
    const { user, notify } = renderApp('/campaigns', api);
    const button = await screen.findByRole('button', { name: 'Continue sending Summer gala' });

    await user.click(button);
    let dialog = await screen.findByRole('alertdialog', { name: 'Continue Campaign' });
    expect(within(dialog).getByText('Are you sure you want to continue sending emails for this campaign?')).toBeTruthy();
    expect(within(dialog).getByText("This will attempt to send emails to contacts that haven't been sent to yet.")).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls('POST', '/api/campaigns/4/continue')).toHaveLength(0);

    await user.click(await screen.findByRole('button', { name: 'Continue sending Summer gala' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Continue Campaign' });
    const listReads = api.calls('GET', '/api/campaigns').length;
    await user.click(within(dialog).getByRole('button', { name: 'Continue Sending' }));
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/4/continue')).toHaveLength(1));
    await waitFor(() => expect((screen.getByText('Continue sending').closest('button') as HTMLButtonElement).disabled).toBe(true));

    inFlight.resolve();
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'Campaign will continue sending to remaining contacts.'));
    await waitFor(() => expect(api.calls('GET', '/api/campaigns').length).toBeGreaterThan(listReads));
    expect(await screen.findByText('Sending')).toBeTruthy();
  });

  it('says why it could not continue, with the fallback when the server gives no message', async () => {
    const api = createFakeApi({ campaigns: [failed] });
    api.on('POST', /continue$/, () => new Response(null, { status: 502 }));
    const { user, notify } = renderApp('/campaigns', api);
    await user.click(await screen.findByRole('button', { name: 'Continue sending Summer gala' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Continue Sending' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to continue campaign'));
    expect(((await screen.findByRole('button', { name: 'Continue sending Summer gala' })) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('Rename, Replicate and Delete', () => {
  async function openMenuItem(user: ReturnType<typeof renderApp>['user'], campaignName: string, item: string) {
    await user.click(await screen.findByRole('button', { name: `More actions for ${campaignName}` }));
    await user.click(await screen.findByRole('menuitem', { name: item }));
  }

  it('marks a blank new name and does nothing, then renames with a toast', async () => {
    const api = createFakeApi({ campaigns: [draft, sent] });
    const { user, notify } = renderApp('/campaigns', api);
    await openMenuItem(user, 'Winter news', 'Rename');
    const dialog = await screen.findByRole('dialog', { name: 'Rename campaign' });
    const input = within(dialog).getByLabelText(/New name/);
    expect((input as HTMLInputElement).value).toBe('Winter news');
    await user.clear(input);
    await user.type(input, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('PUT', '/api/campaigns/2')).toHaveLength(0);

    await user.clear(input);
    await user.type(input, ' Winter news 2024 {Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PUT', '/api/campaigns/2')[0]!.body).toEqual({ name: 'Winter news 2024' });
    expect(notify).toHaveBeenCalledWith('success', 'Successfully renamed campaign');
    expect(await screen.findByText('Winter news 2024')).toBeTruthy();
  });

  it('keeps the rename dialog open when the rename fails', async () => {
    const api = createFakeApi({ campaigns: [draft] });
    api.on('PUT', /^\/api\/campaigns\/1$/, () => api.json(400, { message: 'name is too long' }));
    const { user, notify } = renderApp('/campaigns', api);
    await openMenuItem(user, 'Spring appeal', 'Rename');
    const dialog = await screen.findByRole('dialog', { name: 'Rename campaign' });
    await user.type(within(dialog).getByLabelText(/New name/), '!{Enter}');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'name is too long'));
    expect(screen.getByRole('dialog', { name: 'Rename campaign' })).toBeTruthy();
  });

  it('replicates into a new draft and opens it', async () => {
    const api = createFakeApi({ campaigns: [draft, sent] });
    const { user, notify, location } = renderApp('/campaigns', api);
    await openMenuItem(user, 'Winter news', 'Replicate');
    await waitFor(() => expect(location().pathname).toBe('/campaigns/edit/3'));
    expect(api.calls('POST', '/api/campaigns/2/replicate')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'Successfully replicated campaign Winter news');
  });

  it('says why it could not replicate', async () => {
    const api = createFakeApi({ campaigns: [draft] });
    api.on('POST', /replicate$/, () => api.json(404, { message: 'Campaign not found' }));
    const { user, notify, location } = renderApp('/campaigns', api);
    await openMenuItem(user, 'Spring appeal', 'Replicate');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Campaign not found'));
    expect(location().pathname).toBe('/campaigns');
  });

  it('deletes after the confirmation, with the spec’s toast', async () => {
    const api = createFakeApi({ campaigns: [draft, sent] });
    const { user, notify } = renderApp('/campaigns', api);
    await openMenuItem(user, 'Spring appeal', 'Delete');
    let dialog = await screen.findByRole('alertdialog', { name: 'Deletion confirmation' });
    expect(within(dialog).getByText('Are you sure to delete the following campaign?')).toBeTruthy();
    expect(within(dialog).getByText('Spring appeal')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls('DELETE', '/api/campaigns/1')).toHaveLength(0);

    await openMenuItem(user, 'Spring appeal', 'Delete');
    dialog = await screen.findByRole('alertdialog', { name: 'Deletion confirmation' });
    await user.click(within(dialog).getByRole('button', { name: 'Go ahead' }));
    await waitFor(() => expect(screen.queryByText('Spring appeal')).toBeNull());
    expect(api.calls('DELETE', '/api/campaigns/1')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'Successfully delete campaign Spring appeal');
  });

  it('says why it could not delete, and offers no delete while sending', async () => {
    const api = createFakeApi({ campaigns: [sent, sending] });
    api.on('DELETE', /^\/api\/campaigns\/2$/, () => api.json(409, { message: 'The campaign is busy' }));
    const { user, notify } = renderApp('/campaigns', api);
    await openMenuItem(user, 'Winter news', 'Delete');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Go ahead' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'The campaign is busy'));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await user.click(await screen.findByRole('button', { name: 'More actions for Autumn drive' }));
    expect((await screen.findByRole('menuitem', { name: 'Delete' })).getAttribute('aria-disabled')).toBe('true');
  });
});
