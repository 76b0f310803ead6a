/**
 * The theme follows the system's light or dark setting (prefers-color-scheme), even when it changes
 * while the page is open, until the member flips the switch; from then on their choice holds.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';

test.use({ colorScheme: 'dark' });

const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';

async function fluentBackground(page: Page): Promise<string> {
  return page
    .locator('.fui-FluentProvider')
    .first()
    .evaluate((element) => getComputedStyle(element).backgroundColor);
}

test('a member who never chose a theme gets the system one, and it follows a change of the setting', async ({ page }) => {
  await signInAsMember(page);
  const themeSwitch = page.getByRole('switch', { name: 'Dark theme' });
  await expect(themeSwitch).toBeChecked();
  await expect.poll(() => fluentBackground(page)).not.toBe(LIGHT_BACKGROUND);
  const dark = await fluentBackground(page);
  await expectNoAxeViolations(page, 'the audiences in the system dark theme');

  // The system turns light while the page is open.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(themeSwitch).not.toBeChecked();
  await expect.poll(() => fluentBackground(page)).toBe(LIGHT_BACKGROUND);
  await expectNoAxeViolations(page, 'the audiences in the system light theme');

  // At 390 px the page follows the system too, and the switch in the overlay drawer says so.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => fluentBackground(page)).toBe(dark);
  await expectNoAxeViolations(page, 'the audiences at 390 px in the system dark theme');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => fluentBackground(page)).toBe(LIGHT_BACKGROUND);
  await expectNoAxeViolations(page, 'the audiences at 390 px in the system light theme');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(themeSwitch).not.toBeChecked();
  await expectNoAxeViolations(page, 'the open drawer at 390 px in the system light theme');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(themeSwitch).toBeChecked();
  await expectNoAxeViolations(page, 'the open drawer at 390 px in the system dark theme');
});

test("the member's choice wins over the system setting, then and after a reload", async ({ page }) => {
  await signInAsMember(page);
  const themeSwitch = page.getByRole('switch', { name: 'Dark theme' });
  await expect(themeSwitch).toBeChecked();

  // Chosen by keyboard: light, on a dark system.
  await themeSwitch.focus();
  await page.keyboard.press('Space');
  await expect(themeSwitch).not.toBeChecked();
  await expect.poll(() => fluentBackground(page)).toBe(LIGHT_BACKGROUND);

  // A change of the system setting no longer moves it.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(themeSwitch).not.toBeChecked();
  expect(await fluentBackground(page)).toBe(LIGHT_BACKGROUND);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Dark theme' })).not.toBeChecked();
  await expect.poll(() => fluentBackground(page)).toBe(LIGHT_BACKGROUND);
});
