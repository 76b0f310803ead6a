import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, campaign, contact, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const newsletter = audience({ id: 7, name: 'Newsletter', numberOfContacts: 3, numberOfContactsWithErrors: 1 });
const contacts = {
  7: [contact(11, 'ann@example.org', { fullName: 'Ann Smith' }), contact(12, 'bob@example.org'), contact(13, 'carl@', {}, 'Invalid email')],
};
// The script must never run in the app: the frame's empty sandbox forbids it.
const welcome = template({ id: 3, name: 'Welcome', html: '<p>Hi {{fullName}}</p><script>parent.document.title = "hacked"</script>' });
const spring = campaign({
  id: 1,
  name: 'Spring appeal',
  audienceId: 7,
  audienceName: 'Newsletter',
  subject: 'News for {{fullName}}',
  previewText: 'Read on',
  templateId: 3,
  template: { id: 3, name: 'Welcome', html: welcome.html, preview: null },
});

async function openPreview(api: ReturnType<typeof createFakeApi>) {
  const view = renderApp('/campaigns/edit/1', api);
  await view.user.click(await view.findByRole('button', { name: 'Preview Campaign' }));
  return { ...view, dialog: await screen.findByRole('dialog', { name: 'Preview Campaign' }) };
}

const frame = (dialog: HTMLElement) => dialog.querySelector('iframe')!;

describe('Preview Campaign', () => {
  it('needs a template first', async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...spring, templateId: null, template: null })], audiences: [newsletter] });
    const { user } = renderApp('/campaigns/edit/1', api);
    await user.click(await screen.findByRole('button', { name: 'Preview Campaign' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Error' });
    expect(within(dialog).getByText('Please select a template')).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/test-render-email')).toHaveLength(0);
  });

  it('renders the email for the first contact in a sandboxed frame, with subject, preview text and audience', async () => {
    const api = createFakeApi({ campaigns: [spring], audiences: [newsletter], contacts, templates: [welcome] });
    const { dialog } = await openPreview(api);
    await waitFor(() => expect(frame(dialog).getAttribute('srcdoc')).toContain('<p>Hi Ann Smith</p>'));
    expect(frame(dialog).getAttribute('sandbox')).toBe('');
    expect(frame(dialog).getAttribute('title')).toBe('Email as ann@example.org receives it');
    expect(document.title).not.toBe('hacked');
    expect(api.calls('POST', '/api/campaigns/test-render-email')[0]!.body).toEqual({
      templateId: 3,
      contactId: 11,
      subject: 'News for {{fullName}}',
      previewText: 'Read on',
    });
    expect(within(dialog).getByText('News for Ann Smith')).toBeTruthy();
    expect(within(dialog).getByText('Read on')).toBeTruthy();
    expect(within(dialog).getByText('Newsletter')).toBeTruthy();
  });

  it('lists the valid contacts ten at a time and renders for the one chosen', async () => {
    const api = createFakeApi({ campaigns: [spring], audiences: [newsletter], contacts, templates: [welcome] });
    const { user, dialog } = await openPreview(api);
    const table = await within(dialog).findByRole('table', { name: 'Contacts' });
    expect(api.calls('GET', '/api/audiences/7/contacts')[0]!.query.toString()).toBe('page=1&limit=10&hasError=false');
    expect(within(table).getByText('ann@example.org')).toBeTruthy();
    expect(within(table).getByText('bob@example.org')).toBeTruthy();
    expect(within(table).queryByText('carl@')).toBeNull();
    const sizes = within(dialog).getByLabelText('Rows per page') as HTMLSelectElement;
    expect(sizes.value).toBe('10');
    expect([...sizes.options].map((o) => o.value)).toEqual(['5', '10', '25', '50']);

    await user.click(within(table).getByRole('button', { name: 'Preview for bob@example.org' }));
    await waitFor(() => expect(frame(dialog).getAttribute('title')).toBe('Email as bob@example.org receives it'));
    await waitFor(() => expect(frame(dialog).getAttribute('srcdoc')).toContain('<p>Hi </p>'));
    expect(api.calls('POST', '/api/campaigns/test-render-email').at(-1)!.body).toMatchObject({ contactId: 12 });
    expect(within(table).getByRole('button', { name: 'Preview for bob@example.org' }).getAttribute('aria-pressed')).toBe('true');
    // Label in name (WCAG 2.5.3): each button's name starts with the text it shows, pressed or not.
    for (const button of within(table).getAllByRole('button')) {
      expect(button.getAttribute('aria-label')!.startsWith(button.textContent!.trim())).toBe(true);
    }

    await user.selectOptions(sizes, '5');
    await waitFor(() =>
      expect(api.calls('GET', '/api/audiences/7/contacts').at(-1)!.query.toString()).toBe('page=1&limit=5&hasError=false'),
    );
  });

  it('shows the validation banner and the contacts with missing fields', async () => {
    const api = createFakeApi({ campaigns: [spring], audiences: [newsletter], contacts, templates: [welcome] });
    const { dialog } = await openPreview(api);
    expect(await within(dialog).findByText(/1 contact lacks fields this email uses/)).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/validate-campaign')[0]!.body).toEqual({
      templateId: 3,
      audienceId: 7,
      subject: 'News for {{fullName}}',
      previewText: 'Read on',
    });
    const missing = within(dialog).getByRole('table', { name: 'Contacts with missing fields' });
    expect(
      within(missing)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Email', 'Missing Fields']);
    const row = within(missing).getByText('bob@example.org').closest('tr')!;
    expect(within(row).getByText('fullName')).toBeTruthy();
  });

  it('names a tag the audience has no field for, which Send refuses, apart from contacts lacking a value', async () => {
    const typed = audience({
      id: 7,
      name: 'Newsletter',
      headers: ['email', 'fullName'],
      numberOfContacts: 3,
      numberOfContactsWithErrors: 1,
    });
    const nickname = template({ id: 3, name: 'Welcome', html: '<p>Hi {{fullName}} {{nickname}}</p>' });
    const api = createFakeApi({ campaigns: [spring], audiences: [typed], contacts, templates: [nickname] });
    const { dialog } = await openPreview(api);
    const banner = await within(dialog).findByText(/The audience has no field for/);
    expect(banner.closest('[role="group"], div')!.textContent).toContain(
      'The audience has no field for {{nickname}}. Send is refused until the audience has it or the tag gets a fallback, such as {{nickname|friend}}.',
    );
    expect(within(dialog).getByText('Merge tags the audience does not have')).toBeTruthy();
  });

  it('names no lacking tag when the audience has every field the email uses', async () => {
    const typed = audience({
      id: 7,
      name: 'Newsletter',
      headers: ['email', 'fullName'],
      numberOfContacts: 3,
      numberOfContactsWithErrors: 1,
    });
    const api = createFakeApi({ campaigns: [spring], audiences: [typed], contacts, templates: [welcome] });
    const { dialog } = await openPreview(api);
    expect(await within(dialog).findByText(/1 contact lacks fields this email uses/)).toBeTruthy();
    await waitFor(() => expect(api.calls('GET', '/api/audiences/7/fields')).toHaveLength(1));
    expect(within(dialog).queryByText('Merge tags the audience does not have')).toBeNull();
  });

  it('says how many valid contacts are suppressed and will be skipped, as the send confirmation does', async () => {
    const api = createFakeApi({
      campaigns: [spring],
      audiences: [newsletter],
      contacts,
      templates: [welcome],
      suppressed: { 7: { suppressedContacts: 2, unsubscribed: 0, hardBounced: 1, complained: 1 } },
    });
    const { dialog } = await openPreview(api);
    expect(
      await within(dialog).findByText(
        "2 of the audience's valid contacts are suppressed and will be skipped (1 bounced for good, 1 complained).",
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('Suppressed contacts')).toBeTruthy();
    expect(api.calls('GET', '/api/audiences/7/suppressed-contacts')).toHaveLength(1);
  });

  it('says nothing of suppressed contacts when there are none', async () => {
    const api = createFakeApi({ campaigns: [spring], audiences: [newsletter], contacts, templates: [welcome] });
    const { dialog } = await openPreview(api);
    expect(await within(dialog).findByText(/1 contact lacks fields this email uses/)).toBeTruthy();
    await waitFor(() => expect(api.calls('GET', '/api/audiences/7/suppressed-contacts')).toHaveLength(1));
    expect(within(dialog).queryByText('Suppressed contacts')).toBeNull();
  });

  it('says so when every contact has the fields', async () => {
    const plain = template({ id: 3, name: 'Welcome', html: '<p>Hello</p>' });
    const api = createFakeApi({ campaigns: [{ ...spring, subject: 'News' }], audiences: [newsletter], contacts, templates: [plain] });
    const { dialog } = await openPreview(api);
    expect(await within(dialog).findByText('Every contact has the fields this email uses.')).toBeTruthy();
    expect(within(dialog).queryByRole('table', { name: 'Contacts with missing fields' })).toBeNull();
  });

  it('previews without an audience, with the tags left empty', async () => {
    const api = createFakeApi({ campaigns: [{ ...spring, audienceId: null, audienceName: null }], templates: [welcome] });
    const { dialog } = await openPreview(api);
    await waitFor(() => expect(frame(dialog).getAttribute('srcdoc')).toContain('<p>Hi </p>'));
    expect(api.calls('POST', '/api/campaigns/test-render-email')[0]!.body).not.toHaveProperty('contactId');
    expect(within(dialog).getByText('No audience chosen')).toBeTruthy();
    expect(within(dialog).getByText(/Choose an audience to check its contacts/)).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/validate-campaign')).toHaveLength(0);
    expect(within(dialog).queryByRole('table', { name: 'Contacts' })).toBeNull();
  });

  it('shows a render failure with a retry, and closes', async () => {
    const api = createFakeApi({ campaigns: [spring], audiences: [newsletter], contacts, templates: [welcome] });
    let fail = true;
    api.on('POST', /test-render-email$/, () => (fail ? api.json(500, { message: 'Renderer unavailable' }) : undefined));
    const { user, dialog } = await openPreview(api);
    expect(await within(dialog).findByText('Renderer unavailable')).toBeTruthy();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(frame(dialog).getAttribute('srcdoc')).toContain('Hi Ann Smith'));
    await user.click(within(dialog).getByRole('button', { name: 'Close preview' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
