import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { campaign, createFakeApi, figures, row, type Stats } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { UNKNOWN_EXPLAINED, unknownOutcomesSentence } from '../components/unknown-outcomes/UnknownOutcomes';

/** A button of the open dialog, looked up afresh on every try: Fluent may replace the dialog's element while it opens. */
const dialogButton = (name: string) =>
  waitFor(() => within(screen.getByRole('alertdialog', { name: 'Resend unconfirmed emails' })).getByRole('button', { name }));

function setup(stats: Stats, tab = 'email-performance') {
  const api = createFakeApi({
    campaigns: [campaign({ id: 5, name: 'Spring news', status: 'SENT' })],
    stats: { 5: stats },
    figures: { 5: figures({ sent: stats.jobsSent, unknown: stats.jobsUnknown ?? 0, sendingStartedAt: '2024-04-02T09:00:00.000Z' }) },
    rows: { 5: [row({ contactId: 1, status: 'UNKNOWN' }), row({ contactId: 2 })] },
  });
  return { api, ...renderApp(`/campaigns/reports/5?tab=${tab}`, api) };
}

describe('Email performance: mails of unknown outcome (an addition to the spec)', () => {
  it('says nothing while no mail is UNKNOWN', async () => {
    setup({ jobsSent: 2, jobsFailed: 0, totalContactsCount: 2 });
    await screen.findByRole('table', { name: 'Email performance' });
    expect(screen.queryByText(UNKNOWN_EXPLAINED, { exact: false })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resend unconfirmed' })).toBeNull();
  });

  it('explains UNKNOWN, and offers no resend before the mails have gone unconfirmed long enough', async () => {
    setup({ jobsSent: 1, jobsFailed: 0, totalContactsCount: 2, jobsUnknown: 1, jobsUnconfirmed: 0 });
    expect(await screen.findByText('1 email of unknown outcome.')).toBeTruthy();
    expect(screen.getByText(UNKNOWN_EXPLAINED, { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend unconfirmed' })).toBeNull();
  });

  it("'Resend unconfirmed' warns of double mails; Cancel sends nothing, Resend queues and toasts", async () => {
    const { api, user, notify } = setup({ jobsSent: 1, jobsFailed: 0, totalContactsCount: 4, jobsUnknown: 3, jobsUnconfirmed: 2 });
    expect(
      await screen.findByText('3 emails of unknown outcome, 2 of them still unconfirmed after 60 minutes: they can be sent again.'),
    ).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Resend unconfirmed' }));
    expect((await screen.findByRole('alertdialog', { name: 'Resend unconfirmed emails' })).textContent).toMatch(
      /2 emails have had no word from SES for 60 minutes.*may already have received this email and will receive it twice/,
    );
    await user.click(await dialogButton('Cancel'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls('POST', '/api/reports/5/resend-unconfirmed')).toHaveLength(0);

    // The page is given back to assistive technology on tabster's timer, a moment after the dialog goes.
    await user.click(await screen.findByRole('button', { name: 'Resend unconfirmed' }));
    await user.click(await dialogButton('Resend'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', '2 unconfirmed emails queued'));
    expect(api.calls('POST', '/api/reports/5/resend-unconfirmed')).toHaveLength(1);
    // The report is read again: nothing is left to resend.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Resend unconfirmed' })).toBeNull());
  });

  it('is offered on the Overview too, beside the Unknown figure: one sentence, singular for one', async () => {
    const { api, user } = setup(
      { jobsSent: 1, jobsFailed: 0, totalContactsCount: 2, jobsUnknown: 1, jobsUnconfirmed: 1, unconfirmedResendAfterMinutes: 1 },
      'overview',
    );
    const overview = await screen.findByRole('tabpanel', { name: 'Overview' });
    expect(
      await within(overview).findByText('1 email of unknown outcome, still unconfirmed after 1 minute: it can be sent again.'),
    ).toBeTruthy();
    expect(within(overview).getByText(UNKNOWN_EXPLAINED, { exact: false })).toBeTruthy();
    await user.click(within(overview).getByRole('button', { name: 'Resend unconfirmed' }));
    expect((await screen.findByRole('alertdialog', { name: 'Resend unconfirmed emails' })).textContent).toContain(
      '1 email has had no word from SES for 1 minute or more. Its recipient may already have received this email and will receive it twice. Send it again?',
    );
    await user.click(await dialogButton('Resend'));
    await waitFor(() => expect(api.calls('POST', '/api/reports/5/resend-unconfirmed')).toHaveLength(1));
  });
});

describe('the unknown-outcome sentence', () => {
  it.each([
    [8, 0, 60, '8 emails of unknown outcome.'],
    [1, 0, 60, '1 email of unknown outcome.'],
    [8, 1, 1, '8 emails of unknown outcome, 1 of them still unconfirmed after 1 minute: it can be sent again.'],
    [8, 3, 60, '8 emails of unknown outcome, 3 of them still unconfirmed after 60 minutes: they can be sent again.'],
    [8, 8, 60, '8 emails of unknown outcome, all still unconfirmed after 60 minutes: they can be sent again.'],
    [1, 1, 60, '1 email of unknown outcome, still unconfirmed after 60 minutes: it can be sent again.'],
    // Counts read a moment apart cannot claim more unconfirmed mails than unknown ones.
    [2, 5, 60, '2 emails of unknown outcome, all still unconfirmed after 60 minutes: they can be sent again.'],
  ])('%i unknown, %i unconfirmed after %i minutes: %s', (unknown, unconfirmed, minutes, sentence) => {
    expect(unknownOutcomesSentence(unknown, unconfirmed, minutes)).toBe(sentence);
  });
});
