/**
 * One person across audiences (issue 24), from the member's side: at 390 px in the dark theme and at
 * 1280 px in the light one, the drawer leads to /people by keyboard; the member types a person's
 * address in other capitals and finds both audiences it is on, the mail a campaign sent it with the
 * open a mail client made, and the import that brought it in; downloads everything as one JSON file;
 * erases it after a dialog naming what goes; and finds it again as erased, gone from its audience.
 * axe runs on the search, the person, the dialog and the erased person.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { signInWithApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { people, seedAudience, seedTemplate, uniqueTag } from './support/campaigns';
import { createCampaign, inbox, linksOf, mailTo, openMail, sendCampaign } from './support/reports';

const useTheme = (page: Page, theme: 'light' | 'dark') =>
  page.addInitScript((chosen) => localStorage.setItem('mailroom.theme', chosen), theme);

for (const [theme, width] of [
  ['dark', 390],
  ['light', 1280],
] as const) {
  test(`finds a person, exports everything and erases it at ${width} px in the ${theme} theme`, async ({ page }) => {
    await useTheme(page, theme);
    await page.setViewportSize({ width, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const [person, other] = people(`erin-${tag}`, 2);
    const address = person!.email;
    const first = await seedAudience(api, `Newsletter ${tag}`, [person!, other!]);
    const second = await seedAudience(api, `Events ${tag}`, [{ ...person!, email: address.toUpperCase(), city: 'Erasmia' }]);

    // A campaign's mail to the person, opened in a mail client.
    const campaignName = `Erin news ${tag}`;
    const campaignId = await createCampaign(api, {
      name: campaignName,
      templateId: await seedTemplate(api, `People ${tag}`),
      audienceId: first.id,
      audienceName: first.name,
      subject: campaignName,
      fromName: 'News',
    });
    await sendCampaign(api, campaignId);
    await openMail(page.request, linksOf(mailTo(await inbox(page.request, campaignName), address)));
    // Hits are recorded a quarter second at a time: the open is in before the page reads the person.
    await expect
      .poll(async () => (await (await api.get(`/api/people?email=${encodeURIComponent(address)}`)).json()).opens, { timeout: 15_000 })
      .toEqual({ people: 1, machines: 0 });

    // The drawer leads to People, by keyboard (an overlay drawer under 600 px).
    await page.goto('/audiences');
    if (width < 600) await page.getByRole('button', { name: 'Open navigation' }).click();
    const link = page.getByRole('link', { name: 'People' });
    await expect(link).toHaveAttribute('href', '/people');
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/people$/);
    await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
    await expectNoAxeViolations(page, `the people search at ${width} px (${theme})`);

    // The whole address, in other capitals, by keyboard; it never reaches the page's URL.
    const box = page.getByRole('textbox', { name: /Email address/ });
    await box.focus();
    await page.keyboard.type(`  ${address.replace('erin', 'ERIN')} `);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: address })).toBeVisible();
    expect(page.url()).not.toContain(tag);
    const audiences = page.getByRole('table', { name: 'Audiences' });
    await expect(audiences.getByRole('row')).toHaveCount(3);
    await expect(audiences).toContainText(`Newsletter ${tag}`);
    await expect(audiences).toContainText(`Events ${tag}`);
    await expect(audiences).toContainText('city: Erasmia');
    const mails = page.getByRole('table', { name: 'Mails' });
    await expect(mails.getByRole('row')).toHaveCount(2);
    await expect(mails).toContainText(campaignName);
    await expect(page.getByLabel('Summary')).toContainText('1 by a person, 0 by machines');
    await expect(page.getByText(new RegExp(`^Imported into Newsletter ${tag} on .* by mia@example\\.org$`))).toBeVisible();
    await expectNoAxeViolations(page, `a person at ${width} px (${theme})`);

    // Everything, as one JSON file named by the day, not the address.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export everything' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^person-\d{4}-\d{2}-\d{2}\.json$/);
    const held = JSON.parse(await readFile((await file.path())!, 'utf8')) as {
      email: string;
      audiences: { audienceName: string; data: Record<string, string> }[];
      mails: { campaignName: string }[];
      hits: { kind: string; byPerson: boolean }[];
    };
    expect(held.email).toBe(address);
    expect(held.audiences.map((a) => a.audienceName).sort()).toEqual([`Events ${tag}`, `Newsletter ${tag}`]);
    expect(held.mails.map((m) => m.campaignName)).toEqual([campaignName]);
    expect(held.hits).toEqual([expect.objectContaining({ kind: 'OPEN', byPerson: true })]);

    // Erase, after a dialog that names what goes.
    await page.getByRole('button', { name: 'Erase' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Erase ${address}?` });
    await expect(dialog).toContainText(`2 contacts in Newsletter ${tag}, Events ${tag}, with every field, will be deleted.`);
    await expect(dialog).toContainText('1 mail and 1 open or click stay in the reports');
    await expect(dialog).toContainText('This cannot be undone.');
    await expectNoAxeViolations(page, `the erase dialog at ${width} px (${theme})`);
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/^This address was erased on /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Erase' })).toBeHidden();
    await expectNoAxeViolations(page, `an erased person at ${width} px (${theme})`);

    // Gone from its audience; the other contact stays.
    const contacts = await (await api.get(`/api/audiences/${first.id}/contacts?limit=10`)).json();
    expect(contacts.items.map((c: { email: string }) => c.email)).toEqual([other!.email]);
    expect((await api.get(`/api/audiences/${second.id}`)).status()).toBe(200);
  });
}
