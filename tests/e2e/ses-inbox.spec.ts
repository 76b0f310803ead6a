/**
 * The local SES inbox (issue 21): the inbox viewer of the embedded SES (api/dev/embedded/ses.ts, the
 * suite's local SES) shows each mail it took. Opened in a browser it used to load every mail's open
 * pixel at once, recording opens, counted as people's, for mails nobody read. Here a campaign is sent
 * to the local SES, the inbox and the mail's html view are opened in Chromium, and the browser
 * requests nothing but the inbox's own server (no tracking route, no remote image), and the campaign
 * records no open.
 *
 * The viewer is aws-ses-v2-local's developer page, not a screen of the product: axe-core is not run
 * on its markup (the product's own screens are checked in their specs).
 */
import { expect, test } from '@playwright/test';
import { signInWithApi } from './support/audiences';
import { NEWSLETTER_HTML, people, seedAudience, seedTemplate, uniqueTag } from './support/campaigns';
import { createCampaign, inbox, linksOf, mailTo, readCampaign, sendCampaign, sesInboxUrl } from './support/reports';
import { baseURL } from './support/stack';

/** A remote image besides the pixel: a mail client blocks both until asked. */
const REMOTE_IMAGE = 'https://images.example.org/logo.png';

test('the local SES inbox shows a mail without loading its pixel or remote images', async ({ page }) => {
  const api = await signInWithApi(page);
  const tag = uniqueTag();
  const [person] = people(`inbox-${tag}`, 1);
  const audience = await seedAudience(api, `Inbox ${tag}`, [person!]);
  const html = NEWSLETTER_HTML.replace('</h1>', `</h1><p style="padding:0 24px"><img src="${REMOTE_IMAGE}" alt="Our logo"></p>`);
  const templateId = await seedTemplate(api, `Inbox ${tag}`, html);
  const subject = `Inbox ${tag}`;
  const id = await createCampaign(api, {
    name: `Inbox ${tag}`,
    templateId,
    audienceId: audience.id,
    audienceName: audience.name,
    subject,
    fromName: 'News',
  });
  await sendCampaign(api, id);
  const mail = mailTo(await inbox(page.request, subject), person!.email);
  // The mail does carry a pixel of the API and the remote image: the browser would fetch them if let.
  const { open } = linksOf(mail);
  expect(mail.html).toContain(`src="${REMOTE_IMAGE}"`);

  // The app's own page (where signing in left the browser) is left first: a call of it still in flight
  // would be aborted by the navigation below and read as a request of the inbox page.
  await page.goto('about:blank');
  // Chromium reports a request its Content-Security-Policy refused as a failed request: that one never
  // left the browser. Any other request beyond the inbox's server, answered or failed, did.
  const beyond = (url: string) => !url.startsWith(`${sesInboxUrl}/`) && !url.startsWith('data:') && !url.startsWith('blob:');
  const outside: string[] = [];
  const refused: string[] = [];
  page.on('requestfinished', (request) => {
    if (beyond(request.url())) outside.push(request.url());
  });
  page.on('requestfailed', (request) => {
    if (!beyond(request.url())) return;
    const reason = request.failure()?.errorText ?? '';
    if (reason === 'csp') refused.push(request.url());
    else outside.push(`${request.url()} (${reason})`);
  });
  await page.goto(sesInboxUrl);
  const card = page.locator('.email').filter({ hasText: subject });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Toggle HTML view' }).click();
  const shown = card.frameLocator('iframe');
  await expect(shown.getByText(`Dear ${person!.firstName} of ${person!.city},`)).toBeVisible();
  await expect(shown.getByRole('link', { name: 'Read the news' })).toBeVisible();
  await expect(shown.getByRole('img', { name: 'Our logo' })).toBeAttached();

  // The API records hits every 250 ms: a second is time enough for an open to show.
  await page.waitForTimeout(1_000);
  expect(outside, 'requests of the inbox page beyond the local SES').toEqual([]);
  // The inbox lists every mail the suite sent so far: their pixels are refused too, this one's among them.
  expect(refused, 'what the policy refused').toEqual(expect.arrayContaining([open, REMOTE_IMAGE]));
  expect(open.startsWith(`${baseURL}/t/o/`)).toBe(true);
  const campaign = (await readCampaign(api, id)) as Awaited<ReturnType<typeof readCampaign>> & {
    uniqueOpens: number;
    humanUniqueOpens: number;
  };
  expect({ uniqueOpens: campaign.uniqueOpens, humanUniqueOpens: campaign.humanUniqueOpens }).toEqual({
    uniqueOpens: 0,
    humanUniqueOpens: 0,
  });
});
