/**
 * The unsubscribe page as a recipient sees it (issue 21), at 390 px in the light and dark colour
 * schemes: the link of a sent mail asks once; after the unsubscribe, the same link says the address
 * is already unsubscribed and asks nothing. axe runs on every page shown.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { people, seedAudience, uniqueTag } from './support/campaigns';
import { inbox, linksOf, mailTo, sendNewsletter } from './support/reports';

for (const colorScheme of ['light', 'dark'] as const) {
  test(`a second visit to an unsubscribe link says the address is already unsubscribed (${colorScheme}, 390 px)`, async ({
    page,
    browser,
  }) => {
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const [person] = people(`leaving-${tag}`, 1);
    const audience = await seedAudience(api, `Leaving ${tag}`, [person!]);
    const subject = `Leaving ${tag}`;
    await sendNewsletter(api, audience, subject);
    const { unsubscribe } = linksOf(mailTo(await inbox(page.request, subject), person!.email));

    // The recipient's own browser: no session of the product.
    const recipient = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme });
    try {
      const mailLink = await recipient.newPage();
      await mailLink.goto(unsubscribe);
      await expect(mailLink.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
      await expectNoAxeViolations(mailLink, `the unsubscribe page (${colorScheme})`);
      await mailLink.getByRole('button', { name: 'Unsubscribe' }).click();
      await expect(mailLink.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();

      const again = await recipient.newPage();
      await again.goto(unsubscribe);
      await expect(again.getByRole('heading', { level: 1, name: 'You are already unsubscribed' })).toBeVisible();
      await expect(again.getByText('This address does not receive emails from Example any more.')).toBeVisible();
      await expect(again.getByRole('button')).toHaveCount(0);
      await expectNoAxeViolations(again, `the page of a second visit (${colorScheme})`);
    } finally {
      await recipient.close();
    }
  });
}
