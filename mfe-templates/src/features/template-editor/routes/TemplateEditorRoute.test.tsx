import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, template } from '../../../test/fake-api';
import { installFakeEditor, type FakeEditorScript } from '../../../test/fake-editor';
import { renderApp } from '../../../test/render';
import { EDITOR_READY_TIMEOUT_MS } from '../components/EmailDesigner';
import { AUTOSAVE_DEBOUNCE_MS } from '../hooks/useAutosave';
import { renderPreview } from '../lib/preview';

// jsdom cannot lay out or draw: the preview renderer is replaced (it is exercised in the browser by the e2e suite).
vi.mock('../lib/preview', () => ({ renderPreview: vi.fn(async (html: string) => `data:image/jpeg;base64,${btoa(html).slice(0, 12)}`) }));

const DESIGN = { text: 'Hello {{fullName}}', body: { rows: [] } };
const welcome = template({ id: 7, name: 'Welcome', design: DESIGN, html: '<p>Hello {{fullName}}</p>' });

let script: FakeEditorScript;
beforeEach(() => {
  script = installFakeEditor();
  sessionStorage.clear();
});
afterEach(() => {
  script.uninstall();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(renderPreview).mockClear();
});

/** Opens the editor and lets the script arrive; resolves once the editor is ready. */
async function openEditor(
  api = createFakeApi({ templates: [welcome] }),
  { fakeTimers = false, role }: { fakeTimers?: boolean; role?: 'viewer' } = {},
) {
  if (fakeTimers) vi.useFakeTimers({ shouldAdvanceTime: true });
  const view = renderApp('/templates/edit/7', api, { fakeTimers, ...(role ? { role } : {}) });
  await waitFor(() => expect(script.requested()).toBe(true));
  act(() => script.load());
  await waitFor(() => expect((screen.getByRole('button', { name: 'Save and Exit' }) as HTMLButtonElement).disabled).toBe(false));
  // A viewer's Save and Exit is never disabled outright (it stays focusable, locked): wait for the editor itself too.
  await waitFor(() => expect(script.editor).toBeTruthy());
  return { ...view, api };
}

const indicator = () => screen.getAllByRole('status').find((element) => element.getAttribute('aria-live') === 'polite')!;

describe('Template editor', () => {
  it('lets a viewer look through the design but saves nothing it changes, and says so (issue 27)', async () => {
    const { api } = await openEditor(undefined, { fakeTimers: true, role: 'viewer' });
    expect(
      screen.getByText(
        'Editors, senders and admins can change templates: you can look through this design, but nothing you change here is saved.',
      ),
    ).toBeTruthy();
    act(() => script.editor.change({ text: 'Not mine to change' }));
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS * 2));
    expect(api.calls('PUT', '/api/templates/7')).toHaveLength(0);
    expect(indicator().textContent).not.toBe('Unsaved changes');
    expect(screen.getByRole('button', { name: 'Save and Exit' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('shows the name and loads the stored design with the merge tags, from the configured script', async () => {
    await openEditor();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome' })).toBeTruthy();
    expect(script.editor.loadedDesigns).toEqual([DESIGN]);
    const mergeTags = script.editor.options.mergeTags as Record<string, { name: string; value: string }>;
    expect(Object.values(mergeTags).map((tag) => tag.value)).toEqual([
      '{{email}}',
      '{{address}}',
      '{{username}}',
      '{{userName}}',
      '{{fullName}}',
      '{{fullname}}',
      '{{location}}',
      '{{birthday}}',
      '{{grade}}',
      '{{phone}}',
      '{{country}}',
    ]);
  });

  it('starts a blank template without loading a design', async () => {
    await openEditor(createFakeApi({ templates: [template({ id: 7, name: 'My template' })] }));
    expect(script.editor.loadedDesigns).toEqual([]);
  });

  it('autosaves 30 s after the last change, with Saving... then Saved, html, plain text and a preview', async () => {
    const { api } = await openEditor(undefined, { fakeTimers: true });
    act(() => script.editor.change({ text: 'First' }));
    await waitFor(() => expect(indicator().textContent).toBe('Unsaved changes'));
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS - 5000));
    act(() => script.editor.change({ text: 'Second' }));
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS - 1));
    expect(api.calls('PUT', '/api/templates/7')).toHaveLength(0);

    let release!: () => void;
    api.on('PUT', /^\/api\/templates\/7$/, () => new Promise<undefined>((resolve) => (release = () => resolve(undefined))));
    await act(() => vi.advanceTimersByTimeAsync(1));
    await waitFor(() => expect(indicator().textContent).toBe('Saving...'));
    // The preview is made first; release the request once it has reached the server.
    await waitFor(() => expect(api.calls('PUT', '/api/templates/7')).toHaveLength(1));
    act(() => release());
    await waitFor(() => expect(indicator().textContent).toBe('Saved'));

    const saves = api.calls('PUT', '/api/templates/7');
    expect(saves).toHaveLength(1);
    const html = '<html><body><p>Second</p></body></html>';
    expect(saves[0]!.body).toEqual({
      name: 'Welcome',
      design: { text: 'Second' },
      html,
      plainText: 'Second',
      preview: `data:image/jpeg;base64,${btoa(html).slice(0, 12)}`,
    });
    expect(api.templates.get(7)!.design).toEqual({ text: 'Second' });
  });

  it('saves without a preview when none can be made (the stored one stays)', async () => {
    vi.mocked(renderPreview).mockRejectedValueOnce(new Error('no canvas'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { api } = await openEditor(undefined, { fakeTimers: true });
    act(() => script.editor.change({ text: 'No picture' }));
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS));
    await waitFor(() => expect(indicator().textContent).toBe('Saved'));
    expect(api.calls('PUT', '/api/templates/7')[0]!.body).not.toHaveProperty('preview');
  });

  it('tells the member when a save fails, keeps the design and tries again', async () => {
    const api = createFakeApi({ templates: [welcome] });
    let failing = true;
    api.on('PUT', /^\/api\/templates\/7$/, () => (failing ? api.json(500, { message: 'Database unavailable' }) : undefined));
    const { notify } = await openEditor(api, { fakeTimers: true });
    act(() => script.editor.change({ text: 'Precious work' }));
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS));
    await waitFor(() => expect(indicator().textContent).toBe('Not saved'));
    expect(notify).toHaveBeenCalledWith(
      'error',
      'Template not saved: Database unavailable. Your changes are kept and saved again in 30 seconds.',
    );
    failing = false;
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS));
    await waitFor(() => expect(indicator().textContent).toBe('Saved'));
    expect(api.calls('PUT', '/api/templates/7')).toHaveLength(2);
    expect(api.templates.get(7)!.design).toEqual({ text: 'Precious work' });
  });

  it('Save and Exit saves the current design and returns to the list', async () => {
    const { api, user, location } = await openEditor();
    script.editor.design = { text: 'Final words' };
    await user.click(screen.getByRole('button', { name: 'Save and Exit' }));
    await waitFor(() => expect(location().pathname).toBe('/templates'));
    expect(api.calls('PUT', '/api/templates/7')[0]!.body).toMatchObject({ name: 'Welcome', design: { text: 'Final words' } });
  });

  it('Save and Exit stays on the page when the save fails', async () => {
    const api = createFakeApi({ templates: [welcome] });
    api.on('PUT', /^\/api\/templates\/7$/, () => api.json(413, { message: 'The template is too large' }));
    const { user, location, notify } = await openEditor(api);
    await user.click(screen.getByRole('button', { name: 'Save and Exit' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', expect.stringContaining('The template is too large')));
    expect(location().pathname).toBe('/templates/edit/7');
  });

  it('saves pending changes when the member leaves inside the app', async () => {
    const { api, user, location } = await openEditor();
    act(() => script.editor.change({ text: 'Unsaved when leaving' }));
    await waitFor(() => expect(indicator().textContent).toBe('Unsaved changes'));
    await user.click(screen.getByRole('link', { name: 'Back to Templates' }));
    await waitFor(() => expect(location().pathname).toBe('/templates'));
    await waitFor(() => expect(api.templates.get(7)!.design).toEqual({ text: 'Unsaved when leaving' }));
  });

  it('keeps changes whose save failed on the way out, and brings them back next time', async () => {
    const api = createFakeApi({ templates: [welcome] });
    let failing = true;
    api.on('PUT', /^\/api\/templates\/7$/, () => (failing ? api.json(503, {}) : undefined));
    const { user, notify, location, unmount } = await openEditor(api);
    act(() => script.editor.change({ text: 'Kept for later' }));
    await waitFor(() => expect(indicator().textContent).toBe('Unsaved changes'));
    await user.click(screen.getByRole('link', { name: 'Back to Templates' }));
    await waitFor(() => expect(location().pathname).toBe('/templates'));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'error',
        'Template not saved: the server did not accept it. Your changes are kept and come back when you open the template again.',
      ),
    );
    unmount();

    failing = false;
    await openEditor(api, { fakeTimers: true });
    expect(screen.getByText(/Changes that were not saved when you last left this template are back/)).toBeTruthy();
    expect(script.editor.loadedDesigns.at(-1)).toEqual({ text: 'Kept for later' });
    expect(indicator().textContent).toBe('Unsaved changes');
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DEBOUNCE_MS));
    await waitFor(() => expect(api.templates.get(7)!.design).toEqual({ text: 'Kept for later' }));
    expect(sessionStorage.length).toBe(0);
  });

  it('asks before the page is left with unsaved changes, and not otherwise', async () => {
    await openEditor();
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);
    act(() => script.editor.change({ text: 'Not yet saved' }));
    await waitFor(() => expect(indicator().textContent).toBe('Unsaved changes'));
    expect(leave()).toBe(true);
    expect(JSON.parse(sessionStorage.getItem('mailroom.template-draft.7')!)).toMatchObject({ design: { text: 'Not yet saved' } });
  });

  it("renames with 'Edit name', the 'Name...' box, Save and Cancel", async () => {
    const { api, user, notify } = await openEditor();
    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    const input = screen.getByRole('textbox', { name: 'Name...' });
    await user.type(input, ' changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    await user.clear(screen.getByRole('textbox', { name: 'Name...' }));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Name...' }), '  Welcome back  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeTruthy();
    expect(api.calls('PUT', '/api/templates/7')[0]!.body).toEqual({ name: 'Welcome back' });
    expect(notify).toHaveBeenCalledWith('success', 'Successfully renamed template');
    // Later saves keep the new name.
    await user.click(screen.getByRole('button', { name: 'Save and Exit' }));
    await waitFor(() => expect(api.calls('PUT', '/api/templates/7')).toHaveLength(2));
    expect(api.calls('PUT', '/api/templates/7')[1]!.body).toMatchObject({ name: 'Welcome back' });
  });

  it("shows 'No Template Found!' with 'Back to homepage' for an unknown or malformed id", async () => {
    const api = createFakeApi();
    const view = renderApp('/templates/edit/99', api);
    expect(await screen.findByRole('heading', { name: 'No Template Found!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to homepage' }).getAttribute('href')).toBe('/templates');
    expect(script.requested()).toBe(false);
    view.unmount();
    renderApp('/templates/edit/abc', api);
    expect(await screen.findByRole('heading', { name: 'No Template Found!' })).toBeTruthy();
  });

  it('shows a failed load with Retry rather than not found', async () => {
    const api = createFakeApi({ templates: [welcome] });
    let failing = true;
    api.on('GET', /^\/api\/templates\/7$/, () => (failing ? api.json(500, { message: 'Database unavailable' }) : undefined));
    const { user } = renderApp('/templates/edit/7', api);
    expect((await screen.findByRole('alert')).textContent).toContain('Database unavailable');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome' })).toBeTruthy();
  });

  it('says plainly when the editor script cannot load, and tries again on request', async () => {
    const { user } = renderApp('/templates/edit/7', createFakeApi({ templates: [welcome] }));
    await waitFor(() => expect(script.requested()).toBe(true));
    act(() => script.fail());
    expect((await screen.findByRole('alert')).textContent).toContain('The email editor could not be loaded');
    expect(screen.queryByText('Loading the email editor...')).toBeNull();
    expect((screen.getByRole('button', { name: 'Save and Exit' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(script.requested()).toBe(true));
    act(() => script.load());
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save and Exit' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(script.editor.loadedDesigns).toEqual([DESIGN]);
  });

  it('stops waiting for an editor that never arrives', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp('/templates/edit/7', createFakeApi({ templates: [welcome] }), { fakeTimers: true });
    expect(await screen.findByText('Loading the email editor...')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(EDITOR_READY_TIMEOUT_MS));
    expect((await screen.findByRole('alert')).textContent).toContain('The email editor could not be loaded');
    expect(screen.queryByText('Loading the email editor...')).toBeNull();
  });
});
