/**
 * Deliverability controls (issue 28), in Chromium against the whole stack: a campaign held by the warm-up
 * plan says 'Paused: warm-up volume for today reached, resumes at HH:mm' in the list and the report (the
 * member's time zone: Europe/Paris here), and the report's domain table shows, per domain, the mails that
 * waited for its limit, the deferrals and SES's 429s. At 1280 px in the light theme and at 390 px in the
 * dark one, with axe; the table is reached by keyboard.
 *
 * The warm-up pause and the domain's counts are written straight into the suite's database (a sent campaign
 * made SENDING again with a job queued, paused until the next UTC midnight; the counts as the workers write
 * them): the suite's stack runs without a plan or limits, and a real day's volume would take a day.
 */
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { signInWithApi, uniqueName } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { campaignRow, listOf, people, seedAudience, seedTemplate, uniqueTag } from './support/campaigns';
import { createCampaign, reportPath, sendCampaign } from './support/reports';
import { readState } from './support/stack';

test.use({ timezoneId: 'Europe/Paris' });

/** Holds the sent campaign at the warm-up's volume until `until` (one job queued again), and records what its domain met. */
async function holdForWarmUp(campaignId: number, until: Date, met: { limitWaits: number; deferrals: number; sesThrottles: number }) {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `UPDATE campaign_jobs SET status = 'QUEUED', ses_message_id = NULL, sent_at = NULL
        WHERE id = (SELECT min(id) FROM campaign_jobs WHERE campaign_id = $1)`,
      [campaignId],
    );
    await client.query(`UPDATE campaigns SET status = 'SENDING', quota_paused_until = $2, paused_for = 'WARM_UP' WHERE id = $1`, [
      campaignId,
      until,
    ]);
    await client.query(
      `INSERT INTO campaign_domain_throttles (campaign_id, domain, limit_waits, deferrals, ses_throttles) VALUES ($1, 'example.org', $2, $3, $4)`,
      [campaignId, met.limitWaits, met.deferrals, met.sesThrottles],
    );
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

const hhmm = (page: Page, iso: string) =>
  page.evaluate((at) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }), iso);

for (const theme of ['light', 'dark'] as const) {
  test(`says a campaign waits for the warm-up's next day, and what held each domain back (${theme})`, async ({ page }) => {
    await page.addInitScript((chosen) => localStorage.setItem('mailroom.theme', chosen), theme);
    if (theme === 'dark') await page.setViewportSize({ width: 390, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const audience = await seedAudience(api, uniqueName('Warm-up audience'), people(tag, 2));
    const templateId = await seedTemplate(api, `${tag} template`);
    const name = `${tag} Warm-up news`;
    const id = await createCampaign(api, {
      name,
      templateId,
      audienceId: audience.id,
      audienceName: audience.name,
      subject: `${tag} news for {{firstName}}`,
      fromName: 'Mailroom e2e',
    });
    await sendCampaign(api, id);
    const nextDay = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000);
    await holdForWarmUp(id, nextDay, { limitWaits: 12, deferrals: 5, sesThrottles: 3 });
    const text = `Paused: warm-up volume for today reached, resumes at ${await hhmm(page, nextDay.toISOString())}`;

    await page.goto(reportPath(id));
    await expect(page.getByText(text)).toBeVisible();
    const table = page.getByRole('table', { name: 'Deliverability by domain' });
    await expect(table.getByRole('columnheader', { name: 'Waited for domain limit' })).toBeAttached();
    await expect(table.getByRole('columnheader', { name: 'Deferred' })).toBeAttached();
    await expect(table.getByRole('columnheader', { name: 'Throttled by SES' })).toBeAttached();
    const domainRow = table.getByRole('row').filter({ hasText: 'example.org' });
    await expect(domainRow.getByRole('cell')).toHaveText(['example.org', '1', /\d+/, '0', '0', '0', /%/, /%/, '12', '5', '3']);
    // The table scrolls sideways at 390 px: reachable by keyboard, and the page itself does not overflow.
    if (theme === 'dark') {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // The table's scrolling region (ScrollingTable) takes the focus, and the arrow keys scroll it to the new columns.
      const scroller = page.getByRole('region', { name: 'Deliverability by domain table' });
      await scroller.scrollIntoViewIfNeeded();
      await scroller.focus();
      await expect(scroller).toBeFocused();
      // As a person would: the arrow key until the last column shows (each press scrolls a few dozen pixels).
      const lastHeader = table.getByRole('columnheader', { name: 'Throttled by SES' });
      const shown = async () => {
        const box = await lastHeader.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 390;
      };
      for (let i = 0; i < 100 && !(await shown()); i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      // Sideways only: the charts above may still be laying out and move the table down the page meanwhile.
      expect(await shown()).toBe(true);
    }
    await expectNoAxeViolations(page, `the report of a campaign held by the warm-up (${theme})`);

    await page.goto(listOf(name));
    await expect(campaignRow(page, name).getByText(text)).toBeVisible();
    await expect(campaignRow(page, name).getByRole('button', { name: `Stop sending ${name}` })).toBeVisible();
    await expectNoAxeViolations(page, `the campaigns list with a campaign held by the warm-up (${theme})`);
  });
}
