import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, template } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const PREVIEW = 'data:image/jpeg;base64,/9j/4AAQSkZJRg==';
const welcome = template({
  id: 1,
  name: 'Welcome',
  preview: PREVIEW,
  updatedAt: new Date(2024, 2, 4, 15, 20, 30).toISOString(),
  updatedByEmail: 'mia@example.org',
});
const newsletter = template({ id: 2, name: 'Newsletter' });
const appeal = template({ id: 3, name: 'Spring appeal' });

const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

describe('Templates list', () => {
  it('shows the title, Create Template, and rows with preview, name link, last edit and id', async () => {
    const api = createFakeApi({ templates: [welcome, newsletter] });
    renderApp('/templates', api);
    expect(screen.getByRole('heading', { level: 1, name: 'Templates' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Template' })).toBeTruthy();
    await screen.findByRole('table', { name: 'Templates' });

    const first = within(row('Welcome'));
    expect(first.getByRole('link', { name: 'Welcome' }).getAttribute('href')).toBe('/templates/edit/1');
    expect((first.getByRole('img', { name: 'Preview of Welcome' }) as HTMLImageElement).src).toBe(PREVIEW);
    expect(first.getByText('Last edited: on 2024-03-04 15:20 PM by mia@example.org')).toBeTruthy();
    expect(first.getByText('ID: 1')).toBeTruthy();
    // No preview until the first save made one.
    expect(within(row('Newsletter')).getByRole('img', { name: 'No preview of Newsletter yet' })).toBeTruthy();
    expect(api.calls('GET', '/api/templates')[0]!.query.toString()).toBe('page=1&limit=10');
  });

  it('reads page, limit and name from the query string and pages with the footer', async () => {
    const many = Array.from({ length: 12 }, (_, i) => template({ id: i + 1, name: `Template ${i + 1}` }));
    const api = createFakeApi({ templates: many });
    const { user, location } = renderApp('/templates?page=2&limit=5&name=Temp', api);
    await screen.findByText('6–10 of 12');
    expect(api.calls('GET', '/api/templates')[0]!.query.toString()).toBe('page=2&limit=5&name=Temp');
    expect((screen.getByLabelText('Search by name') as HTMLInputElement).value).toBe('Temp');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(location().search).toBe('?page=3&limit=5&name=Temp'));
    expect(await screen.findByText('11–12 of 12')).toBeTruthy();
  });

  it('asks at most 100 templates a page whatever ?limit= says (the API answers more with 400)', async () => {
    const api = createFakeApi({ templates: [welcome, newsletter] });
    const { location } = renderApp('/templates?limit=500', api);
    await screen.findByRole('table', { name: 'Templates' });
    expect(api.calls('GET', '/api/templates').map((call) => call.query.get('limit'))).not.toContain('500');
    expect(api.calls('GET', '/api/templates')[0]!.query.toString()).toBe('page=1&limit=100');
    await waitFor(() => expect(location().search).toBe('?limit=100&page=1'));
  });

  it('searches by name on Enter and on the Search button, from page 1', async () => {
    const api = createFakeApi({ templates: [welcome, newsletter, appeal] });
    const { user, location } = renderApp('/templates?page=2&limit=2', api);
    await screen.findByText('Spring appeal');
    await user.type(screen.getByLabelText('Search by name'), 'news{Enter}');
    await waitFor(() => expect(location().search).toBe('?page=1&limit=2&name=news'));
    expect(await screen.findByRole('link', { name: 'Newsletter' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Welcome' })).toBeNull();
    await user.clear(screen.getByLabelText('Search by name'));
    await user.type(screen.getByLabelText('Search by name'), 'spring');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(location().search).toBe('?page=1&limit=2&name=spring'));
    expect(await screen.findByRole('link', { name: 'Spring appeal' })).toBeTruthy();
  });

  it('shows an empty state, and a filtered one', async () => {
    const view = renderApp('/templates', createFakeApi());
    expect(await screen.findByText('No templates yet')).toBeTruthy();
    view.unmount();
    renderApp('/templates?name=zzz', createFakeApi({ templates: [welcome] }));
    expect(await screen.findByText('No templates match “zzz”')).toBeTruthy();
  });

  it('shows a failed load with Retry', async () => {
    const api = createFakeApi({ templates: [welcome] });
    let failing = true;
    api.on('GET', /^\/api\/templates$/, () => (failing ? api.json(500, { message: 'Database unavailable' }) : undefined));
    const { user } = renderApp('/templates', api);
    expect((await screen.findByRole('alert')).textContent).toContain('Database unavailable');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Welcome' })).toBeTruthy();
  });

  it("creates 'My template' and opens its editor", async () => {
    const api = createFakeApi({ templates: [welcome] });
    const { user, location } = renderApp('/templates', api);
    await user.click(screen.getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(location().pathname).toBe('/templates/edit/2'));
    expect(api.calls('POST', '/api/templates')[0]!.body).toEqual({ name: 'My template' });
  });

  it('tells the member when the template cannot be created and stays on the list', async () => {
    const api = createFakeApi();
    api.on('POST', /^\/api\/templates$/, () => api.json(500, { message: 'Database unavailable' }));
    const { user, notify, location } = renderApp('/templates', api);
    await user.click(screen.getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Database unavailable'));
    expect(location().pathname).toBe('/templates');
  });

  it('opens the editor with Edit and with the name link', async () => {
    const api = createFakeApi({ templates: [welcome, newsletter] });
    const { user, location } = renderApp('/templates', api);
    await user.click(await screen.findByRole('button', { name: 'Edit Newsletter' }));
    await waitFor(() => expect(location().pathname).toBe('/templates/edit/2'));
  });
});

describe('Row menu', () => {
  const openMenu = async (user: ReturnType<typeof renderApp>['user'], name: string) => {
    await user.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
  };

  it("creates 'My Campaign' from the template and opens it in the campaign editor", async () => {
    const api = createFakeApi({ templates: [welcome] });
    const { user, location } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual([
      'Create campaign',
      'Replicate',
      'Rename',
      'Delete',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Create campaign' }));
    await waitFor(() => expect(location().pathname).toBe('/campaigns/edit/1'));
    expect(api.calls('POST', '/api/campaigns')[0]!.body).toEqual({ name: 'My Campaign', templateId: 1 });
  });

  it('says so when the campaign cannot be created', async () => {
    const api = createFakeApi({ templates: [welcome] });
    api.on('POST', /^\/api\/campaigns$/, () => api.json(503, {}));
    const { user, notify, location } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    await user.click(await screen.findByRole('menuitem', { name: 'Create campaign' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to create campaign'));
    expect(location().pathname).toBe('/templates');
  });

  it('replicates and opens the copy', async () => {
    const api = createFakeApi({ templates: [welcome] });
    const { user, location, notify } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    await user.click(await screen.findByRole('menuitem', { name: 'Replicate' }));
    await waitFor(() => expect(location().pathname).toBe('/templates/edit/2'));
    expect(api.calls('POST', '/api/templates/1/replicate')).toHaveLength(1);
    expect(api.templates.get(2)!.name).toBe('Welcome (copy)');
    expect(notify).not.toHaveBeenCalledWith('error', expect.anything());
  });

  it('says so when the replica cannot be made', async () => {
    const api = createFakeApi({ templates: [welcome] });
    api.on('POST', /replicate$/, () => api.json(404, { message: 'Template not found' }));
    const { user, notify } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    await user.click(await screen.findByRole('menuitem', { name: 'Replicate' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Template not found'));
  });

  it('renames: a blank name is marked and not sent, a new one is trimmed and confirmed', async () => {
    const api = createFakeApi({ templates: [welcome] });
    const { user, notify } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(/New name/);
    await user.clear(input);
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('PUT', '/api/templates/1')).toHaveLength(0);
    await user.type(input, '  Welcome 2025 {Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('PUT', '/api/templates/1')[0]!.body).toEqual({ name: 'Welcome 2025' });
    expect(notify).toHaveBeenCalledWith('success', 'Successfully renamed template');
    expect(await screen.findByRole('link', { name: 'Welcome 2025' })).toBeTruthy();
  });

  it("keeps the rename dialog open with the server's message on failure", async () => {
    const api = createFakeApi({ templates: [welcome] });
    api.on('PUT', /^\/api\/templates\/1$/, () => api.json(400, { message: 'name must not be blank' }));
    const { user, notify } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/New name/), '!{Enter}');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'name must not be blank'));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it("asks the spec's confirmation before deleting; Cancel deletes nothing", async () => {
    const api = createFakeApi({ templates: [welcome, newsletter] });
    const { user } = renderApp('/templates', api);
    await openMenu(user, 'Newsletter');
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Deletion confirmation');
    expect(dialog.textContent).toContain('Are you sure to delete the following template?');
    expect(dialog.textContent).toContain('Newsletter');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls('DELETE', '/api/templates/2')).toHaveLength(0);
    expect(api.templates.has(2)).toBe(true);
  });

  it("deletes on 'Go ahead' with the spec's toast", async () => {
    const api = createFakeApi({ templates: [welcome, newsletter] });
    const { user, notify } = renderApp('/templates', api);
    await openMenu(user, 'Newsletter');
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Go ahead' }));
    await waitFor(() => expect(screen.queryByText('Newsletter', { selector: 'a' })).toBeNull());
    expect(api.calls('DELETE', '/api/templates/2')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'Successfully delete template Newsletter');
  });

  it('deleting the only template of the last page shows the page before it, with its pager', async () => {
    const many = Array.from({ length: 6 }, (_, i) => template({ id: i + 1, name: `Template ${i + 1}` }));
    const api = createFakeApi({ templates: many });
    const { user, location } = renderApp('/templates?page=2&limit=5', api);
    expect(await screen.findByText('6–6 of 6')).toBeTruthy();
    await openMenu(user, 'Template 6');
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Go ahead' }));
    expect(await screen.findByText('1–5 of 5')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /^Template \d$/ })).toHaveLength(5);
    expect(screen.queryByText('No templates yet')).toBeNull();
    expect(location().search).toBe('?page=1&limit=5');
  });

  it('says so when the delete fails and keeps the row', async () => {
    const api = createFakeApi({ templates: [welcome] });
    api.on('DELETE', /^\/api\/templates\/1$/, () => api.json(500, {}));
    const { user, notify } = renderApp('/templates', api);
    await openMenu(user, 'Welcome');
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Go ahead' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Failed to delete template'));
    // The dialog stays for another try; the row is still there behind it (hidden from the a11y tree meanwhile).
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    expect(screen.getByText('Welcome', { selector: 'a' })).toBeTruthy();
  });
});
