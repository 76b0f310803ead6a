/**
 * The preference centre (issue 25) as a recipient and a member see it: a person on two audiences with public
 * names gets a campaign mail, opens its unsubscribe page, follows "Manage your preferences", switches one
 * audience off and edits a field, and saves. The member then sees the contact unsubscribed from that audience
 * only, with the new value in the other. The member names one audience on the forms screen. Light at 1280 px
 * and dark at 390 px, axe on the public pages and the screens.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi, toast } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { people, seedAudience, uniqueTag } from './support/campaigns';
import { inbox, linksOf, mailTo, sendNewsletter } from './support/reports';

const LOOKS = [
  { colorScheme: 'light', width: 1280, height: 900 },
  { colorScheme: 'dark', width: 390, height: 844 },
] as const;

for (const { colorScheme, width, height } of LOOKS) {
  test(`a person leaves one audience and edits a field in the preference centre (${colorScheme}, ${width} px)`, async ({
    page,
    browser,
  }) => {
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), colorScheme);
    await page.setViewportSize({ width, height });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const [person, other] = people(`prefs-${tag}`, 2);
    const garden = await seedAudience(api, `Garden members ${tag}`, [person!, other!]);
    const events = await seedAudience(api, `Event list ${tag}`, [person!]);
    const gardenName = `Garden news ${tag}`;
    const eventsName = `Events ${tag}`;
    expect((await api.patch(`/api/audiences/${garden.id}/fields/city`, { editableByPerson: true })).status()).toBe(200);
    expect((await api.patch(`/api/audiences/${events.id}`, { publicName: eventsName })).status()).toBe(200);

    // The member names the garden audience for its subscribers on the forms screen.
    await page.goto(`/audiences/${garden.id}/forms`);
    const publicName = page.getByRole('textbox', { name: /Name shown to subscribers in their preferences/ });
    await publicName.fill(gardenName);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toast(page, 'The public name is saved')).toBeVisible();
    await expectNoAxeViolations(page, `the forms screen with a public name (${colorScheme})`);
    expect((await api.audience(garden.id)) as unknown as { publicName: string }).toMatchObject({ publicName: gardenName });

    const subject = `Preferences ${tag}`;
    await sendNewsletter(api, garden, subject);
    await expect.poll(async () => (await inbox(page.request, subject)).length, { timeout: 30_000 }).toBe(2);
    const { unsubscribe } = linksOf(mailTo(await inbox(page.request, subject), person!.email));

    // The recipient's own browser: no session of the product.
    const recipient = await browser.newContext({ viewport: { width, height }, colorScheme });
    try {
      const mailLink = await recipient.newPage();
      await mailLink.goto(unsubscribe);
      await expect(mailLink.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
      await mailLink.getByRole('link', { name: 'Manage your preferences' }).click();
      await expect(mailLink.getByRole('heading', { level: 1, name: 'Your preferences' })).toBeVisible();
      expect(new URL(mailLink.url()).pathname).toBe(new URL(unsubscribe).pathname.replace('/unsubscribe/', '/preferences/'));
      await expect(mailLink.getByRole('group', { name: gardenName })).toBeVisible();
      await expect(mailLink.getByRole('group', { name: eventsName })).toBeVisible();
      await expect(mailLink.getByText(`Garden members ${tag}`)).toHaveCount(0);
      expect(await mailLink.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(mailLink, `the preference centre (${colorScheme})`);

      const eventsSwitch = mailLink.getByRole('checkbox', { name: `Receive emails of ${eventsName}` });
      await expect(eventsSwitch).toBeChecked();
      await eventsSwitch.uncheck();
      const city = mailLink.getByRole('group', { name: gardenName }).getByRole('textbox', { name: /city/i });
      await expect(city).toHaveValue(person!.city);
      await city.fill('Ghent');
      await mailLink.getByRole('button', { name: 'Save my preferences' }).click();
      await expect(mailLink.getByRole('heading', { level: 1, name: 'Your preferences are saved' })).toBeVisible();
      await expect(mailLink.getByText(`You will no longer receive ${eventsName}.`)).toBeVisible();
      await expect(mailLink.getByText(`Your details for ${gardenName} are updated:`)).toBeVisible();
      await expectNoAxeViolations(mailLink, `the saved preferences (${colorScheme})`);

      await mailLink.getByRole('link', { name: 'Back to your preferences' }).click();
      await expect(mailLink.getByRole('checkbox', { name: `Receive emails of ${eventsName}` })).not.toBeChecked();
      await expect(mailLink.getByRole('checkbox', { name: `Receive emails of ${gardenName}` })).toBeChecked();
    } finally {
      await recipient.close();
    }

    // The member's view: unsubscribed from the events audience only; the garden contact has the new city. Rows are
    // found by first name: the table cuts a long address.
    await page.goto(`/audiences/${events.id}`);
    const eventsRow = page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: person!.firstName });
    await expect(eventsRow.getByRole('cell').first()).toHaveText('Unsubscribed from this audience');
    await expectNoAxeViolations(page, `the contacts with one that left (${colorScheme})`);
    await page.goto(`/audiences/${garden.id}`);
    const gardenRow = page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: person!.firstName });
    await expect(gardenRow.getByRole('img', { name: 'Valid' })).toBeVisible();
    await expect(gardenRow).toContainText('Ghent');
  });
}
