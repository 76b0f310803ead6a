/**
 * Helpers for the templates screens (mfe-templates): the email editor's stand-in script, the list's
 * rows, and template seeding through the API.
 *
 * The product loads react-email-editor's real script from `features.emailEditorScriptUrl`, which
 * these machines cannot reach. The tests answer that address, through Playwright's routing, with a
 * stand-in that speaks the part of the editor API the product uses (createEditor with its options,
 * editor:ready, loadDesign, exportHtml, addEventListener for design:updated, destroy), so the product's
 * own code is what runs. It draws one labelled text box; typing in it is a design change.
 */
import { expect, type Page } from '@playwright/test';
import type { MemberApi } from './audiences';

const EDITOR_STAND_IN = String.raw`(() => {
  const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  // A template as a member might make one: a coloured banner, an image from an unreachable host and
  // a script, which must never run anywhere in the app.
  const render = (design) =>
    '<!doctype html><html><head><meta charset="utf-8"><title>email</title></head>' +
    '<body style="margin:0;background:#ffffff;font-family:sans-serif">' +
    '<div style="background:#0f6cbd;color:#ffffff;padding:40px 24px"><h1 style="margin:0;font-size:32px">' + escape(design.text || '') + '</h1></div>' +
    '<p style="padding:24px">Hello {{fullName}}, <a href="https://example.org/news">read the news</a>.</p>' +
    '<img src="https://images.invalid/banner.png" alt="banner" width="600" height="200">' +
    '<script>window.parent.templateScriptRan = true; window.top.templateScriptRan = true;</script>' +
    '</body></html>';

  function createEditor(options) {
    const listeners = {};
    const emit = (type, data) => (listeners[type] || []).slice().forEach((listener) => listener(data));
    let design = { body: { rows: [] }, text: '' };
    let ready = false;
    const root = document.getElementById(options.id);
    root.innerHTML = '';
    const label = document.createElement('label');
    label.textContent = 'Email text';
    const area = document.createElement('textarea');
    area.id = options.id + '-text';
    area.rows = 4;
    label.htmlFor = area.id;
    const tags = document.createElement('p');
    tags.dataset.testid = 'merge-tags';
    tags.textContent = 'Merge tags: ' + Object.values(options.mergeTags || {}).map((tag) => tag.value).join(' ');
    root.append(label, area, tags);
    area.addEventListener('input', () => {
      design = Object.assign({}, design, { text: area.value });
      emit('design:updated', { type: 'content:modified' });
    });
    setTimeout(() => {
      ready = true;
      emit('editor:ready');
    }, 100);
    return {
      addEventListener(type, listener) {
        (listeners[type] = listeners[type] || []).push(listener);
        if (type === 'editor:ready' && ready) setTimeout(listener, 0);
      },
      removeEventListener(type) {
        delete listeners[type];
      },
      loadDesign(next) {
        design = next;
        area.value = next.text || '';
      },
      exportHtml(callback) {
        const current = design;
        setTimeout(() => callback({ design: current, html: render(current), chunks: {}, amp: { enabled: false } }), 0);
      },
      destroy() {
        root.innerHTML = '';
      },
    };
  }
  window.unlayer = { createEditor };
})();`;

/** Where the product loads the editor's script from, as the shell's config tells the remotes. */
export async function editorScriptUrl(page: Page): Promise<string> {
  const response = await page.request.get('/config.json');
  expect(response.ok(), 'GET /config.json').toBeTruthy();
  return ((await response.json()) as { features: { emailEditorScriptUrl: string } }).features.emailEditorScriptUrl;
}

/** Answers the editor script's address with the stand-in from now on. */
export async function serveEditorStandIn(page: Page): Promise<void> {
  const url = await editorScriptUrl(page);
  await page.unroute(url);
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: EDITOR_STAND_IN }));
}

/** The editor script's address cannot be reached from now on. */
export async function failEditorScript(page: Page): Promise<void> {
  const url = await editorScriptUrl(page);
  await page.unroute(url);
  await page.route(url, (route) => route.abort('internetdisconnected'));
}

export interface TemplateJson {
  id: number;
  name: string;
  design: Record<string, unknown> | null;
  html: string | null;
  plainText: string | null;
  preview: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

export async function createTemplate(api: MemberApi, name: string, design?: Record<string, unknown>): Promise<number> {
  const response = await api.post('/api/templates', { name });
  expect(response.status(), `POST /api/templates ${name}`).toBe(201);
  const { id } = (await response.json()) as { id: number };
  if (design) expect((await api.put(`/api/templates/${id}`, { name, design, html: '<p>seeded</p>' })).status()).toBe(200);
  return id;
}

export async function readTemplate(api: MemberApi, id: number): Promise<TemplateJson> {
  const response = await api.get(`/api/templates/${id}`);
  expect(response.status(), `GET /api/templates/${id}`).toBe(200);
  return (await response.json()) as TemplateJson;
}

export const templatesTable = (page: Page) => page.getByRole('table', { name: 'Templates' });

/** The list row whose name link reads exactly `name`. */
export const templateRow = (page: Page, name: string) =>
  templatesTable(page)
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

/** The editor's text box (the stand-in's) once the editor is ready. */
export const editorText = (page: Page) => page.getByRole('textbox', { name: 'Email text' });

/** The autosave indicator's text. */
export const saveIndicator = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('status')
    .filter({ hasText: /^(Saving\.\.\.|Saved|Unsaved changes|Not saved)$/ });
