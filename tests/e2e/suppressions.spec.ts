/**
 * Suppressions people can see and change (an addition to the spec), at 390 px wide in both themes:
 * from the audiences list to /audiences/suppressions, addresses added by paste (the dialog closes and
 * the screen announces the outcome in sentences, a bad line reported), a recipient's unsubscribe made
 * through the one-click link of a sent mail, found by search and by reason with its campaign and the
 * member's additions with the member, one removed after a confirmation that names its reason, the
 * unsubscribe only once the member confirms the person asked to be mailed again, and the list
 * exported as CSV. axe runs on the screen and on its dialogs.
 */
import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { signInWithApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { people, seedAudience, seedTemplate, uniqueTag } from './support/campaigns';
import { createCampaign, inbox, linksOf, mailTo, sendCampaign } from './support/reports';

for (const theme of ['light', 'dark'] as const) {
  test(`manages the suppressions at 390 px in the ${theme} theme`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.setViewportSize({ width: 390, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag().toLowerCase();
    const keep = `keep-${tag}@example.org`;
    const drop = `drop-${tag}@example.org`;

    // A recipient unsubscribes through the one-click link of a campaign's mail, as a mail client posts it.
    const [quitter] = people(`quit-${tag}`, 1);
    const quit = quitter!.email;
    const audience = await seedAudience(api, `Quitters ${tag}`, [quitter!]);
    const campaignName = `News ${tag}`;
    const campaignId = await createCampaign(api, {
      name: campaignName,
      templateId: await seedTemplate(api, `Quitters ${tag}`),
      audienceId: audience.id,
      audienceName: audience.name,
      subject: campaignName,
      fromName: 'News',
    });
    await sendCampaign(api, campaignId);
    const { unsubscribe } = linksOf(mailTo(await inbox(page.request, campaignName), quit));
    expect((await page.request.post(unsubscribe, { form: { 'List-Unsubscribe': 'One-Click' } })).status()).toBe(200);

    await page.goto('/audiences');
    await page.getByRole('button', { name: 'Suppressions' }).click();
    await expect(page).toHaveURL(/\/audiences\/suppressions$/);
    await expect(page.getByRole('heading', { name: 'Suppressions' })).toBeVisible();
    await expect(
      page.getByText(
        'Campaigns are not sent to these addresses. An address is listed when its owner unsubscribes or complains, when mail to it bounces for good or bounces softly too often, or when a member adds it.',
      ),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Add addresses' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add suppressions' });
    await dialog.getByRole('textbox').fill(`${keep}\nnot an address\n${drop}\n`);
    await expectNoAxeViolations(page, `the add dialog (${theme})`);
    await dialog.getByRole('button', { name: 'Add' }).click();
    // The dialog closes; the screen's status region says what happened.
    await expect(dialog).toBeHidden();
    const outcome = page.getByRole('status').filter({ hasText: 'added to the suppressions' });
    await expect(outcome).toContainText('2 addresses were added to the suppressions. 1 line was not added:');
    await expect(outcome.getByRole('list', { name: 'Lines not added' })).toContainText('Line 2: not an address (Invalid email address)');
    await expectNoAxeViolations(page, `the outcome of an add (${theme})`);
    await outcome.getByRole('button', { name: 'Dismiss' }).click();
    await expect(outcome).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search by email' }).fill(tag);
    const table = page.getByRole('table', { name: 'Suppressions' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(page.getByText('1–3 of 3')).toBeVisible();
    // A campaign's row names its campaign; a member's addition names the member, not as a campaign.
    const cells = (email: string) => table.getByRole('row', { name: new RegExp(email) }).getByRole('cell');
    await expect(cells(quit).nth(3)).toHaveText(campaignName);
    await expect(cells(quit).nth(4)).toHaveText('—');
    await expect(cells(keep).nth(3)).toHaveText('—');
    await expect(cells(keep).nth(4)).toHaveText('mia@example.org');
    await page.getByLabel('Reason').selectOption({ label: 'added by a member' });
    await expect(table.getByRole('row')).toHaveCount(3);
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

    // The unsubscribe: the person asked not to be mailed, and the member must say why mailing them is lawful.
    const removals: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && new URL(request.url()).pathname.startsWith('/api/suppressions/')) removals.push(request.url());
    });
    await page.getByLabel('Reason').selectOption({ label: 'unsubscribed' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await page.getByRole('button', { name: `Remove ${quit}` }).click();
    await page.getByRole('alertdialog', { name: 'Remove suppression' }).getByRole('button', { name: 'Remove' }).click();
    const unsubscribed = page.getByRole('alertdialog', { name: 'This person unsubscribed' });
    await expect(unsubscribed).toContainText(`${quit} asked not to receive your emails.`);
    await unsubscribed.getByRole('button', { name: 'Remove anyway' }).click();
    await expect(unsubscribed).toContainText('Confirm that the person asked to receive your emails again, or cancel.');
    await expectNoAxeViolations(page, `the unsubscribe's confirmation (${theme})`);
    expect(removals, 'DELETE calls before the member confirmed').toEqual([]);
    await unsubscribed.getByRole('checkbox', { name: `${quit} has asked to receive our emails again` }).check();
    await unsubscribed.getByRole('button', { name: 'Remove anyway' }).click();
    await expect(unsubscribed).toBeHidden();
    await expect(page.getByText('No suppression matches')).toBeVisible();
  });
}
