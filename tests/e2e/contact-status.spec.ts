/**
 * The audience's contact list tells a person which contacts a send will not reach, at 390 px wide in
 * both themes: a contact who unsubscribed through the one-click link of a mail reads 'Suppressed
 * (unsubscribed)' instead of the success check (an addition to the spec), and an address SES would
 * refuse (letters beyond ASCII before the @) is imported as invalid, its error saying why, while an
 * internationalised domain is valid and receives its mail.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi, uniqueName } from './support/audiences';
import { expectNoAxeViolations, expectNoOverlappingCells } from './support/browser-checks';
import { people, seedAudience, seedTemplate, uniqueTag } from './support/campaigns';
import { createCampaign, inbox, linksOf, mailTo, sendCampaign } from './support/reports';

const NON_ASCII_LOCAL_PART = 'Invalid email address: Amazon SES cannot send to letters beyond ASCII before the @';

for (const theme of ['light', 'dark'] as const) {
  test(`an unsubscribed contact reads Suppressed with its reason at 390 px in the ${theme} theme`, async ({ page, request }) => {
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.setViewportSize({ width: 390, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const [stays, quitter] = people(tag, 2);
    const international = { email: `${tag}-idn@bücher.example`, firstName: 'Ida', city: 'Graz' };
    const refused = `${tag}-café@münchen.example`;
    const audience = await seedAudience(api, uniqueName('Contact status'), [stays!, quitter!, international], { invalid: [refused] });
    const templateId = await seedTemplate(api, `${tag} template`);

    const subject = `${tag} news`;
    await sendCampaign(
      api,
      await createCampaign(api, {
        name: subject,
        templateId,
        audienceId: audience.id,
        audienceName: audience.name,
        subject,
        fromName: 'Mailroom e2e',
      }),
    );
    // The internationalised domain went to SES in its ASCII form, and arrived.
    await expect.poll(async () => (await inbox(request, subject)).length, { timeout: 30_000 }).toBe(3);
    const mails = await inbox(request, subject);
    expect(mails.map((mail) => mail.to)).toContain(`${tag}-idn@xn--bcher-kva.example`);
    const { unsubscribe } = linksOf(mailTo(mails, quitter!.email));
    expect((await request.post(unsubscribe, { form: { 'List-Unsubscribe': 'One-Click' } })).ok()).toBeTruthy();

    await page.goto(`/audiences/${audience.id}`);
    const table = page.getByRole('table', { name: 'Contacts' });
    const rowOf = (email: string) => table.getByRole('row').filter({ hasText: email });
    await expect(rowOf(quitter!.email).getByRole('cell').first()).toHaveText('Suppressed (unsubscribed)');
    await expect(rowOf(stays!.email).getByRole('img', { name: 'Valid' })).toBeVisible();
    await expect(rowOf(international.email).getByRole('img', { name: 'Valid' })).toBeVisible();
    // The refused address's error says why; the keyboard reaches it and its tooltip.
    const error = rowOf(`${tag}-café@`).getByRole('img', { name: NON_ASCII_LOCAL_PART });
    await error.focus();
    await expect(page.getByRole('tooltip')).toHaveText(NON_ASCII_LOCAL_PART);
    await expectNoOverlappingCells(table);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, `the contacts with a suppressed one (${theme})`);
  });
}
