/**
 * Browser security: the security headers on every kind of answer (the shell, its runtime
 * configuration, the API, a remote's files), the signed-in product working under the shell's
 * Content-Security-Policy with no violation, the configured email editor's origin in that policy,
 * and no token left in localStorage.
 */
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import {
  areaTitle,
  contactsTable,
  createAudienceThroughDialog,
  expectImportAccepted,
  openImportWizard,
  signInWithApi,
  uniqueName,
  uploadThroughWizard,
  writeFixture,
} from './support/audiences';
import { shellConfig, signInAsMember } from './support/auth';
import { collectCspViolations } from './support/browser-checks';
import { baseURL, emailEditorScriptUrl } from './support/stack';

const DEFAULT_EMAIL_EDITOR_ORIGIN = 'https://editor.unlayer.com';

/** Directive -> sources of a Content-Security-Policy header (of a request's or a navigation's answer). */
function policyOf(response: Pick<APIResponse, 'headers' | 'url'>): Record<string, string[]> {
  const header = response.headers()['content-security-policy'];
  expect(header, `Content-Security-Policy of ${response.url()}`).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectBaseHeaders(response: APIResponse, referrerPolicy: string): void {
  const what = response.url();
  expect(response.headers()['x-content-type-options'], `nosniff on ${what}`).toBe('nosniff');
  expect(response.headers()['referrer-policy'], `Referrer-Policy of ${what}`).toBe(referrerPolicy);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test.describe('security headers', () => {
  test('the shell: a policy with no inline script, no framing, nosniff and a Referrer-Policy', async ({ page }) => {
    const shell = await page.request.get('/audiences/1', { headers: { Accept: 'text/html' } });
    expect(shell.status()).toBe(200);
    expect(await shell.text()).toContain('<div id="root">');
    expectBaseHeaders(shell, 'strict-origin-when-cross-origin');
    const csp = policyOf(shell);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toContain("'self'");
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");

    // The pages name no inline script (the policy would refuse it).
    for (const path of ['/', '/silent-check-sso.html']) {
      const html = await (await page.request.get(path, { headers: { Accept: 'text/html' } })).text();
      expect(html.match(/<script\b[^>]*>/g), `scripts of ${path}`).toEqual(expect.arrayContaining([expect.stringMatching(/\bsrc="/)]));
      expect(html, `inline script in ${path}`).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }

    // The silent sign-in page is framed by the shell, and by nobody else.
    const silentCheck = await page.request.get('/silent-check-sso.html');
    expect(policyOf(silentCheck)['frame-ancestors']).toEqual(["'self'"]);
  });

  test("config.json, remotes.json, API answers and a remote's files carry them too", async ({ page }) => {
    for (const path of ['/config.json', '/remotes.json']) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(200);
      expectBaseHeaders(response, 'strict-origin-when-cross-origin');
      expect(policyOf(response)['frame-ancestors'], path).toEqual(["'none'"]);
    }

    // The API: a success, a refusal without a token, an unknown path (not a page: no text/html wanted).
    for (const [path, status] of [
      ['/healthz', 200],
      ['/api/audiences', 401],
      ['/no/such/route', 404],
    ] as const) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(status);
      expectBaseHeaders(response, 'no-referrer');
      const csp = policyOf(response);
      expect(csp['default-src'], path).toEqual(["'none'"]);
      expect(csp['frame-ancestors'], path).toEqual(["'none'"]);
    }

    // A remote, served apart: its manifest and its entry script.
    const remotes = (await (await page.request.get('/remotes.json')).json()) as Record<string, string>;
    const manifestUrl = remotes.audiences!;
    const manifest = await page.request.get(manifestUrl);
    expect(manifest.status()).toBe(200);
    expectBaseHeaders(manifest, 'strict-origin-when-cross-origin');
    expect(manifest.headers()['access-control-allow-origin']).toBe('*');
    const entry = await page.request.get(new URL('remoteEntry.js', manifestUrl).href);
    expect(entry.status()).toBe(200);
    expect(entry.headers()['content-type']).toMatch(/^text\/javascript/);
    expectBaseHeaders(entry, 'strict-origin-when-cross-origin');
  });

  test("the email editor's origin set by EMAIL_EDITOR_SCRIPT_URL reaches the shell's policy", async ({ page }) => {
    const config = (await (await page.request.get('/config.json')).json()) as { features: { emailEditorScriptUrl: string } };
    // The suite's stack sets it (global-setup.ts); the product's default is not in play.
    expect(config.features.emailEditorScriptUrl).toBe(emailEditorScriptUrl);
    const editorOrigin = new URL(emailEditorScriptUrl).origin;
    expect(editorOrigin).not.toBe(DEFAULT_EMAIL_EDITOR_ORIGIN);

    const csp = policyOf(await page.request.get('/', { headers: { Accept: 'text/html' } }));
    expect(csp['script-src']).toContain(editorOrigin);
    expect(csp['frame-src']).toContain(editorOrigin);
    expect(csp['connect-src']).toContain(editorOrigin);
    expect(csp['script-src']).not.toContain(DEFAULT_EMAIL_EDITOR_ORIGIN);
  });
});

test("the API's own pages keep their inline styles under the API's policy", async ({ page }) => {
  const violations = await collectCspViolations(page);
  // A mail's unsubscribe link with a token that is not valid: the API's page saying so.
  const response = await page.goto('/unsubscribe/not-a-valid-token');
  expect(response?.status()).toBe(404);
  expect(policyOf(response!)['default-src']).toEqual(["'none'"]);
  const title = page.getByRole('heading', { name: 'This link is not valid' });
  await expect(title).toBeVisible();
  expect(await title.evaluate((element) => getComputedStyle(element).fontSize)).toBe('22.4px');
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
});

test.describe("the signed-in product under the shell's Content-Security-Policy", () => {
  test('the policy is in force: an inline script is refused and reported', async ({ page }) => {
    const violations = await collectCspViolations(page);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: /^Sign In With/ })).toBeVisible({ timeout: 20_000 });
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineScriptRan = true;';
      document.head.append(script);
      await new Promise((done) => setTimeout(done, 100));
      return (window as { inlineScriptRan?: boolean }).inlineScriptRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.join('\n')).toMatch(/script-src/);
  });

  test('a walk through audiences (list, import wizard with a TXT file, detail) and the other areas raises no violation', async ({
    page,
  }, testInfo) => {
    const violations = await collectCspViolations(page);
    const api = await signInWithApi(page);
    await expect(areaTitle(page, 'Audiences')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Daily sending quota' }).getByText(/\d+\.\d{2}%/)).toBeVisible();

    // The theme switch makes Fluent write the other theme's variables.
    await page.getByRole('switch', { name: 'Dark theme' }).click();
    await expect(page.getByRole('switch', { name: 'Dark theme' })).toBeChecked();

    // A tab-delimited TXT file, as docs/product.md's import wizard, step 0 offers it: imported as pasted text is (source TEXT).
    const id = await createAudienceThroughDialog(page, uniqueName('CSP walk'));
    await openImportWizard(page, id);
    const txt = writeFixture(testInfo, 'contacts.txt', 'Email\tFirst Name\nann@example.org\tAnn\nbob@example.org\tBob\n');
    await uploadThroughWizard(page, txt);
    await expectImportAccepted(page, id);
    await expect(contactsTable(page).getByRole('row')).toHaveCount(3);
    await expect(contactsTable(page).getByRole('columnheader', { name: 'firstName' })).toBeVisible();
    expect((await api.audience(id)).source).toBe('TEXT');
    await page.getByRole('button', { name: 'Options' }).click();
    await page.keyboard.press('Escape');

    for (const [entry, title] of [
      ['Templates', 'Templates'],
      ['Campaigns', 'Campaigns'],
      ['Audiences', 'Audiences'],
    ] as const) {
      await nav(page).getByRole('link', { name: entry }).click();
      await expect(areaTitle(page, title)).toBeVisible();
    }
    await page.getByRole('switch', { name: 'Dark theme' }).click();
    await page.waitForLoadState('networkidle');

    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });

  test('email html in a sandboxed srcdoc frame keeps its inline styles and images; data: previews show', async ({ page }) => {
    const violations = await collectCspViolations(page);
    await signInAsMember(page);
    await expect(areaTitle(page, 'Audiences')).toBeVisible();

    // As the campaign preview and the report show a campaign's html, and the templates list a preview image.
    const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const shown = await page.evaluate(async (image) => {
      const frame = document.createElement('iframe');
      frame.title = 'Email preview';
      frame.setAttribute('sandbox', 'allow-same-origin');
      frame.srcdoc = `<!doctype html><html><head><style>p { color: rgb(1, 2, 3); }</style></head><body><p style="margin-left: 7px">Hello {{fullName}}</p><img alt="logo" src="${image}"></body></html>`;
      const loaded = new Promise((done) => frame.addEventListener('load', done, { once: true }));
      document.body.append(frame);
      await loaded;
      const preview = new Image();
      preview.src = image;
      document.body.append(preview);
      await preview.decode();
      const doc = frame.contentDocument!;
      const paragraph = doc.querySelector('p')!;
      const logo = doc.querySelector('img')!;
      if (!logo.complete) await new Promise((done) => logo.addEventListener('load', done, { once: true }));
      return {
        color: getComputedStyle(paragraph).color,
        marginLeft: getComputedStyle(paragraph).marginLeft,
        logoWidth: logo.naturalWidth,
        previewWidth: preview.naturalWidth,
      };
    }, pixel);
    expect(shown).toEqual({ color: 'rgb(1, 2, 3)', marginLeft: '7px', logoWidth: 1, previewWidth: 1 });
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
});

test('after sign-in no token is in localStorage; the session lives in the tab', async ({ page }) => {
  const firstApiCall = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/api/'), { timeout: 30_000 });
  await signInAsMember(page);
  const token = /^Bearer (\S+)$/.exec((await (await firstApiCall).allHeaders())['authorization'] ?? '')?.[1];
  expect(token, 'the bearer token the shell sends').toBeTruthy();

  const storage = (kind: 'localStorage' | 'sessionStorage') =>
    page.evaluate((name) => Object.entries(window[name]).map(([key, value]) => `${key}=${value}`), kind);
  const local = await storage('localStorage');
  expect(
    local.filter((entry) => entry.includes(token!)),
    'localStorage entries holding the token',
  ).toEqual([]);
  expect(
    local.filter((entry) => entry.startsWith('oidc.')),
    'sign-in entries in localStorage',
  ).toEqual([]);
  expect((await storage('sessionStorage')).some((entry) => entry.includes(token!))).toBe(true);

  // A reload of the tab keeps the member signed in.
  await page.reload();
  await expect(areaTitle(page, 'Audiences')).toBeVisible();
  const { orgName } = await shellConfig(page);
  await expect(page.getByRole('button', { name: `Sign In With ${orgName} ID` })).toHaveCount(0);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL).origin);
});
