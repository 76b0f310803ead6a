import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConsentRecordEntry } from '@mailroom/api-client';
import { formatDateTime } from '@mailroom/ui';
import { describe, expect, it } from 'vitest';
import { ConsentHistory } from './ConsentHistory';

const entry = (id: number, overrides: Partial<ConsentRecordEntry>): ConsentRecordEntry => ({
  id,
  at: new Date(Date.UTC(2026, 10, id, 9)).toISOString(),
  event: 'IMPORTED',
  audienceId: 4,
  formId: null,
  formName: null,
  consentVersion: null,
  wording: null,
  memberEmail: null,
  lawfulBasis: null,
  clientAddress: null,
  contacts: null,
  detail: null,
  ...overrides,
});

const renderHistory = (entries: ConsentRecordEntry[]) =>
  render(
    <FluentProvider theme={webLightTheme}>
      <ConsentHistory entries={entries} />
    </FluentProvider>,
  );

describe('ConsentHistory', () => {
  it('lists each entry oldest first with its time and what happened in words, never a code', async () => {
    const entries = [
      entry(1, { event: 'IMPORTED', memberEmail: 'mia@example.org', lawfulBasis: 'LEGITIMATE_INTEREST', contacts: 1200 }),
      entry(2, {
        event: 'CONFIRMED',
        formId: 3,
        formName: 'Newsletter',
        consentVersion: 2,
        wording: 'I agree to receive the newsletter.',
        clientAddress: '192.0.2.1',
      }),
      entry(3, { event: 'SUPPRESSED', audienceId: null, detail: { reason: 'HARD_BOUNCE' } }),
      entry(4, { event: 'ADDED', memberEmail: 'kim@example.org' }),
    ];
    renderHistory(entries);
    const items = within(screen.getByRole('list', { name: 'Consent history' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `${formatDateTime(entries[0]!.at)} Imported by mia@example.orglawful basis: Legitimate interest · 1,200 contacts`,
      `${formatDateTime(entries[1]!.at)} Confirmed via form Newsletterfrom 192.0.2.1Read the wording (version 2)`,
      `${formatDateTime(entries[2]!.at)} Suppressed (hard bounce)for every audience`,
      `${formatDateTime(entries[3]!.at)} Added by kim@example.orglawful basis: not stated`,
    ]);
    for (const code of ['IMPORTED', 'CONFIRMED', 'HARD_BOUNCE', 'LEGITIMATE_INTEREST'])
      expect(document.body.textContent).not.toContain(code);
  });

  it('shows the wording the person agreed to on demand', async () => {
    const user = userEvent.setup();
    renderHistory([entry(1, { event: 'SUBSCRIBED', formName: 'Newsletter', consentVersion: 5, wording: 'Yes, mail me.' })]);
    const toggle = screen.getByRole('button', { name: 'Read the wording (version 5)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Yes, mail me.')).toBeNull();
    await user.click(toggle);
    expect(screen.getByText('Yes, mail me.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide the wording (version 5)' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('renders nothing without entries (the drawer then says how the contact came in, from before the ledger)', () => {
    const { container } = renderHistory([]);
    expect(container.querySelector('ol')).toBeNull();
  });
});
