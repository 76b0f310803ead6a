/**
 * A campaign paused at SES's daily quota (issue 28), in Chromium against the whole stack: the list and the
 * report say 'Paused: daily quota reached, resumes at HH:mm' in the member's time zone (the browser runs in
 * Europe/Paris here), and the list's 'Stop sending' asks first and stops it, after which Continue sending is
 * offered. At 1280 px in the light theme and at 390 px in the dark one, with axe.
 *
 * The pause is written straight into the suite's database (a sent campaign made SENDING again with a job
 * left queued and quota_paused_until tomorrow): reaching a real quota would take the local SES's whole
 * day. Nothing claims a paused campaign's jobs, and the sweep leaves it until that time.
 */
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { signInWithApi, toast, uniqueName } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { campaignRow, listOf, people, seedAudience, seedTemplate, uniqueTag } from './support/campaigns';
import { createCampaign, readCampaign, reportPath, sendCampaign } from './support/reports';
import { readState } from './support/stack';

const ZONE = 'Europe/Paris';
test.use({ timezoneId: ZONE });

/** Pauses the sent campaign at the daily quota until `until`, one of its jobs queued again; `until` in the browser's HH:mm. */
async function pauseAtQuota(campaignId: number, until: Date): Promise<void> {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `UPDATE campaign_jobs SET status = 'QUEUED', ses_message_id = NULL, sent_at = NULL
        WHERE id = (SELECT min(id) FROM campaign_jobs WHERE campaign_id = $1)`,
      [campaignId],
    );
    await client.query(`UPDATE campaigns SET status = 'SENDING', quota_paused_until = $2 WHERE id = $1`, [campaignId, until]);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

const hhmm = (page: Page, iso: string) =>
  page.evaluate((at) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }), iso);

const fitsWidth = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

for (const theme of ['light', 'dark'] as const) {
  test(`says when a campaign paused at the daily quota resumes, and stops it on request (${theme})`, async ({ page }) => {
    await page.addInitScript((chosen) => localStorage.setItem('mailroom.theme', chosen), theme);
    if (theme === 'dark') await page.setViewportSize({ width: 390, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const audience = await seedAudience(api, uniqueName('Quota audience'), people(tag, 2));
    const templateId = await seedTemplate(api, `${tag} template`);
    const name = `${tag} Quota news`;
    const id = await createCampaign(api, {
      name,
      templateId,
      audienceId: audience.id,
      audienceName: audience.name,
      subject: `${tag} news for {{firstName}}`,
      fromName: 'Mailroom e2e',
    });
    await sendCampaign(api, id);
    const until = new Date(Date.now() + 23 * 3_600_000);
    until.setUTCSeconds(0, 0);
    await pauseAtQuota(id, until);
    const text = `Paused: daily quota reached, resumes at ${await hhmm(page, until.toISOString())}`;

    await page.goto(reportPath(id));
    await expect(page.getByText(text)).toBeVisible();
    await expect(page.getByText('Sending', { exact: true })).toHaveCount(0);
    if (theme === 'dark') await fitsWidth(page);
    await expectNoAxeViolations(page, `the report of a paused campaign (${theme})`);

    await page.goto(listOf(name));
    const row = campaignRow(page, name);
    await expect(row.getByText(text)).toBeVisible();
    if (theme === 'dark') await fitsWidth(page);
    await expectNoAxeViolations(page, `the campaigns list with a paused campaign (${theme})`);

    // By keyboard: the stop button is reachable and asks first.
    await row.getByRole('button', { name: `Stop sending ${name}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Stop Campaign' });
    await expect(dialog).toContainText('It will not resume by itself.');
    await expectNoAxeViolations(page, `the stop confirmation (${theme})`);
    await dialog.getByRole('button', { name: 'Stop Sending' }).click();
    await expect(toast(page, 'Sending stopped. Continue sending sends to the contacts not sent to yet.')).toBeVisible();
    await expect(row.getByRole('button', { name: `Continue sending ${name}` })).toBeVisible();
    await expect(row.getByText(text)).toHaveCount(0);
    expect(await readCampaign(api, id)).toMatchObject({ status: 'ERROR', quotaPausedUntil: null });
  });
}
