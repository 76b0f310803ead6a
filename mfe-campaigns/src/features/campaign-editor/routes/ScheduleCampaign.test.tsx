/**
 * Scheduled sending in the campaign editor (an addition to the spec): 'Schedule' beside Send saves,
 * runs the same pre-send checks, opens the date and time picker in the member's time zone (named),
 * refuses a past time, then gives the same invalid-contacts warning and a confirmation with the time.
 * A scheduled campaign opens read-only with 'Cancel schedule', which makes it a draft again.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatInMemberZone, memberTimeZone } from '@mailroom/ui';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, campaign, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { SCHEDULE_PAST, scheduledInstant } from '../utils/schedule';

afterEach(() => vi.unstubAllGlobals());

const newsletter = audience({ id: 7, name: 'Newsletter', numberOfContacts: 10 });
const donors = audience({ id: 8, name: 'Donors', numberOfContacts: 10, numberOfContactsWithErrors: 2 });
const welcome = template({ id: 3, name: 'Welcome', html: '<p>Hi</p>' });
const complete = campaign({
  id: 2,
  name: 'Autumn appeal',
  audienceId: 7,
  audienceName: 'Newsletter',
  numberOfContacts: 10,
  fromName: 'Mia Member',
  fromEmail: 'news@example.org',
  subject: 'Autumn news',
  templateId: 3,
  template: { id: 3, name: 'Welcome', html: welcome.html, preview: null },
});

/** Sets a Fluent date or time input as the browser's picker would. */
const pick = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { exact: false }), { target: { value } });

describe('Schedule in the campaign editor', () => {
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
