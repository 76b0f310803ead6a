/**
 * The activity log (an addition to the spec), from the member's side at 390 px in both themes: the
 * member renames an audience in the app, finds the rename in the log with the former name, filters the
 * log by that audience and by the action, pages, and the drawer leads there.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi, uniqueName } from './support/audiences';
import { MEMBER } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} theme at 390 px: do something, see it in the log, filter it`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((chosen) => {
      // Where the theme switch keeps its choice (shell/src/features/theme/useThemePreference.ts).
      localStorage.setItem('mailroom.theme', chosen);
    }, theme);
    const api = await signInWithApi(page);
    const before = uniqueName('Activity audience');
    const after = `${before} renamed`;
    const id = await api.createAudience(before);

    // The rename, through the API the screen uses.
    expect((await api.put(`/api/audiences/${id}`, { name: after })).status()).toBe(200);

    // The drawer leads to the log (overlay drawer under 600 px), by keyboard.
    await page.goto('/audiences');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const activityLink = page.getByRole('link', { name: 'Activity' });
    await expect(page.getByRole('link', { name: 'Suppressions' })).toHaveAttribute('href', '/audiences/suppressions');
    await activityLink.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();

    const table = page.getByRole('table', { name: 'Activity' });
    // Long values are cut on screen (the whole in a tooltip); a row's accessible name holds them whole.
    const renameRow = table.getByRole('row', { name: `${MEMBER.email} Renamed Audience “${after}” #${id} from: ${before}` });
    await expect(renameRow).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, `the activity log at 390 px, ${theme} theme`);

    // Filter by the object (audience and its id) and the action: only that rename is left.
    await page.getByRole('combobox', { name: 'Object' }).selectOption('audience');
    await page.getByRole('textbox', { name: 'Object id' }).fill(String(id));
    await page.getByRole('combobox', { name: 'Action' }).selectOption('rename');
    await page.getByRole('textbox', { name: 'Object id' }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`objectId=${id}`));
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(renameRow).toBeVisible();

    // The create of the same audience, by the action filter.
    await page.getByRole('combobox', { name: 'Action' }).selectOption('create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(table.getByRole('row', { name: `${MEMBER.email} Created Audience “${before}” #${id}` })).toBeVisible();

    // A filter nothing matches says so.
    await page.getByRole('combobox', { name: 'Action' }).selectOption('test-send');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByText('No activity matches these filters')).toBeVisible();
    await expectNoAxeViolations(page, `the empty activity filter, ${theme} theme`);

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(renameRow).toBeVisible();
  });
}
