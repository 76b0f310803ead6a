import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { campaign, createFakeApi, row, type Stats } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { UNKNOWN_EXPLAINED } from '../components/email-performance/UnknownOutcomes';

/** A button of the open dialog, looked up afresh on every try: Fluent may replace the dialog's element while it opens. */
const dialogButton = (name: string) =>
  waitFor(() => within(screen.getByRole('alertdialog', { name: 'Resend unconfirmed emails' })).getByRole('button', { name }));

function setup(stats: Stats) {
  const api = createFakeApi({
    campaigns: [campaign({ id: 5, name: 'Spring news', status: 'SENT' })],
    stats: { 5: stats },
    rows: { 5: [row({ contactId: 1, status: 'UNKNOWN' }), row({ contactId: 2 })] },
  });
  return { api, ...renderApp('/campaigns/reports/5?tab=email-performance', api) };
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
    expect(await screen.findByText('1 email of unknown outcome')).toBeTruthy();
    expect(screen.getByText(UNKNOWN_EXPLAINED, { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend unconfirmed' })).toBeNull();
  });

  it("'Resend unconfirmed' warns of double mails; Cancel sends nothing, Resend queues and toasts", async () => {
    const { api, user, notify } = setup({ jobsSent: 1, jobsFailed: 0, totalContactsCount: 4, jobsUnknown: 3, jobsUnconfirmed: 2 });
    await user.click(await screen.findByRole('button', { name: 'Resend unconfirmed' }));
    expect((await screen.findByRole('alertdialog', { name: 'Resend unconfirmed emails' })).textContent).toMatch(
      /2 emails have had no word from SES for 60 minutes.*may already have received this email and will receive it twice/,
    );
    await user.click(await dialogButton('Cancel'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls('POST', '/api/reports/5/resend-unconfirmed')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Resend unconfirmed' }));
    await user.click(await dialogButton('Resend'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', '2 unconfirmed emails queued'));
    expect(api.calls('POST', '/api/reports/5/resend-unconfirmed')).toHaveLength(1);
    // The report is read again: nothing is left to resend.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Resend unconfirmed' })).toBeNull());
  });
});
