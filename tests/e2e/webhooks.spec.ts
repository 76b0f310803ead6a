/**
 * The webhooks screen (issue 27): an admin reaches it from the drawer, adds an endpoint and sees its secret once, changes
 * its events and switches it off, makes a new secret, and deletes it after a confirmation naming its URL. Axe at 1280 px
 * and at 390 px in the dark theme, where the page never scrolls sideways. The endpoints are on the loopback address
 * (allowed outside production), so a delivery that other tests' events cause reaches nothing beyond this machine.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, type MemberApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';

/** A loopback URL no server listens on, unique to the test. */
const endpointUrl = (label: string) => `https://127.0.0.1:1/e2e/${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function addEndpoint(page: Page, url: string, events: string[]): Promise<string> {
  await page.getByRole('textbox', { name: /Endpoint URL/ }).fill(url);
  for (const event of events) await page.getByRole('checkbox', { name: event }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'The endpoint’s signing secret' });
  await expect(dialog).toBeVisible();
  const secret = (await dialog.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  return secret;
}

async function deleteByApi(api: MemberApi, url: string) {
  const list = (await (await api.get('/api/webhooks')).json()) as { items: { id: number; url: string }[] };
  for (const endpoint of list.items.filter((each) => each.url === url)) await api.delete(`/api/webhooks/${endpoint.id}`);
}

test('an admin adds an endpoint, sees its secret once, edits it, makes a new secret and deletes it', async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const api = await signInWithApi(page);
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/settings\/webhooks$/);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, 'the webhooks screen');

  const url = endpointUrl('walk');
  try {
    const secret = await addEndpoint(page, url, ['A campaign was sent', 'A contact unsubscribed']);
    const dialog = page.getByRole('dialog', { name: 'The endpoint’s signing secret' });
    await expectNoAxeViolations(page, 'the new secret');
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    await expect(dialog.getByText('Copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    // Shown once: nowhere on the screen any more.
    await expect(page.getByText(secret)).toHaveCount(0);

    const row = page.getByRole('row').filter({ hasText: url });
    await expect(row.getByRole('cell', { name: 'A contact unsubscribed, A campaign was sent' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Yes', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'None yet' })).toBeVisible();

    // Keyboard: the row's actions are reached with Tab, and Enter opens the editor.
    await row.getByRole('button', { name: `Edit ${url}` }).focus();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit the endpoint' });
    await expect(edit).toBeVisible();
    await edit.getByRole('checkbox', { name: 'An import finished' }).check();
    await edit.getByRole('checkbox', { name: 'A contact unsubscribed' }).uncheck();
    await edit.getByRole('switch', { name: 'Active' }).uncheck();
    await expectNoAxeViolations(page, 'the endpoint editor');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(row.getByRole('cell', { name: 'A campaign was sent, An import finished' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'No', exact: true })).toBeVisible();

    await row.getByRole('button', { name: `New secret for ${url}` }).click();
    await page.getByRole('dialog', { name: 'Make a new secret?' }).getByRole('button', { name: 'Make a new secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'The new signing secret' });
    const newSecret = (await rotated.getByTestId('webhook-secret').textContent())!.trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await expect(rotated).toBeHidden();

    // The delivery log: nothing has happened to send yet.
    await row.getByRole('button', { name: `Deliveries to ${url}` }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries' });
    await expect(log.getByText('Nothing has been delivered to this endpoint yet.')).toBeVisible();
    await expectNoAxeViolations(page, 'the delivery log');
    await log.getByRole('button', { name: 'Close' }).click();
    await expect(log).toBeHidden();

    await row.getByRole('button', { name: `Delete ${url}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the endpoint?' });
    await expect(confirm).toContainText(url);
    await expectNoAxeViolations(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: url })).toHaveCount(0);
    // The dialog closed without leaving the page hidden from assistive technology.
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    const list = (await (await api.get('/api/webhooks')).json()) as { items: { url: string }[] };
    expect(list.items.map((each) => each.url)).not.toContain(url);
  } finally {
    await deleteByApi(api, url);
  }
});

test('the webhooks screen at 390 px in the dark theme, the page never wider than the screen', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await signInWithApi(page);
  await page.goto('/settings/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  const url = endpointUrl('narrow-with-a-long-path-that-would-push-the-page-sideways');
  try {
    await addEndpoint(page, url, ['A contact subscribed']);
    await expectNoAxeViolations(page, 'the new secret at 390 px, dark');
    await page.getByRole('dialog', { name: 'The endpoint’s signing secret' }).getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('row').filter({ hasText: url })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, 'the webhooks screen at 390 px, dark');
    await page
      .getByRole('row')
      .filter({ hasText: url })
      .getByRole('button', { name: `Deliveries to ${url}` })
      .click();
    await expect(page.getByRole('dialog', { name: 'Deliveries' }).getByText('Nothing has been delivered')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, 'the delivery log at 390 px, dark');
  } finally {
    await deleteByApi(api, url);
  }
});

test('a member below admin has no webhooks entry and is told who can', async ({ page }) => {
  await signInWithApi(page, { email: 'eddie@example.org', password: 'mailroom', firstName: 'Eddie', lastName: 'Editor' });
  await expect(page.getByRole('region', { name: 'Daily sending quota' }).getByText('Your role: Editor')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  await page.goto('/settings/webhooks');
  await expect(page.getByText('Admins can manage webhooks.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
});
