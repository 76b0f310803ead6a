/**
 * The report's tabs say what they mean (issue 21): the Overview names the time sending started
 * 'Started' with how late a scheduled campaign started, offers 'Resend unconfirmed' beside the Unknown
 * figure in one sentence, and draws the 'Sent so far' line of a single hour; Click Performance shows
 * people's clicks under each count and a People only click map; at 390 px every tab's label is whole.
 * In the light and dark themes, at 1280 and 390 px, by keyboard, with axe.
 *
 * The campaign is written straight into the suite's database (its jobs, links and hits, as the sending
 * and the tracking would have left them an hour or two ago, all within one hour), so the screens show
 * exact, known figures: the counts are kept by the database's own triggers.
 */
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { uniqueName } from './support/audiences';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import { reportPath, tabTo } from './support/reports';
import { readState } from './support/stack';

test.describe.configure({ mode: 'serial' });

const NEWS = 'https://example.org/news';
const SHOP = 'https://example.org/shop';

let campaignId = 0;
let campaignName = '';

/**
 * A SENT campaign planned for an hour and 42 s before it started, in one clock hour: 7 mails sent, 3 of
 * unknown outcome no SES event confirmed for over an hour; NEWS clicked 3 times by 2 people and twice
 * by machines, SHOP once by a person and once by a machine.
 */
async function seedCampaign(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: number; base: Date }>(
      `INSERT INTO campaigns (name, status, subject, contact_count, jobs_sent, delivery_date, scheduled_at)
       SELECT $1, 'SENT', 'Spring news', 10, 7, base, base - interval '42 seconds'
         FROM (SELECT date_trunc('hour', now()) - interval '2 hours' + interval '10 minutes' AS base) b
       RETURNING id, delivery_date AS base`,
      [name],
    );
    const { id, base } = rows[0]!;
    const { rows: links } = await client.query<{ id: number }>(
      `INSERT INTO campaign_links (campaign_id, href, position, clicks, unique_clicks)
       VALUES ($1, $2, 1, 5, 4), ($1, $3, 2, 2, 2) RETURNING id`,
      [id, NEWS, SHOP],
    );
    const [news, shop] = links.map((link) => link.id) as [number, number];
    await client.query('UPDATE campaigns SET html = $2 WHERE id = $1', [
      id,
      `<!doctype html><html lang="en"><head><title>Spring news</title></head><body><h1>Spring news</h1>` +
        `<p><a href="${NEWS}" data-link-id="${news}">Read the news</a></p><p><a href="${SHOP}" data-link-id="${shop}">Visit the shop</a></p></body></html>`,
    ]);
    const { rows: jobs } = await client.query<{ id: number }>(
      `INSERT INTO campaign_jobs (campaign_id, contact_id, email, status, claimed_at, sent_at, ses_message_id)
       SELECT $1::bigint, n, 'reader' || n || '@example.org', CASE WHEN n <= 7 THEN 'SENT_SUCCESS' ELSE 'UNKNOWN' END, $2::timestamptz,
              CASE WHEN n <= 7 THEN $2::timestamptz + interval '1 minute' END, CASE WHEN n <= 7 THEN 'screens-' || $1::bigint || '-' || n END
         FROM generate_series(1, 10) n ORDER BY n RETURNING id`,
      [id, base],
    );
    const job = (n: number) => jobs[n - 1]!.id;
    // [job, link, machine, minutes after the start]
    const hits: [number, number, boolean, number][] = [
      [job(1), news, false, 5],
      [job(1), news, false, 6],
      [job(2), news, false, 7],
      [job(3), news, true, 8],
      [job(4), news, true, 9],
      [job(2), shop, false, 10],
      [job(5), shop, true, 11],
    ];
    await client.query(
      `INSERT INTO tracking_events (campaign_id, job_id, kind, link_id, machine, created_at)
       SELECT $1, h.job, 'CLICK', h.link, h.machine, $2::timestamptz + h.minutes * interval '1 minute'
         FROM unnest($3::bigint[], $4::bigint[], $5::boolean[], $6::int[]) AS h(job, link, machine, minutes)`,
      [id, base, hits.map((h) => h[0]), hits.map((h) => h[1]), hits.map((h) => h[2]), hits.map((h) => h[3])],
    );
    await client.query('COMMIT');
    return id;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.end();
  }
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
}

const noSidewaysScroll = async (page: Page, where: string) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), where).toBeLessThanOrEqual(
    0,
  );

/** The Overview's details as [term, value] pairs. */
const details = (page: Page) =>
  page
    .getByRole('tabpanel')
    .locator('dl')
    .evaluate((dl) => Array.from(dl.querySelectorAll('dt')).map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));

const UNKNOWN_SENTENCE = '3 emails of unknown outcome, all still unconfirmed after 60 minutes: they can be sent again.';

async function checkOverview(page: Page, where: string) {
  await page.goto(reportPath(campaignId));
  await expect(page.getByRole('heading', { level: 1, name: campaignName })).toBeVisible();
  const panel = page.getByRole('tabpanel');
  // 'Delivered' is the figure of delivery events only; the time sending started is 'Started', with its delay.
  await expect(panel.getByRole('list', { name: 'Figures' }).getByRole('listitem').first()).toContainText('Delivered');
  await expect(panel.getByRole('term')).toHaveText(['Audience', 'Subject', 'Planned', 'Started']);
  const [, , , started] = await details(page);
  expect(started![1]).toMatch(/^\d{4}-\d{2}-\d{2} .+ \(42 seconds after the planned time\)$/);

  // 'Resend unconfirmed' beside the Unknown figure, in one sentence.
  const unknownTile = panel.getByRole('listitem').filter({ hasText: /^Unknown/ });
  await expect(unknownTile).toHaveText('Unknown42.9%3 of 7 sent');
  await expect(panel.getByText(UNKNOWN_SENTENCE, { exact: true })).toBeVisible();
  const resend = panel.getByRole('button', { name: 'Resend unconfirmed' });
  await expect(resend).toBeVisible();

  // The timeline of a single hour still draws its 'Sent so far' line, in each chart.
  const sentSoFar = panel.locator('[data-chart="timeline"] g[aria-label^="Sent so far"]');
  await expect(sentSoFar).toHaveCount(2);
  for (const series of await sentSoFar.all()) {
    await expect(series).toHaveAttribute('aria-label', 'Sent so far, line with 2 data points.');
    const line = series.locator('line');
    await expect(line).toHaveCount(1);
    const drawn = await line.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return {
        width: box.width,
        stroke: element.getAttribute('stroke'),
        opacity: Number(element.getAttribute('opacity')),
        strokeWidth: style.strokeWidth,
      };
    });
    expect(drawn.width, `the 'Sent so far' line's length on ${where}`).toBeGreaterThan(20);
    expect(drawn.opacity).toBe(1);
    expect(drawn.stroke).toBeTruthy();
  }
  await expectNoAxeViolations(page, `the Overview, ${where}`);
  return resend;
}

async function checkClickPerformance(page: Page, where: string) {
  await page.goto(reportPath(campaignId, 'click-performance'));
  const table = page.getByRole('table', { name: 'Links in this email' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByRole('cell')).toHaveText([NEWS, '5 (71.4%)3 by people', '4 (66.7%)2 by people']);
  await expect(rows.nth(1).getByRole('cell')).toHaveText([SHOP, '2 (28.6%)1 by people', '2 (33.3%)1 by people']);
  await expectNoAxeViolations(page, `Click Performance, ${where}`);

  const open = page.getByRole('button', { name: 'View Click Map' });
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Click Map' });
  await expect(dialog).toBeVisible();
  const map = page.frameLocator('iframe[title="Click map"]');
  await expect(map.locator('.mailroom-clickmap-badge')).toHaveText(['5 clicks · 71.4%', '2 clicks · 28.6%']);
  const peopleOnly = dialog.getByRole('switch', { name: 'People only' });
  await tabTo(page, peopleOnly);
  await page.keyboard.press('Space');
  await expect(peopleOnly).toBeChecked();
  await expect(dialog.getByText(/people's clicks only, link scanners' and bots' left out/)).toBeVisible();
  await expect(map.locator('.mailroom-clickmap-badge')).toHaveText(['3 clicks · 75.0%', '1 click · 25.0%']);
  await expectNoAxeViolations(page, `the click map, people only, ${where}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test.beforeAll(async () => {
  campaignName = uniqueName('Screens');
  campaignId = await seedCampaign(campaignName);
});

for (const theme of ['light', 'dark'] as const) {
  test(`1280 px, ${theme}: Started with its delay, Resend unconfirmed beside Unknown, a single hour's send line, people's clicks`, async ({
    page,
  }) => {
    await setTheme(page, theme);
    await signInAsMember(page);
    const resend = await checkOverview(page, `1280 px ${theme}`);
    // The keyboard reaches the action, which asks before sending anything.
    await tabTo(page, resend, 60);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Resend unconfirmed emails' });
    await expect(confirm).toContainText('3 emails have had no word from SES for 60 minutes or more.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await checkClickPerformance(page, `1280 px ${theme}`);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`390 px, ${theme}: every tab's label whole, the same screens without sideways scrolling`, async ({ page }) => {
    await setTheme(page, theme);
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsMember(page);
    await checkOverview(page, `390 px ${theme}`);
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveCount(3);
    for (const tab of await tabs.all()) {
      const name = (await tab.textContent()) ?? '';
      const box = (await tab.boundingBox())!;
      expect(box.x, `the tab ${name} starts on the screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `the tab ${name} ends on the screen`).toBeLessThanOrEqual(390);
      // The label inside is not cut by its tab or by the strip.
      const cut = await tab.evaluate((element) => {
        const strip = element.parentElement!;
        return element.scrollWidth > element.clientWidth || strip.scrollWidth > strip.clientWidth;
      });
      expect(cut, `the tab ${name} is whole`).toBe(false);
    }
    await noSidewaysScroll(page, `the Overview at 390 px, ${theme}`);
    await page.getByRole('tab', { name: 'Click Performance' }).click();
    await expect(page.getByRole('table', { name: 'Links in this email' })).toBeVisible();
    await checkClickPerformance(page, `390 px ${theme}`);
    await noSidewaysScroll(page, `Click Performance at 390 px, ${theme}`);
  });
}
