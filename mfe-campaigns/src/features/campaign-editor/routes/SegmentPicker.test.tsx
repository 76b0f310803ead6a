/**
 * The To section's segment (issue 26): after the audience, "Whole audience" or one of its segments, saved as
 * segmentId; the send confirmation counts the segment's contacts and names it after the audience.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { Segment } from '@mailroom/api-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, campaign, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const welcome = template({ id: 3, name: 'Welcome', html: '<p>Hi</p>' });
const overForty: Segment = {
  id: 5,
  audienceId: 7,
  name: 'Over forty',
  rule: { combinator: 'and', rules: [{ field: 'fields.age', operator: 'greaterThan', value: 40 }] },
  createdAt: '2024-06-01T09:00:00.000Z',
  updatedAt: '2024-06-01T09:00:00.000Z',
};
const draft = campaign({
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

const setup = () => {
  const api = createFakeApi({
    campaigns: [draft],
    audiences: [audience({ id: 7, name: 'Newsletter', numberOfContacts: 10 }), audience({ id: 8, name: 'Donors' })],
    templates: [welcome],
    segments: [overForty],
    segmentCounts: { 5: 4 },
  });
  return { api, ...renderApp('/campaigns/edit/2', api) };
};

async function openTo(user: ReturnType<typeof renderApp>['user']) {
  const headings = await screen.findAllByRole('heading', { level: 2 });
  const header = within(headings.find((h) => within(h).queryByText('To', { exact: true }))!).getByRole('button');
  if (header.getAttribute('aria-expanded') !== 'true') await user.click(header);
  return screen.findByRole('combobox', { name: 'Segment' });
}

describe('The campaign editor: a segment of the audience', () => {
  it('offers the whole audience first, saves the chosen segment, and confirms the send with its count and name', async () => {
    const { api, user } = setup();
    const picker = await openTo(user);
    expect((picker as HTMLSelectElement).value).toBe('');
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Whole audience', 'Over forty']);
    await user.selectOptions(picker, '5');
    expect(await screen.findByText('Contacts who match: age is greater than 40')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send campaign' });
    expect(within(dialog).getByText('This campaign will be sent to 4 contacts of “Newsletter – Over forty”. Send it now?')).toBeTruthy();
    expect(api.calls('PUT', '/api/campaigns/2').at(-1)!.body).toMatchObject({ audienceId: 7, segmentId: 5 });
    expect(api.calls('POST', '/api/audiences/7/segment-count').at(-1)!.body).toEqual({ rule: overForty.rule });
  });

  it("names the segment in the preview, without the audience's suppressed count (the segment's leaves them out)", async () => {
    const { api, user } = setup();
    await user.selectOptions(await openTo(user), '5');
    await user.click(screen.getByRole('button', { name: 'Preview Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Preview Campaign' });
    const audienceTerm = within(dialog).getByText('Audience', { selector: 'dt' });
    expect(audienceTerm.nextElementSibling?.textContent).toBe('Newsletter – Over forty');
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/validate-campaign').length).toBeGreaterThan(0));
    expect(api.calls('GET', '/api/audiences/7/suppressed-contacts')).toHaveLength(0);
  });

  it('goes back to the whole audience when another audience is chosen', async () => {
    const { api, user } = setup();
    await user.selectOptions(await openTo(user), '5');
    await user.click(screen.getByRole('button', { name: 'Change audience' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Choose an audience' })).getByRole('button', { name: 'Select Donors' }),
    );
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Segment' }) as HTMLSelectElement).value).toBe(''));
    await user.click(screen.getByRole('button', { name: 'Finish later' }));
    await waitFor(() => expect(api.calls('PUT', '/api/campaigns/2').at(-1)?.body).toMatchObject({ audienceId: 8, segmentId: null }));
  });
});
