/**
 * The report's Overview tab beyond the spec's one line (issue 16, an addition to the spec): the outcome
 * figures with their rates, the timeline (a chart, and its figures as a table), deliverability by
 * domain, in the light and dark themes and at 390 px, by keyboard, with axe.
 *
 * One campaign goes to six recipients at four domains through the local SES; SES events (deliveries,
 * a hard bounce, a complaint) come in through the signed webhook, and two opens and a click through the
 * recipients' own tracking links: one mail opened as a person's mail client does, one by a crawler.
 * Which hits count as people's is the classifier's business: this walk checks what does not depend on
 * it against the events it made, and the rest of the screen against the API's own figures.
 *
 * The tests run in order and share what the first one builds. Screenshots of each theme are attached
 * to the report and written under tests/e2e/.state/.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, uniqueName, type MemberApi } from './support/audiences';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import {
  clickLink,
  createCampaign,
  inbox,
  linksOf,
  mailTo,
  postSesEvent,
  reportPath,
  sendCampaign,
  sesEvent,
  tabTo,
  type InboxMail,
} from './support/reports';
import { stateDir } from './support/stack';
import { createTemplate } from './support/templates';

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const ANN = 'ann@gmail.com';
const BOB = 'bob@gmail.com';
const CAT = 'cat@outlook.com';
const DAN = 'dan@outlook.com';
const EVE = 'eve@example.org';
const FAY = 'fay@example.net';
const RECIPIENTS = [ANN, BOB, CAT, DAN, EVE, FAY];

const NEWS = 'https://example.org/news';
const TEMPLATE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head><body>' +
  `<h1>Hello {{firstName}}</h1><p><a href="${NEWS}">Read the news</a></p></body></html>`;

/** A person's mail client, and a crawler no person drives. */
const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const CRAWLER_UA = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';

interface Figures {
  sent: number;
  delivered: number;
  bouncedHard: number;
  bouncedSoft: number;
  complaints: number;
  unsubscribed: number;
  openedHuman: number;
  openedMachine: number;
  clickedHuman: number;
  clickedMachine: number;
  failed: number;
  unknown: number;
}

let built: { campaignId: number; name: string } | undefined;
const journey = () => {
  if (!built) throw new Error('the first test did not build the campaign');
  return built;
};

async function readFigures(api: MemberApi, id: number): Promise<Figures> {
  const response = await api.get(`/api/reports/${id}/overview`);
  expect(response.status(), `GET /api/reports/${id}/overview`).toBe(200);
  return (await response.json()) as Figures;
}

const percent = (part: number, whole: number) => `${(whole > 0 ? (part / whole) * 100 : 0).toFixed(1)}%`;

/** The figure tiles' texts, by name: each tile reads its name, its rate, then its count. */
async function tiles(page: Page): Promise<Record<string, string>> {
  const items = page.getByRole('list', { name: 'Figures' }).getByRole('listitem');
  await expect(items).toHaveCount(12);
  const texts = await items.evaluateAll((lis) =>
    lis.map((li) => Array.from(li.children[0]!.children).map((child) => child.textContent ?? '')),
  );
  return Object.fromEntries(texts.map(([label, rate, detail]) => [label!, `${rate} | ${detail}`]));
}

async function screenshot(page: Page, name: string) {
  const body = await page.screenshot({ fullPage: true, path: join(stateDir, `report-overview-${name}.png`) });
  await test.info().attach(`report overview, ${name}`, { body, contentType: 'image/png' });
}

test('a campaign to four domains: sent, delivered, bounced, complained, opened and clicked through its own links', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await signInWithApi(page);
  const tag = uniqueName('Overview');
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
  const name = `${tag} campaign`;
  const campaignId = await createCampaign(api, {
    name,
    templateId,
    audienceId,
    audienceName,
    subject: `${tag} news`,
    fromName: 'Mailroom e2e',
  });
  expect(await sendCampaign(api, campaignId)).toMatchObject({ status: 'SENT', jobsSent: 6, jobsFailed: 0 });

  const mails = await inbox(request, tag);
  expect(mails.map((mail) => mail.to).sort()).toEqual([...RECIPIENTS].sort());
  const mailOf = (to: string): InboxMail => mailTo(mails, to);
  for (const to of [ANN, BOB, CAT, EVE, FAY]) await postSesEvent(request, sesEvent.delivery(mailOf(to)));
  await postSesEvent(
    request,
    sesEvent.bounce(mailOf(DAN), { bounceType: 'Permanent', bounceSubType: 'General', at: new Date().toISOString() }),
  );
  await postSesEvent(request, sesEvent.complaint(mailOf(CAT), { type: 'abuse', at: new Date().toISOString() }));

  // Ann's mail client shows the images a while after delivery, and she follows the news link; a crawler fetches Bob's pixel.
  await page.waitForTimeout(3000);
  const open = async (to: string, userAgent: string) =>
    expect((await request.get(linksOf(mailOf(to)).open, { headers: { 'user-agent': userAgent } })).status()).toBe(200);
  await open(ANN, BROWSER_UA);
  await open(BOB, CRAWLER_UA);
  expect(await clickLink(request, linksOf(mailOf(ANN)).clicks[0]!)).toBe(NEWS);

  // The counts the events and hits above make, whoever the classifier says made the hits.
  await expect
    .poll(async () => {
      const f = await readFigures(api, campaignId);
      return [
        f.sent,
        f.delivered,
        f.bouncedHard,
        f.bouncedSoft,
        f.complaints,
        f.openedHuman + f.openedMachine,
        f.clickedHuman + f.clickedMachine,
        f.failed,
      ];
    })
    .toEqual([6, 5, 1, 0, 1, 2, 1, 0]);
  built = { campaignId, name };
});

test('the Overview: every figure with its rate over the mails sent, as the API counts them', async ({ page }) => {
  const { campaignId, name } = journey();
  const api = await signInWithApi(page);
  const figures = await readFigures(api, campaignId);
  await page.goto(reportPath(campaignId, 'overview'));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Sent to: 6 / 6 Recipients (0 failed)')).toBeVisible();

  const shown = await tiles(page);
  // What the events made, independent of the API's answer.
  expect(shown['Delivered']).toBe('83.3% | 5 of 6 sent');
  expect(shown['Bounced (hard)']).toBe('16.7% | 1 of 6 sent');
  expect(shown['Bounced (soft)']).toBe('0.0% | 0 of 6 sent');
  expect(shown['Complaints']).toBe('16.7% | 1 of 6 sent');
  expect(shown['Failed']).toBe('0.0% | 0 of 6 sent');
  // People and machines apart, as the API judged the hits; together the two opens and the click made.
  const ofSent = (count: number) => `${percent(count, 6)} | ${count} of 6 sent`;
  expect(figures.openedHuman + figures.openedMachine).toBe(2);
  expect(shown['Opened by people']).toBe(ofSent(figures.openedHuman));
  expect(shown['Opened by machines']).toBe(ofSent(figures.openedMachine));
  expect(shown['Clicked by people']).toBe(ofSent(figures.clickedHuman));
  expect(shown['Clicked by machines']).toBe(ofSent(figures.clickedMachine));
  expect(shown['Unsubscribed']).toBe(ofSent(figures.unsubscribed));
  expect(shown['Unknown']).toBe(ofSent(figures.unknown));
  expect(shown['Click-to-open (people)']).toBe(
    `${percent(figures.clickedHuman, figures.openedHuman)} | ${figures.clickedHuman} of ${figures.openedHuman} who opened`,
  );
});

test('the timeline: a chart, and by keyboard its figures as a table on the same hours', async ({ page }) => {
  const { campaignId } = journey();
  await signInAsMember(page);
  await page.goto(reportPath(campaignId, 'overview'));
  const timeline = page.getByRole('region', { name: 'Timeline' });
  // Two charts (opens, clicks) drawn from the chunk only this screen loads.
  await expect(timeline.locator('[data-chart="timeline"] svg').first()).toBeVisible();

  const toggle = timeline.getByRole('switch', { name: 'Show as table' });
  await tabTo(page, toggle, 80);
  await page.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  const table = page.getByRole('table', { name: 'Timeline' });
  await expect(table).toBeVisible();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
  expect(rows.length).toBeGreaterThan(0);
  const column = (index: number) => rows.reduce((total, row) => total + Number(row[index]), 0);
  expect(column(1), 'mails sent over the buckets').toBe(6);
  expect(rows.at(-1)![2], 'sent so far at the last bucket').toBe('6');
  expect(column(3) + column(4), 'opens, people and machines').toBe(2);
  expect(column(5) + column(6), 'clicks, people and machines').toBe(1);
  // Hourly buckets from the hour sending started: 'YYYY-MM-DD HH:mm'.
  expect(rows[0]![0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:00$/);
});

test('deliverability by domain: sent, delivered, bounced and complaints per domain', async ({ page }) => {
  const { campaignId } = journey();
  await signInAsMember(page);
  await page.goto(reportPath(campaignId, 'overview'));
  const table = page.getByRole('table', { name: 'Deliverability by domain' });
  await expect(table).toBeVisible();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
  const row = (domain: string) => rows.find((cells) => cells[0]!.startsWith(domain))?.slice(1, 6);
  expect(row('gmail.com')).toEqual(['2', '2', '0', '0', '0']);
  expect(row('outlook.com')).toEqual(['2', '1', '1', '0', '1']);
  expect(
    rows.reduce((total, cells) => total + Number(cells[1]), 0),
    'every mail under one domain or Other',
  ).toBe(6);
});

test('light and dark themes and 390 px: axe passes, the page never scrolls sideways, a screenshot of each', async ({ page }) => {
  const { campaignId } = journey();
  await signInAsMember(page);
  const open = async () => {
    await page.goto(reportPath(campaignId, 'overview'));
    await expect(page.getByRole('list', { name: 'Figures' })).toBeVisible();
    await expect(page.locator('[data-chart="timeline"] svg').first()).toBeVisible();
    await expect(page.getByRole('table', { name: 'Deliverability by domain' })).toBeVisible();
  };

  await open();
  await expectNoAxeViolations(page, 'the report overview, light');
  await screenshot(page, 'light');

  await page.evaluate(() => localStorage.setItem('mailroom.theme', 'dark'));
  await open();
  await expect(page.getByRole('switch', { name: 'Dark theme' })).toBeChecked();
  await expectNoAxeViolations(page, 'the report overview, dark');
  await screenshot(page, 'dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await open();
  await expectNoAxeViolations(page, 'the report overview at 390 px, dark');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('region', { name: 'Timeline' }).getByRole('switch', { name: 'Show as table' }).click();
  await expectNoAxeViolations(page, 'the report overview at 390 px with the timeline as a table');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'dark-390px');

  await page.evaluate(() => localStorage.setItem('mailroom.theme', 'light'));
  await open();
  await expectNoAxeViolations(page, 'the report overview at 390 px, light');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'light-390px');
});
