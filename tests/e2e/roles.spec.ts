/**
 * Roles (issue 27): the embedded provider's viewer, editor and sender sign in through its form; each sees its role in
 * the quota bar and the drawer, the actions its role cannot take disabled with a tooltip saying who can (Create
 * Audience for a viewer, Send and Schedule for a viewer and an editor), the others enabled, and the API refuses what
 * the screen locks. Every screen's actions are walked (`walkGates`): the lists' row menus, the audience's options,
 * fields, forms, segments and import, the template and campaign editors; an action whose operation needs more than the
 * role and is offered unlocked fails the walk. An admin makes an API key on its screen, the key calls the API, and
 * once revoked is refused within a second. Axe on every screen.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, uniqueName, type MemberApi } from './support/audiences';
import { signInThroughProvider, type Account } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import { authorizedSenders, editorSection, seedCampaign, seedTemplate } from './support/campaigns';

type Role = 'viewer' | 'editor' | 'sender';
const ORDER: readonly Role[] = ['viewer', 'editor', 'sender'];
const EDITORS = 'Editors, senders and admins';

const ACCOUNTS: Record<Role, Account> = {
  viewer: { email: 'vera@example.org', password: 'mailroom', firstName: 'Vera', lastName: 'Viewer' },
  editor: { email: 'eddie@example.org', password: 'mailroom', firstName: 'Eddie', lastName: 'Editor' },
  sender: { email: 'sam@example.org', password: 'mailroom', firstName: 'Sam', lastName: 'Sender' },
};

const label = (role: Role) => role.charAt(0).toUpperCase() + role.slice(1);

/** Signs the account in and answers its bearer header, taken from the shell's first API call. */
async function signInAs(page: Page, account: Account): Promise<string> {
  const firstApiCall = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/api/'), { timeout: 30_000 });
  await signInThroughProvider(page, account);
  const authorization = (await (await firstApiCall).allHeaders())['authorization'];
  expect(authorization).toMatch(/^Bearer \S+$/);
  return authorization!;
}

/** A locked action: focusable but inert, and its tooltip says who can. */
async function expectLocked(page: Page, name: string, tooltip: string) {
  const button = page.getByRole('button', { name, exact: true });
  await expect(button).toHaveAttribute('aria-disabled', 'true');
  await button.focus();
  await expect(page.getByRole('tooltip')).toHaveText(tooltip);
  await page.keyboard.press('Escape');
}

async function expectOpen(page: Page, name: string) {
  const button = page.getByRole('button', { name, exact: true });
  await expect(button).toBeVisible();
  await expect(button).not.toHaveAttribute('aria-disabled', 'true');
  await expect(button).toBeEnabled();
}

/**
 * An action that needs `needs` (the operation's x-mailroom-role): locked with its tooltip below it, offered from it on
 * (not locked: some wait for input before they are enabled).
 */
async function expectGate(page: Page, role: Role, needs: Role, name: string, tooltip: string) {
  if (ORDER.indexOf(role) >= ORDER.indexOf(needs)) {
    const button = page.getByRole('button', { name, exact: true });
    await expect(button).toBeVisible();
    await expect(button).not.toHaveAttribute('aria-disabled', 'true');
  } else await expectLocked(page, name, tooltip);
}

/** Every screen's actions for the role: each one an editor's, so a viewer finds them locked or left out. */
async function walkGates(page: Page, role: Role) {
  const viewer = role === 'viewer';
  await page.goto(`/audiences?name=${encodeURIComponent(seeded.name)}`);
  await expectGate(page, role, 'editor', `More actions for ${seeded.name}`, `${EDITORS} can rename or delete audiences`);

  await page.goto(`/audiences/${seeded.audienceId}`);
  // Icon-only actions are left out below their role: their tooltip is their name.
  await expect(page.getByRole('button', { name: 'Edit audience name' })).toHaveCount(viewer ? 0 : 1);
  await page.getByRole('button', { name: 'Options', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Fields' })).toBeVisible();
  // Exports hold addresses: an editor's, left out of a viewer's menu.
  await expect(page.getByRole('menuitem', { name: 'Export Contacts' })).toHaveCount(viewer ? 0 : 1);
  await expect(page.getByRole('menuitem', { name: 'Export consent record' })).toHaveCount(viewer ? 0 : 1);
  await page.keyboard.press('Escape');

  await page.goto(`/audiences/${seeded.audienceId}/fields`);
  await expectGate(page, role, 'editor', 'Add field', `${EDITORS} can add fields`);
  if (viewer) await expectNoAxeViolations(page, 'the fields screen as a viewer');
  await page.goto(`/audiences/${seeded.audienceId}/forms`);
  await expectGate(page, role, 'editor', 'New form', `${EDITORS} can make sign-up forms`);
  await expectGate(page, role, 'editor', 'Save', `${EDITORS} can change the public name`);
  if (viewer) await expectNoAxeViolations(page, 'the forms screen as a viewer');
  await page.goto(`/audiences/${seeded.audienceId}/segments`);
  await expectGate(page, role, 'editor', 'New segment', `${EDITORS} can make segments`);
  await page.goto(`/audiences/${seeded.audienceId}/import`);
  await expectGate(page, role, 'editor', 'Next', `${EDITORS} can import contacts`);

  await page.goto(`/templates?name=${encodeURIComponent(seeded.name)}`);
  await expectGate(page, role, 'editor', `More actions for ${seeded.name}`, `${EDITORS} can copy, rename or delete templates`);
  await page.goto(`/templates/edit/${seeded.templateId}`);
  await expectGate(page, role, 'editor', 'Save and Exit', `${EDITORS} can save templates`);
  await expect(page.getByRole('button', { name: 'Edit name', exact: true })).toHaveCount(viewer ? 0 : 1);

  await page.goto(`/campaigns?name=${encodeURIComponent(seeded.name)}`);
  await expectGate(page, role, 'editor', `More actions for ${seeded.name}`, `${EDITORS} can rename, copy or delete campaigns`);
  if (viewer) await expectNoAxeViolations(page, 'the campaigns list as a viewer');
}

let campaignId: number;
const seeded = { name: '', audienceId: 0, templateId: 0 };

test.beforeAll(async ({ browser }) => {
  // A campaign ready to send, made by the admin (Mia), for every role to open.
  const page = await browser.newPage();
  const api: MemberApi = await signInWithApi(page);
  const name = uniqueName('Roles');
  const audienceId = await api.createAudience(name);
  const added = await api.post(`/api/audiences/${audienceId}/contacts`, { email: `${Date.now()}@example.org`, data: {} });
  expect(added.status()).toBe(201);
  // No merge tags: the audience has no fields, and a schedule checks the template against it.
  const templateId = await seedTemplate(
    api,
    name,
    '<!doctype html><html><head><title>Hello</title></head><body><p>Hello</p></body></html>',
  );
  const [fromEmail] = await authorizedSenders(api);
  campaignId = await seedCampaign(api, name, { audienceId, templateId, fromName: 'News', fromEmail, subject: 'Hello', previewText: '' });
  Object.assign(seeded, { name, audienceId, templateId });
  await page.close();
});

for (const role of ['viewer', 'editor', 'sender'] as const) {
  test(`a ${role} sees its role and what it may do`, async ({ page }) => {
    test.setTimeout(240_000);
    const authorization = await signInAs(page, ACCOUNTS[role]);
    await expect(page).toHaveURL(/\/audiences$/);

    await expect(page.getByRole('region', { name: 'Daily sending quota' }).getByText(`Your role: ${label(role)}`)).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByText(`Role: ${label(role)}`)).toBeVisible();
    // API keys are an admin's: no entry in the drawer.
    await expect(page.getByRole('link', { name: 'API keys' })).toHaveCount(0);

    if (role === 'viewer') await expectLocked(page, 'Create Audience', 'Editors, senders and admins can create audiences');
    else await expectOpen(page, 'Create Audience');
    await expectNoAxeViolations(page, `audiences as a ${role}`);

    await page.goto(`/campaigns/edit/${campaignId}`);
    if (role === 'sender') {
      await expectOpen(page, 'Send');
      await expectOpen(page, 'Schedule');
    } else {
      await expectLocked(page, 'Send', 'Senders and admins can send');
      await expectLocked(page, 'Schedule', 'Senders and admins can schedule');
    }
    await expectGate(page, role, 'editor', 'Finish later', `${EDITORS} can save campaigns`);
    await expectGate(page, role, 'editor', 'Send test email', `${EDITORS} can send test emails`);
    await editorSection(page, 'To').getByRole('button').click();
    await expectGate(page, role, 'editor', 'Change audience', `${EDITORS} can choose a campaign's audience`);
    await editorSection(page, 'Content').getByRole('button').click();
    await expectGate(page, role, 'editor', 'Change template', `${EDITORS} can choose a campaign's template`);
    await expectNoAxeViolations(page, `the campaign editor as a ${role}`);

    // The API refuses what the screen locks, naming who can.
    const headers = { authorization };
    const create = await page.request.post('/api/audiences', { headers, data: { name: uniqueName(`By a ${role}`) } });
    expect(create.status()).toBe(role === 'viewer' ? 403 : 201);
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const send = await page.request.post(`/api/campaigns/${campaignId}/schedule`, { headers, data: { at } });
    if (role === 'sender') {
      expect(send.status(), await send.text()).toBe(200);
      expect((await page.request.post(`/api/campaigns/${campaignId}/unschedule`, { headers })).status()).toBe(200);
    } else {
      expect(send.status()).toBe(403);
      expect(((await send.json()) as { message: string }).message).toMatch(/^Senders and admins can do this/);
    }

    await walkGates(page, role);
  });
}

test('an admin makes an API key, which calls the API until it is revoked', async ({ page }) => {
  test.setTimeout(120_000);
  await signInWithApi(page);
  await expect(page.getByRole('region', { name: 'Daily sending quota' }).getByText('Your role: Admin')).toBeVisible();
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, 'the API keys screen');

  const name = uniqueName('Reporting');
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(key).toMatch(/^mr_\S{43}$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell', { name: 'Active' })).toBeVisible();
  await expectNoAxeViolations(page, 'the API keys screen with a new key');

  const asKey = { authorization: `Bearer ${key}` };
  expect((await page.request.get('/api/audiences', { headers: asKey })).status()).toBe(200);
  // A viewer's key: reading, not changing.
  expect((await page.request.post('/api/audiences', { headers: asKey, data: { name: uniqueName('By a key') } })).status()).toBe(403);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(row.getByRole('cell', { name: 'Revoked' })).toBeVisible();
  const revokedAt = Date.now();
  let status = 0;
  while (Date.now() - revokedAt < 1000) {
    status = (await page.request.get('/api/audiences', { headers: asKey })).status();
    if (status === 401) break;
  }
  expect(status, 'a revoked key is refused within a second').toBe(401);
});

test('the API keys screen and the role work at 390 px in the dark theme, the page never wider than the screen', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithApi(page);
  await expect(page.getByRole('region', { name: 'Daily sending quota' }).getByText('Your role: Admin')).toBeVisible();
  await page.goto('/settings/api-keys');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  const name = uniqueName('Narrow');
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('new-api-key')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, 'the API keys screen at 390 px, dark');
});
