import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, campaign, createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const newsletter = audience({ id: 7, name: 'Newsletter', numberOfContacts: 10 });
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

/**
 * The accordion section's heading, found by its title. Awaited: for a moment after a dialog closes,
 * Fluent keeps the page hidden from assistive technology.
 */
async function section(title: string) {
  const headings = await screen.findAllByRole('heading', { level: 2 });
  const heading = headings.find((h) => within(h).queryByText(title, { exact: true }));
  if (!heading) throw new Error(`No section ${title}`);
  return heading;
}
const sectionState = async (title: string) =>
  within(await section(title))
    .getByRole('img')
    .getAttribute('aria-label');
/** Opens (or closes) a section by its header button. */
const toggleSection = async (user: ReturnType<typeof renderApp>['user'], title: string) =>
  user.click(within(await section(title)).getByRole('button'));
const SECTIONS = ['To', 'From', 'Subject', 'Content'];

describe('Campaign editor', () => {
  it('shows the draft email with its header, name, actions, four sections with their done icons and the optional A/B test', async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...complete, subject: null, fromName: null })], templates: [welcome] });
    renderApp('/campaigns/edit/2', api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Draft Email' })).toBeTruthy();
    expect(screen.getByText('Draft')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Finish later' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect((screen.getByLabelText('Campaign name') as HTMLInputElement).value).toBe('Autumn appeal');
    expect(screen.getByRole('button', { name: 'Send test email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Preview Campaign' })).toBeTruthy();
    const titles = screen
      .getAllByRole('heading', { level: 2 })
      .map((h) => [...SECTIONS, 'A/B test'].find((title) => within(h).queryByText(title, { exact: true })));
    expect(titles).toEqual([...SECTIONS, 'A/B test']);
    expect(await sectionState('To')).toBe('done');
    expect(await sectionState('From')).toBe('not done');
    expect(await sectionState('Subject')).toBe('not done');
    expect(await sectionState('Content')).toBe('done');
    expect(within(await section('To')).getByText('Newsletter')).toBeTruthy();
    expect(within(await section('Content')).getByText('Welcome')).toBeTruthy();
  });

  it('marks each section done as it is filled in', async () => {
    const api = createFakeApi({ campaigns: [empty], audiences: [newsletter], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/1', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    expect(await Promise.all(SECTIONS.map(sectionState))).toEqual(['not done', 'not done', 'not done', 'not done']);

    await user.type(screen.getByLabelText('Subject'), 'Hello');
    expect(await sectionState('Subject')).toBe('done');

    await user.type(screen.getByLabelText('Name'), 'Mia');
    expect(await sectionState('From')).toBe('not done');
    const email = screen.getByLabelText('Email') as HTMLSelectElement;
    await waitFor(() => expect(email.disabled).toBe(false));
    expect([...email.options].map((o) => o.value)).toEqual(['', 'news@example.org', 'events@example.org']);
    await user.selectOptions(email, 'events@example.org');
    expect(await sectionState('From')).toBe('done');

    await user.click(await screen.findByRole('button', { name: 'Choose audience' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Choose an audience' })).getByRole('button', { name: 'Select Newsletter' }),
    );
    expect(await sectionState('To')).toBe('done');
    expect(within(await section('To')).getByText('Newsletter')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Newsletter' }).getAttribute('href')).toBe('/audiences/7');

    await user.click(await screen.findByRole('button', { name: 'Choose template' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Choose a template' })).getByRole('button', { name: 'Select Welcome' }),
    );
    expect(await sectionState('Content')).toBe('done');
  });

  it('shows a stored sender address that is no longer authorized as not chosen', async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...complete, fromEmail: 'old@example.org' })], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    await toggleSection(user, 'From');
    expect(await screen.findByText('old@example.org is no longer an authorized address; choose another.')).toBeTruthy();
    expect(await sectionState('From')).toBe('not done');
  });

  it("says 'No Campaign Found!' with a way back for an unknown or malformed id", async () => {
    const api = createFakeApi();
    const { user, location, unmount } = renderApp('/campaigns/edit/99', api);
    expect(await screen.findByRole('heading', { name: 'No Campaign Found!' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Back to Campaigns' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    unmount();

    renderApp('/campaigns/edit/abc', api);
    expect(await screen.findByRole('heading', { name: 'No Campaign Found!' })).toBeTruthy();
    expect(api.calls('GET', '/api/campaigns/abc')).toHaveLength(0);
  });

  it('shows why the campaign could not be loaded, with a retry', async () => {
    const api = createFakeApi({ campaigns: [empty] });
    let fail = true;
    api.on('GET', /^\/api\/campaigns\/1$/, () => (fail ? api.json(500, { message: 'Database is down' }) : undefined));
    const { user } = renderApp('/campaigns/edit/1', api);
    expect(await screen.findByText('Database is down')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Draft Email' })).toBeTruthy();
  });

  it('shows a campaign that is no longer a draft without letting it be edited or sent', async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...complete, status: 'SENT' })], templates: [welcome] });
    renderApp('/campaigns/edit/2', api);
    expect(await screen.findByText(/This campaign is sent and can no longer be edited/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View report' }).getAttribute('href')).toBe('/campaigns/reports/2');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Finish later' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Preview Campaign' }).matches(':disabled')).toBe(false);
  });

  it("titles a campaign no longer a draft by what it is, not 'Draft Email', and its controls look disabled", async () => {
    const api = createFakeApi({ campaigns: [campaign({ ...complete, status: 'SENT' })], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaign' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Draft Email' })).toBeNull();
    expect(screen.getByText('Sent')).toBeTruthy();
    // Fluent's own disabled (its look, its attribute), not merely a fieldset that silences a control drawn as enabled.
    const controls = [
      screen.getByRole('button', { name: 'Change audience' }),
      screen.getByRole('button', { name: 'Change template' }),
      screen.getByLabelText('Campaign name'),
      screen.getByLabelText('Name'),
      screen.getByLabelText('Email'),
      screen.getByLabelText('Subject'),
      screen.getByLabelText('Preview text'),
    ];
    for (const control of controls) expect(control.hasAttribute('disabled'), control.outerHTML.slice(0, 80)).toBe(true);
    // The sections still open and close: reading them is not editing.
    const to = within(await section('To')).getByRole('button');
    expect(to.matches(':disabled')).toBe(false);
    await user.click(to);
    expect(to.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('Pickers', () => {
  const audiences = Array.from({ length: 23 }, (_, i) => audience({ id: i + 1, name: `Audience ${i + 1}`, numberOfContacts: i }));

  it('page the audiences from page 1 at 10 per page and search by name from page 1', async () => {
    const api = createFakeApi({ campaigns: [empty], audiences });
    const { user } = renderApp('/campaigns/edit/1', api);
    await user.click(await screen.findByRole('button', { name: 'Choose audience' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose an audience' });
    expect(await within(dialog).findByText('1–10 of 23')).toBeTruthy();
    expect(api.calls('GET', '/api/audiences')[0]!.query.toString()).toBe('page=1&limit=10');

    await user.click(within(dialog).getByRole('button', { name: 'Next page' }));
    expect(await within(dialog).findByText('11–20 of 23')).toBeTruthy();
    expect(api.calls('GET', '/api/audiences').at(-1)!.query.toString()).toBe('page=2&limit=10');

    await user.type(within(dialog).getByLabelText('Search audiences by name'), ' Audience 2{Enter}');
    expect(await within(dialog).findByText('1–5 of 5')).toBeTruthy();
    expect(api.calls('GET', '/api/audiences').at(-1)!.query.toString()).toBe('page=1&limit=10&name=Audience+2');
    expect(within(dialog).getByText('Audience 23')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('Search audiences by name'));
    await user.type(within(dialog).getByLabelText('Search audiences by name'), 'nobody');
    await user.click(within(dialog).getByRole('button', { name: 'Search' }));
    expect(await within(dialog).findByText('No audiences match “nobody”')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await sectionState('To')).toBe('not done');
  });

  it('page and search the templates the same way, marking the chosen one', async () => {
    const templates = Array.from({ length: 12 }, (_, i) => template({ id: i + 1, name: `Template ${i + 1}` }));
    const api = createFakeApi({
      campaigns: [campaign({ ...empty, templateId: 2, template: { id: 2, name: 'Template 2', html: '', preview: null } })],
      templates,
    });
    const { user } = renderApp('/campaigns/edit/1', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    await toggleSection(user, 'Content');
    await user.click(await screen.findByRole('button', { name: 'Change template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a template' });
    expect(await within(dialog).findByText('1–10 of 12')).toBeTruthy();
    expect(api.calls('GET', '/api/templates')[0]!.query.toString()).toBe('page=1&limit=10');
    expect(within(dialog).getByRole('button', { name: 'Select Template 2' }).textContent).toContain('Selected');
    expect(within(dialog).queryByRole('link')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Last page' }));
    expect(await within(dialog).findByText('11–12 of 12')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Search templates by name'), 'template 1{Enter}');
    expect(await within(dialog).findByText('1–4 of 4')).toBeTruthy();
    expect(api.calls('GET', '/api/templates').at(-1)!.query.toString()).toBe('page=1&limit=10&name=template+1');
    await user.click(within(dialog).getByRole('button', { name: 'Select Template 11' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(await section('Content')).getByText('Template 11')).toBeTruthy();
  });

  it("shows the templates' last edit to the minute, as the templates list does (docs/product.md, Limits and constants)", async () => {
    const edited = template({ id: 4, name: 'Welcome back', updatedAt: new Date(2024, 2, 4, 15, 20, 30).toISOString() });
    const api = createFakeApi({ campaigns: [empty], templates: [edited] });
    const { user } = renderApp('/campaigns/edit/1', api);
    await user.click(await screen.findByRole('button', { name: 'Choose template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a template' });
    const row = (await within(dialog).findByText('Welcome back')).closest('tr')!;
    expect(within(row).getByText('2024-03-04 15:20 PM')).toBeTruthy();
    expect(row.textContent).not.toContain('15:20:30');
  });
});

describe('Unsaved changes', () => {
  const unload = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('asks before the tab closes while the editor holds unsaved changes', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    const name = await screen.findByLabelText('Campaign name');
    expect(unload()).toBe(false);
    await user.type(name, ' 2');
    expect(unload()).toBe(true);
    await user.type(name, '{Backspace}{Backspace}');
    expect(unload()).toBe(false);
  });
});

describe('Finish later', () => {
  it('saves every field and goes back to the campaigns', async () => {
    const api = createFakeApi({ campaigns: [complete], audiences: [newsletter], templates: [welcome] });
    const { user, location } = renderApp('/campaigns/edit/2', api);
    const name = await screen.findByLabelText('Campaign name');
    await user.clear(name);
    await user.type(name, '  Autumn appeal 2025 ');
    await user.click(screen.getByRole('button', { name: 'Finish later' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    expect(api.calls('PUT', '/api/campaigns/2')[0]!.body).toEqual({
      name: 'Autumn appeal 2025',
      audienceId: 7,
      audienceName: 'Newsletter',
      fromName: 'Mia Member',
      fromEmail: 'news@example.org',
      subject: 'Autumn news',
      previewText: 'What we did',
      templateId: 3,
      segmentId: null,
    });
  });

  it('sends cleared fields as null', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    const { user, location } = renderApp('/campaigns/edit/2', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    await toggleSection(user, 'Subject');
    await user.clear(await screen.findByLabelText('Preview text'));
    await user.click(screen.getByRole('button', { name: 'Finish later' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns'));
    expect(api.calls('PUT', '/api/campaigns/2')[0]!.body).toMatchObject({ previewText: null, subject: 'Autumn news' });
  });

  it('keeps the editor open and says why when the save fails', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    api.on('PUT', /^\/api\/campaigns\/2$/, () => api.json(400, { message: 'subject must not contain line breaks' }));
    const { user, location, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Finish later' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'subject must not contain line breaks'));
    expect(location().pathname).toBe('/campaigns/edit/2');
  });

  it('will not save a blank name', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.clear(await screen.findByLabelText('Campaign name'));
    expect(screen.getByText('Fill your campaign name')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Finish later' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Send test email', () => {
  it('needs a template, subject and sender first, but no audience', async () => {
    const api = createFakeApi({ campaigns: [{ ...complete, audienceId: null, audienceName: null, subject: null }], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Error' });
    expect(within(dialog).getByText('Please input email subject')).toBeTruthy();
  });

  it('sends the campaign as it stands to comma-separated addresses', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    await screen.findByRole('heading', { name: 'Draft Email' });
    await toggleSection(user, 'Subject');
    await user.clear(await screen.findByLabelText('Subject'));
    await user.type(screen.getByLabelText('Subject'), 'Unsaved subject');
    await user.click(screen.getByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    const addresses = within(dialog).getByLabelText(/Email addresses/);

    await user.type(addresses, 'ann@example.org, not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Send test' }));
    expect(within(dialog).getByText('Not an email address: not-an-address')).toBeTruthy();
    expect(api.calls('POST', '/api/campaigns/send-test-email')).toHaveLength(0);

    await user.clear(addresses);
    await user.type(addresses, ' ann@example.org,bob@example.org , ,ann@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', '/api/campaigns/send-test-email')[0]!.body).toEqual({
      emails: ['ann@example.org', 'bob@example.org'],
      fromEmail: 'news@example.org',
      fromName: 'Mia Member',
      subject: 'Unsaved subject',
      previewText: 'What we did',
      templateId: 3,
      audienceId: 7,
    });
    expect(notify).toHaveBeenCalledWith('success', 'Test email sent to ann@example.org, bob@example.org');
  });

  it('sends without an audience, the merge tags then left empty', async () => {
    const api = createFakeApi({ campaigns: [{ ...complete, audienceId: null, audienceName: null }], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    await user.type(within(dialog).getByLabelText(/Email addresses/), 'ann@example.org{Enter}');
    await waitFor(() => expect(api.calls('POST', '/api/campaigns/send-test-email')).toHaveLength(1));
    expect(api.calls('POST', '/api/campaigns/send-test-email')[0]!.body).not.toHaveProperty('audienceId');
  });

  it('keeps the dialog open when the test send fails', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    api.on('POST', /send-test-email$/, () => api.json(429, { message: 'Too many test emails' }));
    const { user, notify } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    await user.type(within(dialog).getByLabelText(/Email addresses/), 'ann@example.org{Enter}');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Too many test emails'));
    expect(screen.getByRole('dialog', { name: 'Send test email' })).toBeTruthy();
  });

  it('asks for at least one address', async () => {
    const api = createFakeApi({ campaigns: [complete], templates: [welcome] });
    const { user } = renderApp('/campaigns/edit/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send test email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test email' });
    await user.type(within(dialog).getByLabelText(/Email addresses/), ' , ');
    await user.click(within(dialog).getByRole('button', { name: 'Send test' }));
    expect(within(dialog).getByText('Enter at least one email address')).toBeTruthy();
  });
});
