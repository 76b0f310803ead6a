/**
 * The editor's send flow (SendFlow): Send saves, runs the pre-send checks in the spec's order, warns of
 * the audience's invalid contacts, confirms with the count of recipients and sends. 'Schedule' (an
 * addition to the spec) beside it runs the same checks, opens the date and time picker in the member's
 * time zone (named), refuses a past time, then gives the same warning and a confirmation with the
 * time. A scheduled campaign opens read-only with 'Cancel schedule', which makes it a draft again.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatInMemberZone, memberTimeZone } from '@mailroom/ui';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, campaign, createFakeApi, deferred, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { SCHEDULE_PAST, scheduledInstant } from '../utils/schedule';

afterEach(() => vi.unstubAllGlobals());

const newsletter = audience({ id: 7, name: 'Newsletter', numberOfContacts: 10 });
const donors = audience({ id: 8, name: 'Donors', numberOfContacts: 10, numberOfContactsWithErrors: 2 });
const welcome = template({ id: 3, name: 'Welcome', html: '<p>Hi {{fullName}}</p>' });
const empty = campaign({ id: 1, name: 'Spring appeal' });
const complete = campaign({
  id: 2,
  name: 'Autumn appeal',
  audienceId: 7,
  audienceName: 'Newsletter',
  numberOfContacts: 10,
  fromName: 'Mia Member',
  fromEmail: 'news@example.org',
  subject: 'Autumn news',
  previewText: 'What we did',
  templateId: 3,
  template: { id: 3, name: 'Welcome', html: welcome.html, preview: null },
});

/** Sets a Fluent date or time input as the browser's picker would. */
const pick = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { exact: false }), { target: { value } });

describe('Send', () => {
  /** Clicks Send and returns the Error dialog's message. */
  async function sendError(user: ReturnType<typeof renderApp>['user']) {
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Error' });
    const message = within(dialog).getByText(/^Please/).textContent;
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    return message;
  }

  // Each case fills the fields before its check and leaves every later one empty too, so a check
  // only shows when all the checks before it pass: the order is the spec's.
  const filled = {
    audience: { audienceId: 7, audienceName: 'Newsletter' },
    template: { templateId: 3, template: { id: 3, name: 'Welcome', html: welcome.html, preview: null } },
    subject: { subject: 'Spring news' },
    fromName: { fromName: 'Mia' },
  };
  it.each([
    ['Please select an audience', {}],
    ['Please select a template', filled.audience],
    ['Please input email subject', { ...filled.audience, ...filled.template }],
    ['Please input email subject', { ...filled.audience, ...filled.template, subject: '   ' }],
    ["Please input name for who's sending this campaign", { ...filled.audience, ...filled.template, ...filled.subject }],
    [
      "Please input email for who's sending this campaign",
      { ...filled.audience, ...filled.template, ...filled.subject, ...filled.fromName },
    ],
    [
      "Please input email for who's sending this campaign",
      { ...filled.audience, ...filled.template, ...filled.subject, ...filled.fromName, fromEmail: 'old@example.org' },
    ],
  ])("saves, then stops at '%s' in an Error dialog", async (message, fields) => {
    const api = createFakeApi({
      campaigns: [campaign({ id: 1, name: 'Spring appeal', ...fields })],
      audiences: [newsletter],
      templates: [welcome],
    });
    const { user } = renderApp('/campaigns/edit/1', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    await waitFor(() => expect(api.calls('GET', '/api/campaigns/authorized-sent-emails')).toHaveLength(1));
    expect(await sendError(user)).toBe(message);
    expect(api.calls('PUT', '/api/campaigns/1')).toHaveLength(1);
    expect(api.calls('GET', '/api/audiences/7')).toHaveLength(0);
    expect(api.calls('POST', '/api/campaigns/1/send')).toHaveLength(0);
  });

  it('checks what the editor holds, not what was stored', async () => {
    const api = createFakeApi({ campaigns: [empty], audiences: [newsletter], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/1', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    expect(await sendError(user)).toBe('Please select an audience');
    await user.click(await screen.findByRole('button', { name: 'Choose audience' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Choose an audience' })).getByRole('button', { name: 'Select Newsletter' }),
    );
    expect(await sendError(user)).toBe('Please select a template');
    expect(api.calls('PUT', '/api/campaigns/1').at(-1)!.body).toMatchObject({ audienceId: 7, audienceName: 'Newsletter' });
  });

  it('does not run the checks when the save fails', async () => {
    const api = createFakeApi({ campaigns: [empty] });
    api.on('PUT', /^\/api\/campaigns\/1$/, () => api.json(409, { message: 'Only a draft can be edited' }));
    const { user, notify } = renderApp('/campaigns/edit/1', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Only a draft can be edited'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('confirms with the valid contact count, sends and goes to the campaigns', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const { user, location, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(dialog).getByText('This campaign will be sent to 10 contacts of “Newsletter”. Send it now?')).toBeTruthy();
    expect(api.calls('PUT', '/api/campaigns/2')).toHaveLength(1);
    expect(api.calls('POST', '/api/campaigns/2/send')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    expect(api.calls('POST', '/api/campaigns/2/send')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'Campaign Autumn appeal is being sent');
  });

  it('warns about invalid contacts, then confirms numberOfContacts minus numberOfContactsWithErrors', async () => {
    const api = createFakeApi({
      campaigns: [{ ...complete, audienceId: 8, audienceName: 'Donors' }],
      audiences: [donors],
      templates: [welcome],
    });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const warning = await screen.findByRole('alertdialog', { name: 'Invalid contacts' });
    expect(within(warning).getByText(/has 2 invalid contacts/)).toBeTruthy();
    await user.click(within(warning).getByRole('button', { name: 'Proceed with Valid Contacts' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(confirm).getByText('This campaign will be sent to 8 contacts of “Donors”. Send it now?')).toBeTruthy();
  });

  it('confirms with the spec count and says how many of those are suppressed and will be skipped, and why', async () => {
    const api = createFakeApi({
      campaigns: [complete],
      audiences: [newsletter],
      templates: [welcome],
      suppressed: { 7: { suppressedContacts: 2, unsubscribed: 2, hardBounced: 0, complained: 0 } },
    });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(dialog).getByText('This campaign will be sent to 10 contacts of “Newsletter”. Send it now?')).toBeTruthy();
    expect(within(dialog).getByText('2 of them are suppressed and will be skipped (2 unsubscribed).')).toBeTruthy();
  });

  it('carries the suppressed count past the invalid-contacts warning', async () => {
    const api = createFakeApi({
      campaigns: [{ ...complete, audienceId: 8, audienceName: 'Donors' }],
      audiences: [donors],
      templates: [welcome],
      suppressed: { 8: { suppressedContacts: 1, unsubscribed: 0, hardBounced: 0, complained: 1 } },
    });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const warning = await screen.findByRole('alertdialog', { name: 'Invalid contacts' });
    await user.click(within(warning).getByRole('button', { name: 'Proceed with Valid Contacts' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(confirm).getByText('This campaign will be sent to 8 contacts of “Donors”. Send it now?')).toBeTruthy();
    expect(within(confirm).getByText('1 of them is suppressed and will be skipped (1 complained).')).toBeTruthy();
  });

  it('still confirms when the suppressed contacts cannot be counted, and says so', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    api.on('GET', /suppressed-contacts$/, () => api.json(503, { message: 'Try again later' }));
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(confirm).getByText('This campaign will be sent to 10 contacts of “Newsletter”. Send it now?')).toBeTruthy();
    expect(within(confirm).queryByText(/suppressed/)).toBeNull();
    expect(notify).toHaveBeenCalledWith('error', 'Try again later');
  });

  it('cancelling the invalid-contacts warning sends nothing', async () => {
    const api = createFakeApi({
      campaigns: [{ ...complete, audienceId: 8, audienceName: 'Donors' }],
      audiences: [donors],
      templates: [welcome],
    });
    const { user, location } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Invalid contacts' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', '/api/campaigns/2/send')).toHaveLength(0);
    expect(location().pathname).toBe('/campaigns/edit/2');
  });

  it('still confirms when the audience cannot be read, and says so', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    api.on('GET', /^\/api\/audiences\/7$/, () => api.json(503, { message: 'Try again later' }));
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(confirm).getByText('This campaign will be sent to the valid contacts of “Newsletter”. Send it now?')).toBeTruthy();
    expect(notify).toHaveBeenCalledWith('error', 'Try again later');
  });

  it('stays in the editor and says why when sending fails', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const inFlight = deferred();
    api.on('POST', /^\/api\/campaigns\/2\/send$/, async () => {
      await inFlight.promise;
      return api.json(400, { message: 'The sender address is not authorized' });
    });
    const { user, location, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    await user.click(within(confirm).getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect((within(confirm).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true));
    inFlight.resolve();
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'The sender address is not authorized'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location().pathname).toBe('/campaigns/edit/2');
  });
});

describe('Schedule', () => {
  it('reads a date and a time as the instant they name in the member time zone', () => {
    expect(scheduledInstant('2030-03-04', '09:15')!.getTime()).toBe(new Date(2030, 2, 4, 9, 15).getTime());
    expect(scheduledInstant('', '09:15')).toBeNull();
    expect(scheduledInstant('2030-03-04', '')).toBeNull();
  });

  it('runs the pre-send checks first, as Send does', async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...complete, subject: null })], audiences: [newsletter], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const error = await screen.findByRole('alertdialog');
    expect(within(error).getByText('Please input email subject')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Schedule campaign' })).toBeNull();
    expect(api.calls('POST', '/api/campaigns/2/schedule')).toHaveLength(0);
  });

  it('picks a time in the member time zone, refuses a past one, confirms with the count and the time, and schedules', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const { user, location, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const picker = await screen.findByRole('dialog', { name: 'Schedule campaign' });
    expect(api.calls('PUT', '/api/campaigns/2')).toHaveLength(1);
    expect(within(picker).getByText(`Time zone: ${memberTimeZone()}`)).toBeTruthy();

    // Yesterday is refused, with the reason, and Continue cannot be pressed.
    pick('Date', dayjs().subtract(1, 'day').format('YYYY-MM-DD'));
    expect(await within(picker).findByText(SCHEDULE_PAST)).toBeTruthy();
    expect((within(picker).getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);

    const when = dayjs().add(2, 'day').hour(9).minute(30).second(0).millisecond(0);
    pick('Date', when.format('YYYY-MM-DD'));
    pick('Time', '09:30');
    expect(within(picker).queryByText(SCHEDULE_PAST)).toBeNull();
    await user.click(within(picker).getByRole('button', { name: 'Continue' }));

    const confirm = await screen.findByRole('alertdialog', { name: 'Schedule campaign' });
    expect(
      within(confirm).getByText(
        `This campaign will be sent to 10 contacts of “Newsletter” on ${formatInMemberZone(when.toDate())}. Schedule it?`,
      ),
    ).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/2/schedule')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    expect(api.calls('POST', '/api/campaigns/2/schedule').map((call) => call.body)).toEqual([{ at: when.toISOString() }]);
    expect(api.calls('POST', '/api/campaigns/2/send')).toHaveLength(0);
    expect(notify).toHaveBeenCalledWith('success', `Campaign Autumn appeal is scheduled for ${formatInMemberZone(when.toDate())}`);
  });

  it('warns about invalid contacts before the confirmation, as Send does', async () => {
    const api = createFakeApi({
      campaigns: [{ ...complete, audienceId: 8, audienceName: 'Donors' }],
      audiences: [donors],
      templates: [welcome],
    });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const picker = await screen.findByRole('dialog', { name: 'Schedule campaign' });
    await user.click(within(picker).getByRole('button', { name: 'Continue' }));
    const warning = await screen.findByRole('alertdialog', { name: 'Invalid contacts' });
    expect(within(warning).getByText(/has 2 invalid contacts/)).toBeTruthy();
    await user.click(within(warning).getByRole('button', { name: 'Proceed with Valid Contacts' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Schedule campaign' });
    expect(within(confirm).getByText(/will be sent to 8 contacts of “Donors” on /)).toBeTruthy();
  });

  it('says why the server refused the schedule, and stays in the editor', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    api.on('POST', /^\/api\/campaigns\/2\/schedule$/, () =>
      api.json(400, { message: 'The scheduled time has passed; choose a time in the future.' }),
    );
    const { user, location, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Schedule campaign' })).getByRole('button', { name: 'Continue' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Schedule campaign' })).getByRole('button', { name: 'Schedule' }),
    );
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'The scheduled time has passed; choose a time in the future.'));
    expect(location().pathname).toBe('/campaigns/edit/2');
  });

  it('opens a scheduled campaign read-only with its time, and Cancel schedule makes it an editable draft again', async () => {
    const at = dayjs().add(1, 'day').startOf('minute').toISOString();
    const api = createFakeApi({
      campaigns: [{ ...complete, status: 'SCHEDULED', scheduledAt: at }],
      audiences: [newsletter],
      templates: [welcome],
    });
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaign' })).toBeTruthy();
    expect(screen.getByText('Scheduled')).toBeTruthy();
    expect(screen.getByText(new RegExp(`scheduled for ${formatInMemberZone(at).replace(/[()]/g, '\\$&')}`))).toBeTruthy();
    expect((screen.getByLabelText('Campaign name') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Finish later' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Cancel schedule' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Draft Email' })).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/2/unschedule')).toHaveLength(1);
    expect((screen.getByLabelText('Campaign name') as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(notify).toHaveBeenCalledWith('success', 'The schedule of Autumn appeal is cancelled; it is a draft again');
  });

  it('leaves the scheduled state by itself when the campaign starts, without a reload', async () => {
    const at = dayjs().add(1, 'minute').startOf('minute').toISOString();
    const api = createFakeApi({
      campaigns: [{ ...complete, status: 'SCHEDULED', scheduledAt: at }],
      audiences: [newsletter],
      templates: [welcome],
    });
    renderApp('/campaigns/edit/2', api);
    expect(await screen.findByRole('button', { name: 'Cancel schedule' })).toBeTruthy();
    // The worker starts it: the editor reads it again while it is scheduled.
    api.campaigns.get(2)!.status = 'SENDING';
    expect(await screen.findByText(/This campaign is sending and can no longer be edited/, {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel schedule' })).toBeNull();
    expect(screen.queryByText(/is scheduled for/)).toBeNull();
  }, 15_000);

  it('shows what the campaign became when Cancel schedule is refused because it started', async () => {
    const at = dayjs().add(1, 'day').startOf('minute').toISOString();
    const api = createFakeApi({
      campaigns: [{ ...complete, status: 'SCHEDULED', scheduledAt: at }],
      audiences: [newsletter],
      templates: [welcome],
    });
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    const cancel = await screen.findByRole('button', { name: 'Cancel schedule' });
    api.campaigns.get(2)!.status = 'SENDING';
    await user.click(cancel);
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'This campaign is not scheduled.'));
    // At once, not at the next poll.
    expect(await screen.findByText(/This campaign is sending and can no longer be edited/, {}, { timeout: 1500 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel schedule' })).toBeNull();
  });

  it('shows why a schedule did not start on the draft it left', async () => {
    const errorMessage = 'The schedule for 2030-01-01T09:00:00.000Z did not start: The template has no content yet.';
    const api = createFakeApi({ campaigns: [{ ...complete, errorMessage }], audiences: [newsletter], templates: [welcome] });
    renderApp('/campaigns/edit/2', api);
    expect(await screen.findByText(errorMessage)).toBeTruthy();
  });
});

describe('While Send or Schedule is under way', () => {
  // Hidden included: the time picker stays open, modal, while the picked time is prepared.
  const button = (name: string) => screen.getByRole('button', { name, hidden: true }) as HTMLButtonElement;
  /** Whether the button shows it is working (its spinner). */
  const spins = (name: string) => within(button(name)).queryByRole('progressbar', { hidden: true }) !== null;

  it('holds Finish later, Schedule and Send while Send reads the audience, and only Send shows it is working', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const audienceRead = deferred();
    api.on('GET', /^\/api\/audiences\/7$/, async () => {
      await audienceRead.promise;
      return undefined;
    });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.calls('GET', '/api/audiences/7')).toHaveLength(1));
    expect([button('Finish later').disabled, button('Schedule').disabled, button('Send').disabled]).toEqual([true, true, true]);
    expect([spins('Send'), spins('Schedule')]).toEqual([true, false]);

    audienceRead.resolve();
    const confirm = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(button('Finish later').disabled).toBe(false));
    expect([button('Schedule').disabled, button('Send').disabled, spins('Send')]).toEqual([false, false, false]);
  });

  it('shows the work on Schedule, not Send, while a picked time waits for the audience', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const audienceRead = deferred();
    api.on('GET', /^\/api\/audiences\/7$/, async () => {
      await audienceRead.promise;
      return undefined;
    });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Schedule campaign' })).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(api.calls('GET', '/api/audiences/7')).toHaveLength(1));
    expect([spins('Schedule'), spins('Send'), button('Finish later').disabled]).toEqual([true, false, true]);
    audienceRead.resolve();
    expect(await screen.findByRole('alertdialog', { name: 'Schedule campaign' })).toBeTruthy();
  });
});

describe("the member's role (issue 27)", () => {
  it.each(['viewer', 'editor'] as const)('locks Send and Schedule for the role %s, saying who can, and sends nothing', async (role) => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api, { role });
    const send = await screen.findByRole('button', { name: 'Send' });
    expect(send.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Schedule' }).getAttribute('aria-disabled')).toBe('true');
    await user.click(send);
    send.focus();
    expect((await screen.findByRole('tooltip')).textContent).toBe('Senders and admins can send');
    expect(api.calls('POST', '/api/campaigns/2/send')).toHaveLength(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows a viewer the draft with its fields disabled, as a sent campaign's are", async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api, { role: 'viewer' });
    const name = (await screen.findByLabelText('Campaign name')) as HTMLInputElement;
    expect(screen.getByRole('heading', { name: 'Draft Email' })).toBeTruthy();
    expect(name.disabled).toBe(true);
    // The sections still open for reading.
    await user.click(screen.getByRole('button', { name: /^done Subject/ }));
    expect(((await screen.findByLabelText('Subject')) as HTMLInputElement).disabled).toBe(true);
    // A locked action stays focusable, with its tooltip saying who can, though the field beside it is disabled.
    await user.click(screen.getByRole('button', { name: /^done To/ }));
    const change = await screen.findByRole('button', { name: 'Change audience' });
    expect([change.getAttribute('aria-disabled'), change.hasAttribute('disabled')]).toEqual(['true', false]);
  });

  it('leaves Send and Schedule to a sender', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    renderApp('/campaigns/edit/2', api, { role: 'sender' });
    const send = await screen.findByRole('button', { name: 'Send' });
    expect(send.getAttribute('aria-disabled')).toBeNull();
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
