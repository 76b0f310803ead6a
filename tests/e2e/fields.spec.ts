/**
 * An audience's typed fields (issue 24): from the audience's Options menu to /audiences/{id}/fields, a field of each
 * type added through the dialog (the key suggested from the label, a choice with its options), one renamed with its
 * key kept, and one that a template uses as a merge tag removed only after the screen names that template and the
 * member confirms. Wide in the light theme and at 390 px in the dark one; axe on the screen and its dialogs.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { seedTemplate, uniqueTag } from './support/campaigns';

const FIELDS = [
  { label: 'Nickname', key: 'nickname', type: 'Text' },
  { label: 'Age', key: 'age', type: 'Number' },
  { label: 'Birthday', key: 'birthday', type: 'Date' },
  { label: 'Member', key: 'member', type: 'Yes / No' },
  { label: 'Plan', key: 'plan', type: 'One of a list', options: ['Gold', 'Silver'] },
];

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 390 },
] as const) {
  test(`adds, renames and removes fields at ${width} px in the ${theme} theme`, async ({ page }) => {
    // Five dialogs and four axe passes: on a loaded machine that takes longer than the default two minutes.
    test.setTimeout(240_000);
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.setViewportSize({ width, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const name = `Fields ${tag}`;
    const id = await api.createAudience(name);
    const templateName = `Welcome ${tag}`;
    await seedTemplate(api, templateName, `<html><body><p>Hello {{ NickName | friend }}</p></body></html>`);

    await page.goto(`/audiences/${id}`);
    await page.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('menuitem', { name: 'Fields' }).click();
    await expect(page).toHaveURL(new RegExp(`/audiences/${id}/fields$`));
    await expect(page.getByRole('heading', { name: `Fields of ${name}` })).toBeVisible();
    await expect(page.getByText('No fields yet')).toBeVisible();
    await expectNoAxeViolations(page, `the empty fields screen (${theme})`);

    for (const field of FIELDS) {
      await page.getByRole('button', { name: 'Add field' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add field' });
      await dialog.getByRole('textbox', { name: 'Label' }).fill(field.label);
      await expect(dialog.getByRole('textbox', { name: 'Key (the merge tag)' })).toHaveValue(field.key);
      await dialog.getByRole('combobox', { name: 'Type' }).selectOption({ label: field.type });
      if (field.options) {
        await dialog.getByRole('textbox', { name: /Options, one a line/ }).fill(field.options.join('\n'));
        await dialog.getByRole('checkbox', { name: 'Required' }).check();
        await expectNoAxeViolations(page, `the add dialog with a choice (${theme})`);
      }
      await dialog.getByRole('button', { name: 'Add' }).click();
      await expect(dialog).toBeHidden();
    }
    const table = page.getByRole('table', { name: 'Fields' });
    await expect(table.getByRole('row')).toHaveCount(FIELDS.length + 1);
    for (const field of FIELDS)
      await expect(table.getByRole('row', { name: new RegExp(`\\{\\{${field.key}\\}\\}`) })).toContainText(field.label);
    expect((await api.audience(id)).headers).toEqual(FIELDS.map((field) => field.key));
    await expectNoAxeViolations(page, `the fields table (${theme})`);

    // Renamed: the label changes, the key (the templates' merge tag) stays.
    await page.getByRole('button', { name: 'Change Nickname' }).click();
    const change = page.getByRole('dialog', { name: 'Change Nickname' });
    await expect(change.getByRole('textbox', { name: 'Key (the merge tag)' })).toHaveAttribute('readonly', '');
    await change.getByRole('textbox', { name: 'Label' }).fill('Nick name');
    await change.getByRole('button', { name: 'Save' }).click();
    await expect(change).toBeHidden();
    await expect(table.getByRole('row', { name: /\{\{nickname\}\}/ })).toContainText('Nick name');

    // The template uses {{ NickName | friend }}: the removal names it and asks again.
    await page.getByRole('button', { name: 'Remove Nick name' }).click();
    await page.getByRole('alertdialog', { name: 'Remove field' }).getByRole('button', { name: 'Remove' }).click();
    const asked = page.getByRole('alertdialog', { name: 'Templates use this field' });
    await expect(asked.getByRole('link', { name: templateName })).toBeVisible();
    await expectNoAxeViolations(page, `the templates that use the field (${theme})`);
    expect((await api.audience(id)).headers).toContain('nickname');
    await asked.getByRole('button', { name: 'Remove anyway' }).click();
    await expect(asked).toBeHidden();
    await expect(table.getByRole('row')).toHaveCount(FIELDS.length);
    expect((await api.audience(id)).headers).toEqual(FIELDS.slice(1).map((field) => field.key));
  });
}
