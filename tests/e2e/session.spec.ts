/**
 * The session as a person meets it: a refused account can be left for another one, a deep link
 * survives the sign-in, every open tab learns of a logout, the quota bar follows a send, unknown
 * paths land on /audiences, and the pages stay free of federation warnings (docs/product.md).
 */
import { expect, test, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { areaTitle, signInWithApi, uniqueName, type MemberApi } from './support/audiences';
import { MEMBER, OUTSIDER, shellConfig, signInAsMember, signInThroughProvider, type Account } from './support/auth';
import { collectFederationWarnings } from './support/browser-checks';
import { authorizedSenders, people, seedAudience, seedCampaign, seedTemplate, uniqueTag, waitForStatus } from './support/campaigns';
import { baseURL, oidcOrigin } from './support/stack';

const webOrigin = new URL(baseURL).origin;
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const quotaBar = (page: Page) => page.getByRole('region', { name: 'Daily sending quota' });
const SESSION_ENDED = 'You have been signed out. Sign in again to continue.';

/** On the provider's login form: fills it in for `account` and comes back to the shell. */
async function submitProviderForm(page: Page, account: Account): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.origin === webOrigin && url.pathname !== '/login/callback', { timeout: 20_000 });
}

test('a refused account can be left: the next sign-in asks for the account again', async ({ page }) => {
  const { orgName } = await shellConfig(page);
  await signInThroughProvider(page, OUTSIDER);
  await expect(page.getByRole('listitem', { name: `Only members of ${orgName} can log in.` })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // The provider still holds Otto's session; the button must nevertheless show its login form.
  await page.getByRole('button', { name: `Sign In With ${orgName} ID` }).click();
  await page.waitForURL((url) => url.origin === oidcOrigin || url.pathname !== '/login', { timeout: 20_000 });
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(oidcOrigin);

  await submitProviderForm(page, MEMBER);
  await expect(page).toHaveURL(/\/audiences$/);
  await expect(nav(page)).toBeVisible();
  await page.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('menuitem', { name: `${MEMBER.firstName} ${MEMBER.lastName}` })).toBeVisible();
});

test('a deep link opened signed out is where the sign-in lands, with its query', async ({ page }) => {
  const { orgName } = await shellConfig(page);
  await page.goto('/campaigns/reports/1?tab=click-performance');
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  await page.getByRole('button', { name: `Sign In With ${orgName} ID` }).click();
  await page.waitForURL((url) => url.origin === oidcOrigin);
  await submitProviderForm(page, MEMBER);

  await expect
    .poll(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`)
    .toBe('/campaigns/reports/1?tab=click-performance');
  await expect(nav(page)).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('aria-current', 'page');
  expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe('/campaigns/reports/1?tab=click-performance');
});

test('a logout in one tab signs every other tab of the browser out within seconds', async ({ context }) => {
  const first = await context.newPage();
  await signInAsMember(first);
  // The second tab finds the provider's session through the silent check.
  const second = await context.newPage();
  await second.goto('/templates');
  await expect(areaTitle(second, 'Templates')).toBeVisible({ timeout: 20_000 });

  await first.getByRole('button', { name: 'Account' }).click();
  await first.getByRole('menuitem', { name: 'Logout' }).click();
  await first.waitForURL((url) => url.pathname === '/login' && url.origin === webOrigin, { timeout: 20_000 });

  await expect(second).toHaveURL(/\/login$/, { timeout: 10_000 });
  await expect(second.getByText(SESSION_ENDED)).toBeVisible();
  await expect(nav(second)).toHaveCount(0);
});

test('a logout at the provider signs the open tabs out within seconds', async ({ context }) => {
  const page = await context.newPage();
  await signInAsMember(page);
  await expect(areaTitle(page, 'Audiences')).toBeVisible();

  // The provider's own sign-out page, as another application of the organisation would send the person to.
  const provider = await context.newPage();
  await provider.goto(`${oidcOrigin}/session/end`);
  await provider.getByRole('button', { name: 'Sign out' }).click();
  await expect(provider.getByRole('heading', { name: 'Signed out' })).toBeVisible();

  await expect(page).toHaveURL(/\/login$/, { timeout: 12_000 });
  await expect(page.getByText(SESSION_ENDED)).toBeVisible();
});

/** The quota as the API reports it now. */
async function emailsSent(api: MemberApi): Promise<number> {
  const response = await api.get('/api/ses-quota');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { emailsSent: number }).emailsSent;
}

test('the quota bar counts a campaign just sent, without a reload', async ({ page }) => {
  const api = await signInWithApi(page);
  const recipients = people(uniqueTag(), 3);
  const name = uniqueName('Quota');
  const audience = await seedAudience(api, `${name} audience`, recipients);
  const templateId = await seedTemplate(api, `${name} template`);
  const [sender] = await authorizedSenders(api);
  const id = await seedCampaign(api, name, {
    audienceId: audience.id,
    templateId,
    fromName: 'Mailroom E2E',
    fromEmail: sender!,
    subject: 'Quota check',
  });

  await page.goto(`/campaigns/edit/${id}`);
  const before = await emailsSent(api);
  await expect(quotaBar(page).getByText(/^Sent\b/)).toHaveText(`Sent: ${before}`);
  // Marks this document: a reload would lose the mark.
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Send campaign' }).getByRole('button', { name: 'Send now' }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await waitForStatus(api, id, 'SENT');

  await expect(quotaBar(page).getByText(/^Sent\b/)).toHaveText(`Sent: ${before + recipients.length}`, { timeout: 20_000 });
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('signed in, every unknown path goes to /audiences; the known ones stay', async ({ page }) => {
  await signInAsMember(page);
  for (const path of ['/templates/x/y', '/campaigns/whatever', '/campaigns/reports', '/audiences/1/import/more', '/templates/edit']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/audiences$/);
    await expect(areaTitle(page, 'Audiences')).toBeVisible();
  }
  for (const path of ['/templates', '/campaigns']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

test('the favicon is served and named by the page; the login page has a main landmark', async ({ page }) => {
  const favicon = await page.request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/^image\//);

  await page.goto('/login');
  const icon = page.locator('link[rel="icon"]');
  await expect(icon).toHaveCount(1);
  const href = await icon.getAttribute('href');
  expect((await page.request.get(href!)).status()).toBe(200);

  const { orgName } = await shellConfig(page);
  await expect(page.getByRole('button', { name: `Sign In With ${orgName} ID` })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('main')).toBeVisible();
  const results = await new AxeBuilder({ page }).withRules(['landmark-one-main', 'page-has-heading-one']).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});

test('no screen logs a federation warning', async ({ page }) => {
  const warnings = collectFederationWarnings(page);
  const api = await signInWithApi(page);
  const name = uniqueName('Federation');
  const audienceId = await api.createAudience(`${name} audience`);
  const templateId = await seedTemplate(api, `${name} template`);
  const campaignId = await seedCampaign(api, name);
  for (const path of [
    '/audiences',
    `/audiences/${audienceId}`,
    `/audiences/${audienceId}/import`,
    '/templates',
    `/templates/edit/${templateId}`,
    '/campaigns',
    `/campaigns/edit/${campaignId}`,
    `/campaigns/reports/${campaignId}`,
  ]) {
    await page.goto(path);
    await expect(nav(page)).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
  }
  expect(warnings, 'federation warnings in the console').toEqual([]);
});
