/**
 * Rough edges a new member meets, each as the member sees it: a list page past the end (an old `?page=`
 * link, the last row of the last page deleted), a page size above what the API takes, and the report's
 * click performance (the links' URLs and the click map) at 1280 and 390 px wide.
 */
import { expect, test, type Frame, type Locator, type Page } from '@playwright/test';
import { audienceRow, audiencesTable, signInWithApi, toast, uniqueName, type MemberApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { campaignRow, campaignsTable, openRowMenu, people, seedAudience, seedCampaign, seedTemplate, uniqueTag } from './support/campaigns';
import { clickLink, createCampaign, inbox, linksOf, mailTo, reportPath, sendCampaign } from './support/reports';
import { templatesTable } from './support/templates';

const searchOf = (page: Page) => new URL(page.url()).searchParams;
const pager = (page: Page, noun: string) => page.getByRole('group', { name: `${noun} pagination` });
/** The error box a list shows when its read failed (a 400 for a page size the API refuses, say). */
const failedList = (page: Page) => page.getByRole('main').getByRole('alert');

test.describe('a list page past the end', () => {
  test('audiences: ?page=99 shows the last page; deleting the only row of the last page shows the one before, with its pager', async ({
    page,
  }) => {
    const api = await signInWithApi(page);
    const tag = uniqueName('Past end');
    for (const n of [1, 2, 3]) await api.createAudience(`${tag} ${n}`);

    await page.goto(`/audiences?name=${encodeURIComponent(tag)}&limit=2&page=99`);
    // Newest first: page 2 of 2 holds the oldest.
    await expect(audienceRow(page, `${tag} 1`)).toHaveCount(1);
    await expect(pager(page, 'Audiences')).toContainText('3–3 of 3');
    await expect(page.getByText('No audiences yet')).toHaveCount(0);
    await expect.poll(() => searchOf(page).get('page')).toBe('2');
    await expectNoAxeViolations(page, 'the audiences list moved back from page 99');

    await audienceRow(page, `${tag} 1`)
      .getByRole('button', { name: `More actions for ${tag} 1` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete audience' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toast(page, `Successfully deleted audience ${tag} 1`)).toBeVisible();
    await expect(audienceRow(page, `${tag} 3`)).toHaveCount(1);
    await expect(audienceRow(page, `${tag} 2`)).toHaveCount(1);
    await expect(pager(page, 'Audiences')).toContainText('1–2 of 2');
    await expect(page.getByText(/No audiences (yet|match)/)).toHaveCount(0);
    await expect.poll(() => searchOf(page).get('page')).toBe('1');
  });

  test('campaigns: deleting the only campaign of the last page shows the page before; an old ?page= link the last page', async ({
    page,
  }) => {
    const api = await signInWithApi(page);
    const tag = uniqueName('Past end campaign');
    for (const n of [1, 2, 3]) await seedCampaign(api, `${tag} ${n}`);

    await page.goto(`/campaigns?name=${encodeURIComponent(tag)}&limit=2&page=2`);
    await expect(pager(page, 'Campaigns')).toContainText('3–3 of 3');
    const last = (await campaignsTable(page).locator('tbody tr').getByRole('link').first().innerText()).trim();
    await openRowMenu(page, last);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Deletion confirmation' }).getByRole('button', { name: 'Go ahead' }).click();
    await expect(toast(page, `Successfully delete campaign ${last}`)).toBeVisible();
    await expect(pager(page, 'Campaigns')).toContainText('1–2 of 2');
    await expect(campaignsTable(page).locator('tbody tr')).toHaveCount(2);
    await expect(page.getByText(/No campaigns (yet|match)/)).toHaveCount(0);
    await expect.poll(() => searchOf(page).get('page')).toBe('1');

    await page.goto(`/campaigns?name=${encodeURIComponent(tag)}&limit=1&page=99`);
    await expect(pager(page, 'Campaigns')).toContainText('2–2 of 2');
    await expect(campaignsTable(page).locator('tbody tr')).toHaveCount(1);
    await expect.poll(() => searchOf(page).get('page')).toBe('2');
    expect(last).not.toBe('');
    await expect(campaignRow(page, last)).toHaveCount(0);
  });
});

test.describe('a page size above what the API takes', () => {
  test('templates ?limit=500 and audiences ?limit=5000 list at the largest size the API takes, not a 400', async ({ page }) => {
    const api = await signInWithApi(page);
    const tag = uniqueName('Limit');
    const template = await seedTemplate(api, `${tag} template`);
    expect(template).toBeGreaterThan(0);
    await api.createAudience(`${tag} audience`);

    await page.goto(`/templates?name=${encodeURIComponent(tag)}&limit=500`);
    await expect(templatesTable(page).getByRole('link', { name: `${tag} template`, exact: true })).toBeVisible();
    await expect(failedList(page)).toHaveCount(0);
    await expect.poll(() => searchOf(page).get('limit')).toBe('100');
    await expect(pager(page, 'Templates').getByRole('combobox', { name: 'Rows per page' })).toHaveValue('100');

    await page.goto(`/audiences?name=${encodeURIComponent(tag)}&limit=5000`);
    await expect(audienceRow(page, `${tag} audience`)).toHaveCount(1);
    await expect(failedList(page)).toHaveCount(0);
    await expect.poll(() => searchOf(page).get('limit')).toBe('1000');

    // Below 1 or not a number: the default size.
    await page.goto(`/audiences?name=${encodeURIComponent(tag)}&limit=0`);
    await expect(audienceRow(page, `${tag} audience`)).toHaveCount(1);
    await expect.poll(() => searchOf(page).get('limit')).toBe('10');
    await expect(audiencesTable(page)).toBeVisible();
  });
});

// ------------------------------------------------------------------ the report's click performance

/** A link whose URL is far longer than 30 characters, as tracked links with campaign parameters are. */
const LONG_URL = 'https://example.org/events/2026/spring-gathering-of-the-friends-of-the-library?utm_source=newsletter&utm_medium=email';
const SHORT_URL = 'https://example.org/news';
const CLICKS_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head><body style="margin:0;font-family:sans-serif">' +
  '<h1 style="background:#0f6cbd;color:#ffffff;padding:24px;margin:0">Spring news for {{firstName}}</h1>' +
  `<p style="padding:0 24px"><a href="${SHORT_URL}">Read the news</a></p>` +
  // A link at the right edge, as a right-aligned button is: its badge must not push the map sideways.
  `<p style="text-align:right;margin:16px 0"><a href="${LONG_URL}">Come to the spring gathering</a></p>` +
  '</body></html>';

/** What scrolls sideways in a document: the document itself, and any box of `within` (a selector) that scrolls on x. */
async function sidewaysScrollers(frame: Page | Frame, within = 'body'): Promise<string[]> {
  return frame.evaluate((selector) => {
    const found: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) found.push(`the document: ${root.scrollWidth} px in ${root.clientWidth} px`);
    for (const box of Array.from(document.querySelectorAll(selector))) {
      for (const element of [box, ...Array.from(box.querySelectorAll('*'))]) {
        const { overflowX } = getComputedStyle(element);
        if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
          found.push(`${element.tagName.toLowerCase()}.${element.className}: ${element.scrollWidth} px in ${element.clientWidth} px`);
        }
      }
    }
    return found;
  }, within);
}

let sentCampaign: { id: number } | undefined;

/** Sends a campaign of CLICKS_HTML to two people and clicks its links from their mails, once for the tests below. */
async function campaignWithClicks(api: MemberApi, page: Page): Promise<number> {
  if (sentCampaign) return sentCampaign.id;
  const tag = uniqueTag();
  const recipients = people(tag, 2);
  const audience = await seedAudience(api, uniqueName('Clicks'), recipients);
  const templateId = await seedTemplate(api, uniqueName('Clicks template'), CLICKS_HTML);
  const subject = `Rough edges ${tag}`;
  const id = await createCampaign(api, {
    name: uniqueName('Clicks campaign'),
    templateId,
    audienceId: audience.id,
    audienceName: audience.name,
    subject,
    fromName: 'Mia Member',
  });
  await sendCampaign(api, id);
  let mails: Awaited<ReturnType<typeof inbox>> = [];
  await expect.poll(async () => (mails = await inbox(page.request, subject)).length, { timeout: 30_000 }).toBe(2);
  for (const person of recipients) {
    const { clicks } = linksOf(mailTo(mails, person.email));
    expect(clicks, `tracked links in the mail to ${person.email}`).toHaveLength(2);
    for (const click of clicks) await clickLink(page.request, click);
  }
  await expect
    .poll(async () => ((await (await api.get(`/api/reports/${id}/clicks`)).json()) as { clicks: number }[]).map((link) => link.clicks))
    .toEqual([2, 2]);
  sentCampaign = { id };
  return id;
}

const urlCell = (page: Page, url: string): Locator =>
  page.getByRole('table', { name: 'Links in this email' }).locator('tbody tr').filter({ hasText: url }).getByRole('cell').first();

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`click performance at ${width} px: whole URLs where they fit, the click map never scrolls sideways`, async ({ page }) => {
    test.setTimeout(120_000);
    const api = await signInWithApi(page);
    const id = await campaignWithClicks(api, page);
    await page.setViewportSize({ width, height });
    await page.goto(reportPath(id, 'click-performance'));
    await expect(page.getByRole('heading', { level: 2, name: 'Links in this email' })).toBeVisible();

    await page.getByRole('button', { name: 'View Click Map' }).click();
    const dialog = page.getByRole('dialog', { name: 'Click Map' });
    await expect(dialog).toBeVisible();
    const frame = page.frameLocator('iframe[title="Click map"]');
    await expect(frame.getByRole('link', { name: /Read the news/ })).toContainText('2 clicks · 50.0%');
    const mapFrame = await (await dialog.locator('iframe[title="Click map"]').elementHandle())?.contentFrame();
    expect(mapFrame, 'the click map frame').toBeTruthy();
    expect.soft(await sidewaysScrollers(page, '[role="dialog"]'), `sideways scrolling around the click map at ${width} px`).toEqual([]);
    expect.soft(await sidewaysScrollers(mapFrame!), `sideways scrolling inside the click map at ${width} px`).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);

    // The URL keeps what fits in its column (no cut at 30 characters); all of it is in the cell and its tooltip.
    const long = urlCell(page, LONG_URL);
    await expect(long).toHaveText(LONG_URL);
    await expect(urlCell(page, SHORT_URL)).toHaveText(SHORT_URL);
    // The URL itself, focusable for its tooltip.
    const url = long.locator('[tabindex="0"]');
    const fits = await url.evaluate((element) => element.scrollWidth <= element.clientWidth + 1);
    if (width === 1280) {
      expect(fits, 'the whole long URL is shown at 1280 px').toBe(true);
    } else {
      expect(fits, 'the long URL is cut with an ellipsis at 390 px').toBe(false);
      await expect(url).toHaveCSS('text-overflow', 'ellipsis');
    }
    await url.focus();
    await expect(page.getByRole('tooltip')).toHaveText(LONG_URL);
    await page.keyboard.press('Escape');
    // The tabs may scroll in their own strip at 390 px; the links table does not, nor the page.
    expect(
      await sidewaysScrollers(page, '[role="region"][aria-label="Links in this email table"]'),
      'sideways scrolling of the links',
    ).toEqual([]);
    await expectNoAxeViolations(page, `the click performance tab at ${width} px`);
  });
}

// ------------------------------------------------------------------ the campaign editor

test('a sent campaign opens titled Campaign, not Draft Email, and its editing controls look disabled', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await signInWithApi(page);
  const id = await campaignWithClicks(api, page);
  await page.goto(`/campaigns/edit/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Campaign', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Draft Email' })).toHaveCount(0);
  await expect(page.getByRole('main').getByText('Sent', { exact: true })).toBeVisible();
  for (const name of ['Change audience', 'Change template', 'Send test email', 'Send', 'Finish later']) {
    const button = page.getByRole('button', { name, exact: true });
    await expect(button, name).toBeDisabled();
    // Drawn as disabled, as Fluent draws its own disabled buttons: not a live-looking button that does nothing.
    await expect(button, name).toHaveCSS('cursor', 'not-allowed');
  }
  await expect(page.getByRole('textbox', { name: 'Subject' })).toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveCSS('cursor', 'not-allowed');
  await expectNoAxeViolations(page, 'the editor of a sent campaign');
});

test("the campaign editor's template picker shows templates' last edit to the minute", async ({ page }) => {
  const api = await signInWithApi(page);
  const name = uniqueName('Minute template');
  const templateId = await seedTemplate(api, name);
  const { updatedAt } = (await (await api.get(`/api/templates/${templateId}`)).json()) as { updatedAt: string };
  const campaignId = await seedCampaign(api, uniqueName('Picker dates'));
  await page.goto(`/campaigns/edit/${campaignId}`);
  await page.getByRole('button', { name: 'Choose template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a template' });
  await dialog.getByRole('searchbox').fill(name);
  await dialog.getByRole('searchbox').press('Enter');
  await expect(dialog.getByText('1–1 of 1')).toBeVisible();
  const minutes = await page.evaluate((iso) => {
    const d = new Date(iso);
    const two = (n: number) => String(n).padStart(2, '0');
    const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
    return `${date} ${two(d.getHours())}:${two(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
  }, updatedAt);
  const row = dialog.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(2)).toHaveText(minutes);
});
