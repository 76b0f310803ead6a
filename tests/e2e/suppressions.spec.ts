/**
 * Suppressions people can see and change (an addition to the spec), at 390 px wide in both themes:
 * from the audiences list to /audiences/suppressions, addresses added by paste (a bad line reported),
 * found by search and by reason, one removed after a confirmation that names its reason, and the
 * list exported as CSV. axe runs on the screen and on its dialogs.
 */
import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { signInWithApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { uniqueTag } from './support/campaigns';

for (const theme of ['light', 'dark'] as const) {
  test(`manages the suppressions at 390 px in the ${theme} theme`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.setViewportSize({ width: 390, height: 844 });
    await signInWithApi(page);
    const tag = uniqueTag().toLowerCase();
    const keep = `keep-${tag}@example.org`;
    const drop = `drop-${tag}@example.org`;

    await page.goto('/audiences');
    await page.getByRole('button', { name: 'Suppressions' }).click();
    await expect(page).toHaveURL(/\/audiences\/suppressions$/);
    await expect(page.getByRole('heading', { name: 'Suppressions' })).toBeVisible();

    await page.getByRole('button', { name: 'Add addresses' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add suppressions' });
    await dialog.getByRole('textbox').fill(`${keep}\nnot an address\n${drop}\n`);
    await expectNoAxeViolations(page, `the add dialog (${theme})`);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog.getByText('2 added, 0 already suppressed, 1 lines not added:')).toBeVisible();
    await expect(dialog.getByText('Line 2: not an address (Invalid email address)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('searchbox', { name: 'Search by email' }).fill(tag);
    const table = page.getByRole('table', { name: 'Suppressions' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(page.getByText('1–2 of 2')).toBeVisible();
    await page.getByLabel('Reason').selectOption({ label: 'added by a member' });
    await expect(table.getByRole('row', { name: new RegExp(keep) })).toContainText('added by a member');
    await expectNoAxeViolations(page, `the suppressions list (${theme})`);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('suppressions.csv');
    const csv = await readFile((await file.path())!, 'utf8');
    expect(csv.split('\n')[0]).toBe('"email","reason","date","campaign id","campaign","added by"');
    expect(csv).toContain(`"${drop}","added by a member"`);

    await page.getByRole('button', { name: `Remove ${drop}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove suppression' });
    await expect(confirm).toContainText('added by a member');
    await expectNoAxeViolations(page, `the removal confirmation (${theme})`);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(page.getByText('1–1 of 1')).toBeVisible();
  });
}
