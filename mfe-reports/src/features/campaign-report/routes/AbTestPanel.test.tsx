/**
 * The report's A/B test (issue 28): each variant's figures with people and machines apart, where the test is, the
 * verdict in words with its confidence, and a member's pick of the winner while testing (confirmed first). Nothing
 * shows for a campaign without a test.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { AbTest } from '@mailroom/api-client';
import { formatDateTime } from '@mailroom/ui';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const figures = [
  { variant: 0, recipients: 40, sent: 40, openedHuman: 3, openedMachine: 33, clickedHuman: 1, clickedMachine: 4 },
  { variant: 1, recipients: 40, sent: 40, openedHuman: 14, openedMachine: 0, clickedHuman: 2, clickedMachine: 0 },
];
const testing: AbTest = {
  testShare: 40,
  waitHours: 2,
  measure: 'PEOPLE_OPENS',
  defaultVariant: 0,
  variants: [
    { subject: 'Autumn is here', previewText: null, fromName: null, templateId: null, templateName: null },
    { subject: null, previewText: null, fromName: 'The garden team', templateId: 4, templateName: 'Bold layout' },
  ],
  phase: 'TESTING',
  startedAt: '2024-06-02T08:00:00.000Z',
  endsAt: '2024-06-02T10:00:00.000Z',
  winner: null,
  decidedAt: null,
  decidedBy: null,
  verdict: null,
  figures,
  current: { rule: 'SIGNIFICANT', confidence: 0.9993, leader: 1, figures },
};

function setup(abTest?: AbTest) {
  const api = createFakeApi({
    campaigns: [campaign({ id: 5, name: 'April newsletter', status: 'SENDING' })],
    stats: { 5: { jobsSent: 80, jobsFailed: 0, totalContactsCount: 200 } },
    ...(abTest ? { abTests: { 5: abTest } } : {}),
  });
  return { api, ...renderApp('/campaigns/reports/5', api) };
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('Campaign report: the A/B test', () => {
  it("shows each variant's figures, people and machines apart, the time the winner is chosen, and the lead so far", async () => {
    setup(testing);
    const table = await screen.findByRole('table', { name: 'A/B test variants' });
    expect(rowsOf(table)).toEqual([
      ['Variant A (default)', 'subject “Autumn is here”', '40', '40', '3 (7.5%)', '33', '1 (2.5%)', '4'],
      ['Variant B', 'sender name “The garden team”, template “Bold layout”', '40', '40', '14 (35.0%)', '0', '2 (5.0%)', '0'],
    ]);
    expect(
      screen.getByText(
        `Testing on 40 % of the recipients. The winner by people's opens is chosen at ${formatDateTime('2024-06-02T10:00:00.000Z')} and sent to the rest.`,
      ),
    ).toBeTruthy();
    expect(
      screen.getByText("So far: Variant B leads on people's opens with 99.9 % confidence (a two-proportion test): it would win."),
    ).toBeTruthy();
  });

  it('lets a member send a variant to the rest before the wait ends, after a confirmation', async () => {
    const { api, user } = setup(testing);
    await user.click(await screen.findByRole('button', { name: 'Send variant A to the rest now' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Pick the winner' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('POST', '/api/campaigns/5/ab-test/winner')).toHaveLength(0);
    // The page is given back to assistive technology on tabster's timer, a moment after the dialog goes.
    await user.click(await screen.findByRole('button', { name: 'Send variant A to the rest now' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Pick the winner' })).getByRole('button', { name: 'Send to the rest' }),
    );
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/5/ab-test/winner')).toHaveLength(1));
    expect(api.calls('POST', '/api/campaigns/5/ab-test/winner')[0]!.body).toEqual({ variant: 0 });
    expect(await screen.findByText(/Variant A won, picked by a member, and was sent to the rest/)).toBeTruthy();
    expect(
      screen.getByText(
        /Picked by a member before the wait ended; the rule's leader then was variant B on people's opens at 99.9 % confidence./,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Send variant . to the rest now/ })).toBeNull();
  });

  it('says why the default went when no variant won at 95 %, or no person opened', async () => {
    const decided: AbTest = {
      ...testing,
      phase: 'DECIDED',
      winner: 0,
      decidedBy: 'AUTOMATIC',
      decidedAt: '2024-06-02T10:00:20.000Z',
      verdict: { rule: 'NOT_SIGNIFICANT', confidence: 0.812, leader: 1, figures },
    };
    setup(decided);
    expect(
      await screen.findByText(
        "Variant B leads on people's opens, but with 81.2 % confidence, short of 95 %: the default, variant A, went to the rest.",
      ),
    ).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'A/B test variants' })).getByText('Variant A (winner)')).toBeTruthy();
  });

  it('shows nothing for a campaign without a test', async () => {
    const { api } = setup();
    await screen.findByText('Sent to: 80 / 200 Recipients (0 failed)');
    await waitFor(() => expect(api.calls('GET', '/api/campaigns/5/ab-test')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'A/B test' })).toBeNull();
  });
});
