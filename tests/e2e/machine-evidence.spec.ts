/**
 * Why a 'Yes (machine)' is a machine's (issue 21, an addition to the spec): the Email Performance tab's
 * verdicts say it in a tooltip the keyboard reaches, in the light and dark themes and at 390 px, with axe.
 *
 * One campaign of two links goes to five recipients through the local SES; each mail is then read
 * through its own tracking links the way the README's rules tell apart. The suite's stack trusts the
 * loopback proxy (TRUST_PROXY's default), so X-Forwarded-For gives each hit its client address:
 *  - Ann: Apple Mail Privacy Protection fetches her images from Apple's addresses (a machine's open);
 *  - Bob: `curl` calling itself Gmail's image proxy from an address that is not Google's (a bot);
 *  - Cat: Gmail's image proxy from Google's addresses, as when she opens the mail (a person);
 *  - Dan: a link scanner fetches the pixel, a link and the hidden link within a second (a machine);
 *  - Eve: opens, then clicks both links 3 s apart (a person: two quick clicks are no scanner's burst).
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, uniqueName } from './support/audiences';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import {
  BROWSER_AGENT,
  createCampaign,
  emailPerformanceTable,
  inbox,
  linksOf,
  mailTo,
  performanceRow,
  reportPath,
  sendCampaign,
  tabTo,
  type InboxMail,
} from './support/reports';
import { stateDir } from './support/stack';
import { createTemplate } from './support/templates';

test.describe.configure({ mode: 'serial' });

const ANN = 'ann@icloud.com';
const BOB = 'bob@example.net';
const CAT = 'cat@gmail.com';
const DAN = 'dan@example.com';
const EVE = 'eve@example.org';
const RECIPIENTS = [ANN, BOB, CAT, DAN, EVE];

const NEWS = 'https://example.org/news';
const EVENTS = 'https://example.org/events';
const TEMPLATE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head><body><h1>Hello {{firstName}}</h1>' +
  `<p><a href="${NEWS}">Read the news</a></p><p><a href="${EVENTS}">See the events</a></p></body></html>`;

const GMAIL_PROXY_AGENT = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
const APPLE_PROXY_ADDRESS = '17.58.101.12';
const GOOGLE_PROXY_ADDRESS = '66.249.84.27';

let built: { campaignId: number } | undefined;
const journey = () => {
  if (!built) throw new Error('the first test did not build the campaign');
  return built;
};

/** The href of the mail's hidden link (no text, no size: only scanners follow it). */
function hiddenLinkOf(mail: InboxMail): string {
  const anchor = /<a\b[^>]*\bdata-hidden-link\b[^>]*>/.exec(mail.html)?.[0];
  const href = anchor && /\bhref="([^"]+)"/.exec(anchor)?.[1];
  expect(href, `the hidden link in the mail to ${mail.to}`).toBeTruthy();
  return href!.replaceAll('&amp;', '&');
}

/** The Clicked and Opened cells of a recipient's row. */
const verdicts = (page: Page, email: string) => performanceRow(page, email).locator('td:nth-child(3), td:nth-child(4)');

async function verdictTexts(page: Page, email: string): Promise<string[]> {
  const cells = performanceRow(page, email).locator('td');
  return [(await cells.nth(2).innerText()).trim(), (await cells.nth(3).innerText()).trim()];
}

async function screenshot(page: Page, name: string) {
  const body = await page.screenshot({ fullPage: true, path: join(stateDir, `machine-evidence-${name}.png`) });
  await test.info().attach(`machine evidence, ${name}`, { body, contentType: 'image/png' });
}

test('five mails read by people, proxies, a bot and a scanner through their own links', async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await signInWithApi(page);
  const tag = uniqueName('Evidence');
  const audienceName = `${tag} audience`;
  const audienceId = await api.createAudience(audienceName);
  const csv = ['email,firstName', ...RECIPIENTS.map((email) => `${email},${email.split('@')[0]}`)].join('\n');
  const imported = await api.postForm(`/api/audiences/${audienceId}/import/file?type=csv`, {
    file: { name: 'recipients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
  });
  expect(imported.status(), 'the import').toBe(202);
  await expect
    .poll(async () => {
      const { numberOfContacts, isImporting } = await api.audience(audienceId);
      return { numberOfContacts, isImporting };
    })
    .toEqual({ numberOfContacts: RECIPIENTS.length, isImporting: false });
  const templateId = await createTemplate(api, `${tag} template`);
  expect(
    (
      await api.put(`/api/templates/${templateId}`, { name: `${tag} template`, design: { body: { rows: [] } }, html: TEMPLATE_HTML })
    ).status(),
  ).toBe(200);
  const campaignId = await createCampaign(api, {
    name: `${tag} campaign`,
    templateId,
    audienceId,
    audienceName,
    subject: `${tag} news`,
    fromName: 'Mailroom e2e',
  });
  expect(await sendCampaign(api, campaignId)).toMatchObject({ status: 'SENT', jobsSent: 5, jobsFailed: 0 });
  const mails = await inbox(request, tag);
  const mailOf = (to: string) => mailTo(mails, to);
  // People read after the first 10 s, when a click is no longer too soon to be theirs.
  const readable = Date.now() + 11_000;

  const hit = async (url: string, agent: string, address: string) => {
    const response = await request.get(url, { maxRedirects: 0, headers: { 'user-agent': agent, 'x-forwarded-for': address } });
    expect([200, 302], url).toContain(response.status());
  };
  await hit(linksOf(mailOf(ANN)).open, 'Mozilla/5.0', APPLE_PROXY_ADDRESS);
  await hit(linksOf(mailOf(BOB)).open, 'curl/8.5.0 GoogleImageProxy', '192.0.2.44');
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readable - Date.now())));
  await hit(linksOf(mailOf(CAT)).open, GMAIL_PROXY_AGENT, GOOGLE_PROXY_ADDRESS);
  const dan = linksOf(mailOf(DAN));
  await hit(dan.open, BROWSER_AGENT, '40.94.0.1');
  await hit(dan.clicks[0]!, BROWSER_AGENT, '40.94.0.1');
  await hit(hiddenLinkOf(mailOf(DAN)), BROWSER_AGENT, '40.94.0.1');
  const eve = linksOf(mailOf(EVE));
  await hit(eve.open, BROWSER_AGENT, '203.0.113.5');
  await hit(eve.clicks[0]!, BROWSER_AGENT, '203.0.113.5');
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await hit(eve.clicks[1]!, BROWSER_AGENT, '203.0.113.5');

  await page.goto(reportPath(campaignId, 'email-performance'));
  await expect(emailPerformanceTable(page)).toBeVisible();
  // Clicked, Opened, as each mail was read (the hits are recorded every 250 ms: reload until they are).
  await expect
    .poll(async () => {
      await page.reload();
      await expect(performanceRow(page, EVE)).toBeVisible();
      return Object.fromEntries(await Promise.all(RECIPIENTS.map(async (to) => [to, await verdictTexts(page, to)])));
    })
    .toEqual({
      [ANN]: ['No', 'Yes (machine)'],
      [BOB]: ['No', 'Yes (machine)'],
      [CAT]: ['No', 'Yes'],
      [DAN]: ['Yes (machine)', 'Yes (machine)'],
      [EVE]: ['Yes', 'Yes'],
    });
  built = { campaignId };
});

test('each machine verdict says why in a tooltip the keyboard reaches; people have nothing to explain', async ({ page }) => {
  const { campaignId } = journey();
  await signInAsMember(page);
  await page.goto(reportPath(campaignId, 'email-performance'));
  const reasons: [string, number, string][] = [
    [ANN, 3, "Why a machine: Apple's privacy proxy fetched the images."],
    [BOB, 3, "Why a machine: a bot's user agent, or none."],
    [DAN, 2, 'Why a machine: the hidden link followed with it.'],
    [DAN, 3, 'Why a machine: the hidden link followed with it.'],
  ];
  for (const [to, column, why] of reasons) {
    const verdict = performanceRow(page, to).locator('td').nth(column).getByText('Yes (machine)');
    // From the page's start, then on from the verdict before (the rows are in the recipients' order).
    await tabTo(page, verdict, 80);
    await expect(verdict).toBeFocused();
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toHaveText(why);
    // The tooltip describes the verdict to a screen reader.
    await expect(verdict).toHaveAttribute('aria-describedby', (await tooltip.getAttribute('id'))!);
    // Escape closes it and keeps the focus where it was.
    await page.keyboard.press('Escape');
    await expect(tooltip).toBeHidden();
    await expect(verdict).toBeFocused();
  }
  // A person's 'Yes' and a 'No' are plain text, no stop of the keyboard.
  await expect(verdicts(page, EVE).locator('[tabindex]')).toHaveCount(0);
  await expect(verdicts(page, CAT).locator('[tabindex]')).toHaveCount(0);
});

test('light and dark themes and 390 px: axe passes with the tooltip open, the page never scrolls sideways', async ({ page }) => {
  const { campaignId } = journey();
  await signInAsMember(page);
  const openWithTooltip = async () => {
    await page.goto(reportPath(campaignId, 'email-performance'));
    const verdict = performanceRow(page, DAN).locator('td').nth(2).getByText('Yes (machine)');
    await verdict.scrollIntoViewIfNeeded();
    await verdict.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Why a machine: the hidden link followed with it.');
  };

  await openWithTooltip();
  await expectNoAxeViolations(page, 'the email performance tab with a verdict tooltip, light');
  await screenshot(page, 'light');

  await page.evaluate(() => localStorage.setItem('mailroom.theme', 'dark'));
  await openWithTooltip();
  await expect(page.getByRole('switch', { name: 'Dark theme' })).toBeChecked();
  await expectNoAxeViolations(page, 'the email performance tab with a verdict tooltip, dark');
  await screenshot(page, 'dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await openWithTooltip();
  await expectNoAxeViolations(page, 'the email performance tab with a verdict tooltip at 390 px, dark');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'dark-390px');

  await page.evaluate(() => localStorage.setItem('mailroom.theme', 'light'));
  await openWithTooltip();
  await expectNoAxeViolations(page, 'the email performance tab with a verdict tooltip at 390 px, light');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'light-390px');
});
