import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import type { CampaignStatus } from '@mailroom/api-client';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CampaignStatusBadge, quotaPausedText, SENDING_STOPPED, type CampaignStatusBadgeProps } from './CampaignStatusBadge';

/** The statuses the contract lists (openapi.yaml, CampaignStatus), read from the contract itself. */
const CONTRACT_STATUSES = (() => {
  const contract = readFileSync(resolve(import.meta.dirname, '../../../openapi.yaml'), 'utf8');
  const found = /\n {4}CampaignStatus:\n(?: {6}.*\n)*? {6}enum: \[([^\]]+)\]/.exec(contract);
  if (!found) throw new Error('CampaignStatus not found in openapi.yaml');
  return found[1]!.split(',').map((status) => status.trim()) as CampaignStatus[];
})();

const LABELS: Record<CampaignStatus, string> = {
  DRAFT: 'Draft',
  SCHEDULED: 'Scheduled',
  SENDING: 'Sending',
  SENT: 'Sent',
  ERROR: 'Error',
  AWAITING_APPROVAL: 'Awaiting approval',
};

/** The chip's element and its classes (the look: appearance and colour). */
function chip(props: CampaignStatusBadgeProps) {
  const view = render(
    <FluentProvider theme={webLightTheme}>
      <CampaignStatusBadge {...props} />
    </FluentProvider>,
  );
  const element = view.getByText(LABELS[props.status], { exact: true });
  const look = element.className;
  view.unmount();
  return { element, look };
}

describe('CampaignStatusBadge', () => {
  it('names every status of the contract, a scheduled campaign as Scheduled', () => {
    expect(CONTRACT_STATUSES.toSorted()).toEqual(Object.keys(LABELS).toSorted());
    for (const status of CONTRACT_STATUSES) {
      render(<CampaignStatusBadge status={status} />);
      expect(screen.getByText(LABELS[status], { exact: true })).toBeTruthy();
      document.body.innerHTML = '';
    }
    render(<CampaignStatusBadge status="SCHEDULED" />);
    expect(screen.queryByText('Draft')).toBeNull();
  });

  it('gives each status a look of its own on the list and the report', () => {
    const looks = CONTRACT_STATUSES.map((status) => chip({ status }).look);
    expect(new Set(looks).size).toBe(CONTRACT_STATUSES.length);
  });

  it('in the editor shows Sent green and every other status neutral', () => {
    const sent = chip({ status: 'SENT' }).look;
    expect(chip({ status: 'SENT', neutralUnlessSent: true }).look).toBe(sent);
    const neutral = CONTRACT_STATUSES.filter((status) => status !== 'SENT').map((status) => chip({ status, neutralUnlessSent: true }).look);
    expect(new Set(neutral)).toEqual(new Set([chip({ status: 'DRAFT' }).look]));
    expect(neutral).not.toContain(sent);
  });

  it('lets the keyboard reach the Error chip, whose tooltip is the error message', async () => {
    const user = userEvent.setup();
    render(
      <FluentProvider theme={webLightTheme}>
        <button type="button">Before</button>
        <CampaignStatusBadge status="ERROR" errorMessage="Daily sending quota exceeded" />
      </FluentProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByText('Error'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Daily sending quota exceeded');
  });

  it("says 'Sending stopped' for an error without a message, and no other chip takes the focus", () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <CampaignStatusBadge status="ERROR" errorMessage={null} />
        {CONTRACT_STATUSES.filter((status) => status !== 'ERROR').map((status) => (
          <CampaignStatusBadge key={status} status={status} />
        ))}
      </FluentProvider>,
    );
    const error = screen.getByText('Error');
    expect(document.getElementById(error.getAttribute('aria-describedby')!)?.textContent).toBe(SENDING_STOPPED);
    for (const status of CONTRACT_STATUSES.filter((s) => s !== 'ERROR')) {
      expect(screen.getByText(LABELS[status]).getAttribute('tabindex'), status).toBeNull();
    }
  });

  it('says a sending campaign paused at the daily quota is paused, and when it resumes in local time, in a look of its own', () => {
    // 09:05 in the machine's own zone, whatever it is: the chip shows local time.
    const until = new Date(2026, 10, 29, 9, 5).toISOString();
    const sending = chip({ status: 'SENDING' }).look;
    const view = render(
      <FluentProvider theme={webLightTheme}>
        <CampaignStatusBadge status="SENDING" quotaPausedUntil={until} />
      </FluentProvider>,
    );
    const paused = view.getByText('Paused: daily quota reached, resumes at 09:05', { exact: true });
    expect(quotaPausedText(until)).toBe('Paused: daily quota reached, resumes at 09:05');
    expect(paused.className).not.toBe(sending);
    expect(view.queryByText('Sending')).toBeNull();
    view.unmount();
    // Not paused (null), or not sending any more: the status's own chip.
    expect(chip({ status: 'SENDING', quotaPausedUntil: null }).look).toBe(sending);
    expect(chip({ status: 'SENT', quotaPausedUntil: until }).element.textContent).toBe('Sent');
  });

  it("says a campaign held by the warm-up plan waits for the next day's volume, with the exact minute it resumes", () => {
    const until = new Date(2026, 10, 30, 1, 0).toISOString();
    const minute = new Date(2026, 10, 29, 14, 37).toISOString();
    const view = render(
      <FluentProvider theme={webLightTheme}>
        <CampaignStatusBadge status="SENDING" quotaPausedUntil={until} pausedFor="WARM_UP" />
        <CampaignStatusBadge status="SENDING" quotaPausedUntil={minute} pausedFor="DAILY_QUOTA" />
      </FluentProvider>,
    );
    expect(view.getByText('Paused: warm-up volume for today reached, resumes at 01:00', { exact: true })).toBeTruthy();
    // The daily quota's time is to the minute, not the hour.
    expect(view.getByText('Paused: daily quota reached, resumes at 14:37', { exact: true })).toBeTruthy();
    expect(view.queryByText(/Sending/)).toBeNull();
    view.unmount();
  });
});
