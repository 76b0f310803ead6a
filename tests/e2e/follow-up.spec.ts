/**
 * Follow up (an addition to the spec), at 390 px wide in both themes: a campaign reaches five people,
 * two of them open it (as people: human_opened_at, which the tracking sets, is written straight into
 * the suite's database here), and 'Follow up' (from the report in one theme, from the list's row menu
 * in the other) makes a draft for the three who did not. The editor names them with their count, the
 * preview lists them, the confirmation counts them; a third opens the original before the send, so the
 * confirmation says one is left out and the send mails two. The list's row and the report's header then
 * name the original and the rule.
 */
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { signInWithApi, uniqueName } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import {
  campaignRow,
  campaignsTable,
  editorSection,
  listOf,
  openRowMenu,
  people,
  seedAudience,
  seedTemplate,
  uniqueTag,
} from './support/campaigns';
import { createCampaign, inbox, reportPath, sendCampaign, waitUntilSent } from './support/reports';
import { readState } from './support/stack';

test.use({ timezoneId: 'UTC' });

/** People opened these addresses' mails of the campaign (what the tracking records for a person's open). */
async function openedByPeople(campaignId: number, emails: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      'UPDATE campaign_jobs SET opened_at = now(), human_opened_at = now() WHERE campaign_id = $1 AND email = ANY($2::text[])',
      [campaignId, emails],
    );
    expect(rowCount).toBe(emails.length);
  } finally {
    await client.end();
  }
}

const fitsWidth = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

for (const theme of ['light', 'dark'] as const) {
  test(`follows up the people who did not open, at 390 px in the ${theme} theme`, async ({ page, request }) => {
    await page.addInitScript((chosen) => localStorage.setItem('mailroom.theme', chosen), theme);
    await page.setViewportSize({ width: 390, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const everyone = people(tag, 5);
    const audience = await seedAudience(api, uniqueName('Follow-up audience'), everyone);
    const templateId = await seedTemplate(api, `${tag} template`);
    const name = `${tag} Autumn news`;
    const subject = `${tag} autumn for {{firstName}}`;
    const original = await createCampaign(api, {
      name,
      templateId,
      audienceId: audience.id,
      audienceName: audience.name,
      subject,
      fromName: 'Mailroom e2e',
    });
    await sendCampaign(api, original);
    await openedByPeople(original, [everyone[0]!.email, everyone[1]!.email]);

    if (theme === 'dark') {
      await page.goto(reportPath(original));
      await page.getByRole('button', { name: 'Follow up' }).click();
    } else {
      await page.goto(listOf(name));
      await openRowMenu(page, name);
      await page.getByRole('menuitem', { name: 'Follow up' }).click();
    }
    const dialog = page.getByRole('dialog', { name: 'Follow up' });
    await expect(dialog.getByRole('radio', { name: 'People who did not open it' })).toBeChecked();
    await expectNoAxeViolations(page, `the follow-up dialog (${theme})`);
    await dialog.getByRole('button', { name: 'Create follow-up' }).click();

    await expect(page).toHaveURL(/\/campaigns\/edit\/\d+$/);
    const followUp = Number(/(\d+)$/.exec(page.url())![1]);
    const to = `People who did not open "${name}"`;
    await expect(editorSection(page, 'To')).toContainText(`${to} (3 contacts)`);
    await editorSection(page, 'To').getByRole('button').click();
    await expect(page.getByText('3 contacts of the audience')).toBeVisible();
    await expect(page.getByRole('button', { name: /audience/i })).toHaveCount(0);
    await fitsWidth(page);
    await expectNoAxeViolations(page, `the follow-up in the editor (${theme})`);

    await page.getByRole('button', { name: 'Preview Campaign' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview Campaign' });
    await expect(preview.getByText(`${to} (3)`)).toBeVisible();
    for (const person of everyone.slice(2)) await expect(preview.getByText(person.email).first()).toBeVisible();
    await expect(preview.getByText(everyone[0]!.email)).toHaveCount(0);
    await expectNoAxeViolations(page, `the follow-up's preview (${theme})`);
    await preview.getByRole('button', { name: 'Close preview' }).click();

    // A third person opens the original after the follow-up was made: the confirmation says the send leaves them out.
    await openedByPeople(original, [everyone[2]!.email]);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Send campaign' });
    await expect(confirm).toContainText(`This campaign will be sent to 3 contacts: ${to}. Send it now?`);
    await expect(confirm).toContainText(`1 of them opened “${name}” since the follow-up was made and will be left out.`);
    await expectNoAxeViolations(page, `the follow-up's send confirmation (${theme})`);
    await confirm.getByRole('button', { name: 'Send now' }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
    expect(await waitUntilSent(api, followUp)).toMatchObject({ contactCount: 2, jobsSent: 2 });

    // Same subject as the original: the openers got one mail, the others two.
    await expect.poll(async () => (await inbox(request, `${tag} autumn`)).length, { timeout: 30_000 }).toBe(7);
    const mails = await inbox(request, `${tag} autumn`);
    const count = (email: string) => mails.filter((mail) => mail.to === email).length;
    expect(everyone.map((person) => count(person.email))).toEqual([1, 1, 1, 2, 2]);

    // The list's row and the report's header name the original and the rule, not the audience.
    // Searched by the follow-up's own name, parentheses and all: only it matches.
    const searched = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/campaigns' && url.searchParams.get('name') === `${name} (follow-up)`;
    });
    await page.goto(listOf(`${name} (follow-up)`));
    expect((await searched).status()).toBe(200);
    const row = campaignRow(page, `${name} (follow-up)`);
    await expect(campaignsTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(row.getByText(`To: ${to}`)).toBeVisible();
    await expect(row.getByRole('link', { name: to })).toHaveAttribute('href', reportPath(original));
    await expect(row.getByRole('link', { name: audience.name })).toHaveCount(0);
    await fitsWidth(page);
    await expectNoAxeViolations(page, `the follow-up's list row (${theme})`);
    await row.getByRole('link', { name: `${name} (follow-up)`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${reportPath(followUp)}$`));
    await expect(page.getByText(`Follow-up: ${to}`)).toBeVisible();
    await expect(page.getByRole('link', { name: to })).toHaveAttribute('href', reportPath(original));
    await fitsWidth(page);
    await expectNoAxeViolations(page, `the follow-up's report header (${theme})`);
  });
}
