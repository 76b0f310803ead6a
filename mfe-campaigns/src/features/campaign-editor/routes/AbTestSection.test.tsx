/**
 * The editor's "A/B test" section (issue 28): off until switched on; two to four variants of subject, preview
 * text, sender name or template, saved with the test share, the wait, the measure and the default; a variant that
 * changes nothing is refused before anything is sent; switching off removes a saved test; a sent campaign's test is
 * shown, not edited.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { abTestOf, audience, campaign, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const welcome = template({ id: 3, name: 'Welcome', html: '<p>Hi</p>' });
const bold = template({ id: 4, name: 'Bold layout', html: '<p>HI</p>' });
const draft = campaign({
  id: 2,
  name: 'Autumn appeal',
  audienceId: 7,
  audienceName: 'Newsletter',
  fromName: 'Mia Member',
  fromEmail: 'news@example.org',
  subject: 'Autumn news',
  templateId: 3,
  template: { id: 3, name: 'Welcome', html: welcome.html, preview: null },
});
const saved = abTestOf({
  testShare: 30,
  waitHours: 12,
  measure: 'PEOPLE_CLICKS',
  defaultVariant: 1,
  variants: [{ subject: 'Autumn is here' }, { fromName: 'The garden team' }],
});

const setup = (init: Parameters<typeof createFakeApi>[0] = {}) => {
  const api = createFakeApi({
    campaigns: [draft],
    audiences: [audience({ id: 7, name: 'Newsletter', numberOfContacts: 10 })],
    templates: [welcome, bold],
    ...init,
  });
  return { api, ...renderApp('/campaigns/edit/2', api) };
};

async function openSection(user: ReturnType<typeof renderApp>['user']) {
  const headings = await screen.findAllByRole('heading', { level: 2 });
  const header = within(headings.find((h) => within(h).queryByText('A/B test', { exact: true }))!).getByRole('button');
  if (header.getAttribute('aria-expanded') !== 'true') await user.click(header);
  return screen.findByRole('switch', { name: 'Test variants of this campaign' });
}

describe('The campaign editor: an A/B test', () => {
  it('is off at first; switched on, its variants and settings are saved as the API takes them', async () => {
    const { api, user } = setup();
    const toggle = await openSection(user);
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByRole('group', { name: 'Variant A' })).toBeNull();
    await user.click(toggle);
    await user.type(screen.getByRole('textbox', { name: 'Subject of variant A' }), 'Autumn');
    await user.type(screen.getByRole('textbox', { name: 'Preview text of variant B' }), 'Trees');
    await user.click(screen.getByRole('button', { name: 'Add variant' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Template of variant C' }), '4');
    expect(screen.queryByRole('button', { name: 'Add variant' })).not.toBeNull();
    const share = screen.getByRole('spinbutton', { name: 'Test share (%)' });
    await user.clear(share);
    await user.type(share, '30');
    await user.click(screen.getByRole('radio', { name: "People's clicks" }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'When no variant wins at 95 % confidence, send' }), '2');
    await user.click(screen.getByRole('button', { name: 'Save A/B test' }));
    await waitFor(() => expect(api.calls('PUT', '/api/campaigns/2/ab-test')).toHaveLength(1));
    expect(api.calls('PUT', '/api/campaigns/2/ab-test')[0]!.body).toEqual({
      testShare: 30,
      waitHours: 4,
      measure: 'PEOPLE_CLICKS',
      defaultVariant: 2,
      variants: [
        { subject: 'Autumn', previewText: null, fromName: null, templateId: null },
        { subject: null, previewText: 'Trees', fromName: null, templateId: null },
        { subject: null, previewText: null, fromName: null, templateId: 4 },
      ],
    });
    expect(await screen.findByText(/3 variants to 30 % of the recipients; after 4 h the winner by people's clicks/)).toBeTruthy();
    // Many steps of typing and clicking: slow on a loaded machine.
  }, 60_000);

  it('refuses a variant that changes nothing, and a share out of bounds, before sending anything', async () => {
    const { api, user } = setup();
    await user.click(await openSection(user));
    await user.type(screen.getByRole('textbox', { name: 'Subject of variant A' }), 'Autumn');
    await user.click(screen.getByRole('button', { name: 'Save A/B test' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Variant B changes nothing: give it a subject, preview text, sender name or template.',
    );
    await user.type(screen.getByRole('textbox', { name: 'Sender name of variant B' }), 'Team');
    const share = screen.getByRole('spinbutton', { name: 'Test share (%)' });
    await user.clear(share);
    await user.type(share, '60');
    await user.click(screen.getByRole('button', { name: 'Save A/B test' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The test share is a whole percent from 10 to 50.');
    expect(api.calls('PUT', '/api/campaigns/2/ab-test')).toHaveLength(0);
  });

  it('shows a saved test, and removes it when switched off', async () => {
    const { api, user } = setup({ abTests: { 2: saved } });
    const toggle = await openSection(user);
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Subject of variant A' }) as HTMLInputElement).value).toBe('Autumn is here');
    expect((screen.getByRole('textbox', { name: 'Sender name of variant B' }) as HTMLInputElement).value).toBe('The garden team');
    expect((screen.getByRole('radio', { name: "People's clicks" }) as HTMLInputElement).checked).toBe(true);
    await user.click(toggle);
    await waitFor(() => expect(api.calls('DELETE', '/api/campaigns/2/ab-test')).toHaveLength(1));
    expect(api.abTests.has(2)).toBe(false);
  });

  it("shows a sent campaign's test without letting it change", async () => {
    const { user } = setup({ campaigns: [{ ...draft, status: 'SENDING' }], abTests: { 2: { ...saved, phase: 'TESTING' } } });
    const toggle = await openSection(user);
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Subject of variant A' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save A/B test' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add variant' })).toBeNull();
  });
});

describe('The campaign editor: a test mail of an A/B test variant', () => {
  it('lets the member pick the variant the test mail is, and sends it with the campaign', async () => {
    const { api, user, notify } = setup({ abTests: { 2: saved } });
    await user.click(await screen.findByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    const picker = within(dialog).getByRole('combobox', { name: /Variant/ });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Variant A: subject “Autumn is here”', 'Variant B: sender name “The garden team”']);
    expect((picker as HTMLSelectElement).value).toBe('0');
    await user.selectOptions(picker, '1');
    await user.type(within(dialog).getByLabelText(/Email addresses/), 'ann@example.org{Enter}');
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/send-test-email')).toHaveLength(1));
    expect(api.calls('POST', '/api/campaigns/send-test-email')[0]!.body).toEqual({
      emails: ['ann@example.org'],
      fromEmail: 'news@example.org',
      fromName: 'Mia Member',
      subject: 'Autumn news',
      templateId: 3,
      audienceId: 7,
      campaignId: 2,
      variant: 1,
    });
    expect(notify).toHaveBeenCalledWith('success', 'Test email sent to ann@example.org');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send test email' })).toBeNull());

    // Opened again, it starts afresh: no address, variant A. (hidden: jsdom leaves the page aria-hidden a
    // while after a dialog closes, which no browser does; the e2e walk checks the page in a browser.)
    await user.click(screen.getByRole('button', { name: 'Send test email', hidden: true }));
    const again = await screen.findByRole('dialog', { name: 'Send test email', hidden: true });
    expect((within(again).getByLabelText(/Email addresses/) as HTMLInputElement).value).toBe('');
    expect((within(again).getByRole('combobox', { name: /Variant/, hidden: true }) as HTMLSelectElement).value).toBe('0');
  });

  it('offers no variant when the campaign has no A/B test', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    expect(within(dialog).queryByRole('combobox', { name: /Variant/ })).toBeNull();
  });
});
