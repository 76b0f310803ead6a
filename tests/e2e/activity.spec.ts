/**
 * The activity log (an addition to the spec), from the member's side in both themes: at 390 px the
 * member renames an audience in the app, finds the rename in the log as a sentence, filters the log by
 * that audience and by the action, pages, and the drawer leads there, with nothing past the margin; at
 * 1280 px the Filter button takes a click at its centre, a part of the address filters, objects are
 * named whole and linked to where they are (a deleted one named, not linked), and an edit is logged.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, uniqueName } from './support/audiences';
import { MEMBER } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';

const useTheme = (page: Page, theme: 'light' | 'dark') =>
  page.addInitScript((chosen) => {
    // Where the theme switch keeps its choice (shell/src/features/theme/useThemePreference.ts).
    localStorage.setItem('mailroom.theme', chosen);
  }, theme);

/** The filter form's fields and buttons that run past the main area's content box (none should). */
const pastTheMargin = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main')!;
    const style = getComputedStyle(main);
    const right = main.getBoundingClientRect().right - parseFloat(style.paddingRight);
    const form = document.querySelector('form[role="search"]')!;
    return Array.from(form.querySelectorAll('input, select, button'))
      .filter((element) => element.getBoundingClientRect().right > right + 1)
      .map((element) => element.outerHTML.slice(0, 80));
  });

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} theme at 390 px: do something, see it in the log as a sentence, filter it`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await useTheme(page, theme);
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
    // Names are whole (they wrap); the details are a sentence.
    const renameRow = table.getByRole('row', { name: `${MEMBER.email} Renamed Audience “${after}” #${id} Renamed from “${before}”.` });
    await expect(renameRow).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await pastTheMargin(page)).toEqual([]);
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
    await expect(table.getByRole('row', { name: `${MEMBER.email} Created Audience “${before}” #${id} Created.` })).toBeVisible();

    // A filter nothing matches says so.
    await page.getByRole('combobox', { name: 'Action' }).selectOption('test-send');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByText('No activity matches these filters')).toBeVisible();
    expect(await pastTheMargin(page)).toEqual([]);
    await expectNoAxeViolations(page, `the empty activity filter, ${theme} theme`);

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(renameRow).toBeVisible();
  });

  test(`${theme} theme at 1280 px: the Filter button, a part of the address, whole names linked, edits`, async ({ page }) => {
    await useTheme(page, theme);
    const api = await signInWithApi(page);
    // Longer than the 30 characters names used to be cut at.
    const kept = uniqueName('Activity audience with a name well past thirty characters');
    const keptId = await api.createAudience(kept);
    const gone = uniqueName('Activity audience deleted');
    const goneId = await api.createAudience(gone);
    expect((await api.delete(`/api/audiences/${goneId}`)).status()).toBeLessThan(300);
    const templateName = uniqueName('Activity template');
    const templateId = ((await (await api.post('/api/templates', { name: templateName })).json()) as { id: number }).id;
    expect((await api.put(`/api/templates/${templateId}`, { name: templateName, html: '<p>Edited</p>' })).status()).toBe(200);

    await page.goto('/activity');
    const table = page.getByRole('table', { name: 'Activity' });
    await expect(table).toBeVisible();

    // A click at the Filter button's centre reaches the button (no field lies over it).
    const member = MEMBER.email.split('@')[0]!.toUpperCase();
    await page.getByRole('textbox', { name: /Member/ }).fill(member);
    await page.getByRole('combobox', { name: 'Object' }).selectOption('audience');
    const filter = page.getByRole('button', { name: 'Filter' });
    const box = (await filter.boundingBox())!;
    const atCentre = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(atCentre).toBe('Filter');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page).toHaveURL(new RegExp(`member=${member}&objectType=audience$`));

    // A part of the address, in capitals, finds the member's entries.
    const keptRow = table.getByRole('row', { name: `${MEMBER.email} Created Audience “${kept}” #${keptId} Created.` });
    await expect(keptRow).toBeVisible();
    const keptLink = keptRow.getByRole('link', { name: `“${kept}”` });
    await expect(keptLink).toHaveAttribute('href', `/audiences/${keptId}`);
    // The deleted audience is named, not linked.
    const goneRow = table.getByRole('row', { name: `${MEMBER.email} Deleted Audience “${gone}” #${goneId} (deleted) Deleted.` });
    await expect(goneRow).toBeVisible();
    await expect(goneRow.getByRole('link')).toHaveCount(0);
    await expectNoAxeViolations(page, `the activity log at 1280 px, ${theme} theme`);

    // A template's content save is logged as an edit, linked to its editor.
    await page.getByRole('combobox', { name: 'Object' }).selectOption('template');
    await page.getByRole('combobox', { name: 'Action' }).selectOption('edit');
    await filter.click();
    const editRow = table.getByRole('row', { name: `${MEMBER.email} Edited Template “${templateName}” #${templateId} Saved the content.` });
    await expect(editRow.getByRole('link', { name: `“${templateName}”` })).toHaveAttribute('href', `/templates/edit/${templateId}`);

    // Back to the audiences' entries: the audience's link leads to its page, by keyboard.
    await page.goBack();
    await keptLink.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/audiences/${keptId}$`));
    await expect(page.getByRole('heading', { name: kept })).toBeVisible();
  });
}
