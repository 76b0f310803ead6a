/**
 * The platform: sign-in, routes, drawer, account menu, theme, narrow layout, quota bar, logout and
 * the bearer token on every API call (docs/product.md).
 */
import { expect, test, type Page, type Request, type Response } from '@playwright/test';
import { MEMBER, OUTSIDER, shellConfig, signInAsMember, signInThroughProvider } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import { oidcOrigin } from './support/stack';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
/** The drawer on a narrow screen: a modal dialog over the page, the navigation inside it. */
const overlayDrawer = (page: Page) => page.getByRole('dialog', { name: 'Navigation menu' });
const quotaBar = (page: Page) => page.getByRole('region', { name: 'Daily sending quota' });
const areaTitle = (page: Page, title: string) => page.getByRole('main').getByRole('heading', { name: title, exact: true, level: 1 });

async function fluentBackground(page: Page): Promise<string> {
  return page
    .locator('.fui-FluentProvider')
    .first()
    .evaluate((element) => getComputedStyle(element).backgroundColor);
}

test('a member lands on /audiences with the drawer, the quota bar and the account menu', async ({ page }) => {
  await signInAsMember(page);

  const drawer = nav(page);
  await expect(drawer).toBeVisible();
  // Wide window: the permanent drawer, 250 px wide (docs/product.md, Limits and constants), not an overlay.
  await expect(drawer).not.toHaveAttribute('aria-modal', 'true');
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(250);
  const entries = drawer.getByRole('link');
  // The spec's three areas, and the additions' Suppressions (under Audiences), Activity and People (README); Mia is an
  // admin with the embedded provider's roles, so API keys and Webhooks too (issue 27).
  await expect(entries).toHaveText(['Audiences', 'Suppressions', 'Templates', 'Campaigns', 'Activity', 'People', 'API keys', 'Webhooks']);
  await expect(drawer.getByRole('link', { name: 'Audiences' })).toHaveAttribute('aria-current', 'page');
  await expect(drawer.getByRole('link', { name: 'Templates' })).not.toHaveAttribute('aria-current', 'page');
  await expect(drawer.getByRole('link', { name: 'Campaigns' })).not.toHaveAttribute('aria-current', 'page');

  const quota = quotaBar(page);
  await expect(quota).toBeVisible();
  await expect(quota.getByText(/^Sent\b/)).toBeVisible();
  await expect(quota.getByText(/^Remaining\b/)).toBeVisible();
  await expect(quota.getByText(/^\d+\.\d{2}%$/)).toBeVisible();

  await page.getByRole('button', { name: 'Account' }).click();
  const name = page.getByRole('menuitem', { name: `${MEMBER.firstName} ${MEMBER.lastName}` });
  await expect(name).toBeVisible();
  await expect(name).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeEnabled();
  await page.keyboard.press('Escape');

  await expect(areaTitle(page, 'Audiences')).toBeVisible();
});

test('an outsider gets the members-only toast and stays signed out on /login', async ({ page }) => {
  const { orgName } = await shellConfig(page);
  await signInThroughProvider(page, OUTSIDER);

  // A Fluent toast is a listitem named by its title (it hides after 4 s).
  await expect(page.getByRole('listitem', { name: `Only members of ${orgName} can log in.` })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: `Sign In With ${orgName} ID` })).toBeVisible();
  await expect(nav(page)).toHaveCount(0);

  // Still signed out after a reload and on a protected path.
  await page.goto('/audiences');
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  await expect(nav(page)).toHaveCount(0);
});

test('unknown paths redirect: signed out to /login, signed in to /audiences', async ({ page }) => {
  // Signed out, the silent single-sign-on check runs before the redirect.
  await page.goto('/nope');
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  await page.goto('/campaigns');
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });

  await signInAsMember(page);
  await page.goto('/nope');
  await expect(page).toHaveURL(/\/audiences$/);
  await expect(areaTitle(page, 'Audiences')).toBeVisible();
});

test('the dark theme is kept across a reload', async ({ page }) => {
  await signInAsMember(page);
  const themeSwitch = page.getByRole('switch', { name: 'Dark theme' });
  await expect(themeSwitch).not.toBeChecked();
  const light = await fluentBackground(page);
  expect(light).toBe('rgb(255, 255, 255)');

  await themeSwitch.click();
  await expect(themeSwitch).toBeChecked();
  await expect.poll(() => fluentBackground(page)).not.toBe(light);
  const dark = await fluentBackground(page);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Dark theme' })).toBeChecked();
  await expect.poll(() => fluentBackground(page)).toBe(dark);

  await page.getByRole('switch', { name: 'Dark theme' }).click();
  await expect.poll(() => fluentBackground(page)).toBe(light);
});

test('a narrow window shows a top bar whose menu button opens the drawer as an overlay', async ({ page }) => {
  await page.setViewportSize({ width: 500, height: 800 });
  await signInAsMember(page);

  const banner = page.getByRole('banner');
  const menuButton = banner.getByRole('button', { name: 'Open navigation' });
  await expect(menuButton).toBeVisible();
  await expect(nav(page)).toBeHidden();

  await menuButton.click();
  // An overlay: the drawer opens as a modal dialog over the page, the navigation landmark inside it.
  await expect(overlayDrawer(page)).toHaveAttribute('aria-modal', 'true');
  await expect(overlayDrawer(page).getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await nav(page).getByRole('link', { name: 'Templates' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(areaTitle(page, 'Templates')).toBeVisible();
  await expect(nav(page)).toBeHidden();

  await menuButton.click();
  await expect(nav(page).getByRole('link', { name: 'Templates' })).toHaveAttribute('aria-current', 'page');
  await nav(page).getByRole('link', { name: 'Campaigns' }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(areaTitle(page, 'Campaigns')).toBeVisible();
});

test('at 390 px the open drawer passes axe: the dialog is modal, the navigation inside it is not', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsMember(page);
  await page.getByRole('banner').getByRole('button', { name: 'Open navigation' }).click();
  const drawer = overlayDrawer(page);
  await expect(drawer.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  // aria-modal belongs to a dialog: on a navigation landmark axe reports it (aria-allowed-attr).
  await expect(nav(page)).not.toHaveAttribute('aria-modal');
  await expect(nav(page).getByRole('link')).toHaveText([
    'Audiences',
    'Suppressions',
    'Templates',
    'Campaigns',
    'Activity',
    'People',
    'API keys',
    'Webhooks',
  ]);
  await expectNoAxeViolations(page, 'the open navigation drawer at 390 px');

  await drawer.getByRole('button', { name: 'Close navigation' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Open navigation' })).toBeVisible();
});

test.describe('the quota bar', () => {
  test('reads "Loading quota information..." while the quota loads', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/api/ses-quota', async (route) => {
      await held;
      await route.continue();
    });
    await signInAsMember(page);
    await expect(quotaBar(page).getByText('Loading quota information...')).toBeVisible();
    release();
    await expect(quotaBar(page).getByText('Loading quota information...')).toBeHidden();
    await expect(quotaBar(page).getByText('0.00%')).toBeVisible();
  });

  test('shows the local SES figures: nothing sent, 0.00%', async ({ page }) => {
    const quotaResponse = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/ses-quota');
    await signInAsMember(page);
    const response = await quotaResponse;
    expect(response.status()).toBe(200);
    const quota = (await response.json()) as { emailsSent: number; remainingSends: number; max24HourSend: number; maxSendRate: number };
    expect(quota.emailsSent).toBe(0);

    expect(quota.remainingSends).toBe(quota.max24HourSend);
    expect(quota.remainingSends).toBeGreaterThan(0);

    const bar = quotaBar(page);
    await expect(bar.getByText(/^Sent\b/)).toHaveText('Sent: 0');
    await expect(bar.getByText(/^Remaining\b/)).toHaveText(`Remaining: ${quota.remainingSends}`);
    await expect(bar.getByText(/%$/)).toHaveText('0.00%');
    await expect(bar.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');

    // The expandable panel: max send rate and 24-hour limit.
    await expect(bar.getByText(/Max send rate/)).toHaveCount(0);
    await bar.getByRole('button', { name: 'Quota details' }).click();
    await expect(bar.getByText(`Max send rate: ${quota.maxSendRate} per second`)).toBeVisible();
    await expect(bar.getByText(`24-hour limit: ${quota.max24HourSend}`)).toBeVisible();
  });

  test('shows "Failed to fetch quota information" when the quota call fails', async ({ page }) => {
    await page.route('**/api/ses-quota', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal server error' }) }),
    );
    await signInAsMember(page);
    // The shell's query client retries once before it gives up.
    await expect(quotaBar(page).getByRole('alert')).toHaveText('Failed to fetch quota information', { timeout: 20_000 });
    // The rest of the shell keeps working.
    await expect(nav(page)).toBeVisible();
    await expect(areaTitle(page, 'Audiences')).toBeVisible();
  });
});

test('logout goes through the provider and back to /login', async ({ page }) => {
  await signInAsMember(page);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();

  await page.waitForURL((url) => url.pathname === '/login' && url.origin !== oidcOrigin, { timeout: 20_000 });
  await expect(nav(page)).toHaveCount(0);

  await page.goto('/templates');
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });

  // The provider's session ended too: signing in asks for the credentials again.
  const { orgName } = await shellConfig(page);
  await page.getByRole('button', { name: `Sign In With ${orgName} ID` }).click();
  await page.waitForURL((url) => url.origin === oidcOrigin);
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
});

test('every API call of the shell carries a bearer token and succeeds', async ({ page }) => {
  const requests: Request[] = [];
  const responses: Response[] = [];
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('request', (request) => {
    if (isApi(request.url())) requests.push(request);
  });
  page.on('response', (response) => {
    if (isApi(response.url())) responses.push(response);
  });

  await signInAsMember(page);
  await expect(quotaBar(page).getByText(/\d+\.\d{2}%/)).toBeVisible();
  await expect(areaTitle(page, 'Audiences')).toBeVisible();
  for (const [entry, path] of [
    ['Templates', '/templates'],
    ['Campaigns', '/campaigns'],
    ['Audiences', '/audiences'],
  ] as const) {
    await nav(page).getByRole('link', { name: entry }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(areaTitle(page, entry)).toBeVisible();
  }
  await page.waitForLoadState('networkidle');

  // The shell's own call and the remotes' calls (the audiences list) are all in.
  const paths = requests.map((request) => new URL(request.url()).pathname);
  expect(paths).toContain('/api/ses-quota');
  expect(paths).toContain('/api/audiences');
  for (const request of requests) {
    const authorization = (await request.allHeaders())['authorization'];
    expect(authorization, `${request.method()} ${request.url()}`).toMatch(/^Bearer \S+$/);
  }
  const failures = responses.filter((response) => !response.ok()).map((response) => `${response.status()} ${response.url()}`);
  expect(
    failures.filter((failure) => failure.startsWith('401')),
    'API calls answered 401',
  ).toEqual([]);
  expect(failures, 'API calls that did not succeed').toEqual([]);
});
