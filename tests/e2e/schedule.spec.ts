/**
 * Scheduled sending (an addition to the spec), in Chromium against the whole stack: the editor's
 * Schedule with its picker in the member's time zone (the browser runs in Europe/Paris here), the same
 * invalid-contacts warning and confirmation as Send, the list's Scheduled chip, the read-only scheduled
 * editor with Cancel schedule, and a campaign started by the stack's worker sweep at its time, whose
 * report shows when it was planned. At 1280 px in the light theme, and at 390 px in the dark one.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, toast, uniqueName, type MemberApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import {
  authorizedSenders,
  campaignRow,
  listOf,
  openRowMenu,
  people,
  readCampaign,
  seedAudience,
  seedCampaign,
  seedTemplate,
  uniqueTag,
  waitForStatus,
} from './support/campaigns';
import { reportPath } from './support/reports';

const ZONE = 'Europe/Paris';
test.use({ timezoneId: ZONE });

/** A draft ready to send to two people and one invalid address. */
async function readyCampaign(api: MemberApi, label: string) {
  const name = uniqueName(label);
  const tag = uniqueTag();
  const audience = await seedAudience(api, `${name} audience`, people(tag, 2), { invalid: [`${tag}-not-an-address`] });
  const templateId = await seedTemplate(api, `${name} template`);
  const [sender] = await authorizedSenders(api);
  const id = await seedCampaign(api, name, {
    audienceId: audience.id,
    templateId,
    fromName: 'Mailroom E2E',
    fromEmail: sender!,
    subject: 'Later news for {{firstName}}',
  });
  return { id, name, audience };
}

/** 'YYYY-MM-DD' and 'HH:mm' of a day ahead of now in the browser's zone, at 09:30. */
async function tomorrowAtNineThirty(page: Page) {
  return page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    const two = (n: number) => String(n).padStart(2, '0');
    return { date: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`, time: '09:30' };
  });
}

const noSidewaysScroll = async (page: Page, where: string) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), where).toBeLessThanOrEqual(
    0,
  );

test('schedules from the editor in the member time zone, refuses a past time, and Cancel schedule makes it a draft again', async ({
  page,
}) => {
  const api = await signInWithApi(page);
  const campaign = await readyCampaign(api, 'Scheduled');
  await page.goto(`/campaigns/edit/${campaign.id}`);

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Schedule campaign' });
  await expect(picker).toContainText(`Time zone: ${ZONE}`);
  await expectNoAxeViolations(page, 'the schedule picker');

  // Yesterday is refused here, before the server would refuse it.
  const { date, time } = await tomorrowAtNineThirty(page);
  const yesterday = await page.evaluate(() => {
    const d = new Date(Date.now() - 86_400_000);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  await picker.getByLabel('Date').fill(yesterday);
  await expect(picker.getByText('Choose a time in the future.')).toBeVisible();
  await expect(picker.getByRole('button', { name: 'Continue' })).toBeDisabled();

  await picker.getByLabel('Date').fill(date);
  await picker.getByLabel('Time').fill(time);
  await picker.getByRole('button', { name: 'Continue' }).click();

  // The same warning as Send, then a confirmation with the count and the time in the member's zone.
  const warning = page.getByRole('alertdialog', { name: 'Invalid contacts' });
  await expect(warning).toContainText('has 1 invalid contact');
  await warning.getByRole('button', { name: 'Proceed with Valid Contacts' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Schedule campaign' });
  const when = `${date} 09:30 AM (${ZONE})`;
  await expect(confirm).toContainText(`This campaign will be sent to 2 contacts of “${campaign.audience.name}” on ${when}. Schedule it?`);
  await expectNoAxeViolations(page, 'the schedule confirmation');
  await confirm.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(toast(page, `Campaign ${campaign.name} is scheduled for ${when}`)).toBeVisible();

  // 09:30 in Paris, stored as the instant it names.
  const stored = await readCampaign(api, campaign.id);
  expect(stored.status).toBe('SCHEDULED');
  expect(await page.evaluate((iso) => new Date(iso!).toLocaleString('sv-SE', { timeZone: 'Europe/Paris' }), stored.scheduledAt)).toBe(
    `${date} 09:30:00`,
  );

  // The list's chip with the time; no rename or delete while scheduled.
  await page.goto(listOf(campaign.name));
  const row = campaignRow(page, campaign.name);
  await expect(row.getByText('Scheduled', { exact: true })).toBeVisible();
  await expect(row.getByText(when)).toBeVisible();
  await openRowMenu(page, campaign.name);
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expectNoAxeViolations(page, 'the campaigns list with a scheduled campaign');

  // The editor is read-only, with Cancel schedule.
  await row.getByRole('link', { name: `Open ${campaign.name}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campaign' })).toBeVisible();
  await expect(page.getByText(`This campaign is scheduled for ${when} and cannot be edited.`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Campaign name' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'the scheduled campaign in the editor');
  await page.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Draft Email' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Campaign name' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  expect((await readCampaign(api, campaign.id)).status).toBe('DRAFT');
});

test('a scheduled campaign starts by itself at its time, and its report shows when it was planned', async ({ page }) => {
  const api = await signInWithApi(page);
  const campaign = await readyCampaign(api, 'Starts by itself');
  const at = new Date(Date.now() + 3_000).toISOString();
  const scheduled = await api.post(`/api/campaigns/${campaign.id}/schedule`, { at });
  expect(scheduled.status()).toBe(200);
  const started = await waitForStatus(api, campaign.id, 'SENT', 30_000);
  // Started by the stack's worker within 10 s of its time.
  expect(Date.parse(started.deliveryDate!) - Date.parse(at)).toBeGreaterThanOrEqual(0);
  expect(Date.parse(started.deliveryDate!) - Date.parse(at)).toBeLessThan(10_000);
  expect(started.scheduledAt).toBe(at);

  await page.goto(reportPath(campaign.id));
  const planned = page.getByRole('definition').filter({ hasText: `(${ZONE})` });
  await expect(planned).toBeVisible();
  await expectNoAxeViolations(page, 'the report of a scheduled campaign');
});

test('works at 390 px wide in the dark theme: the picker, the list chip and the scheduled editor', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await signInWithApi(page);
  const campaign = await readyCampaign(api, 'Narrow schedule');

  await page.goto(`/campaigns/edit/${campaign.id}`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Schedule campaign' });
  await expect(picker).toContainText(`Time zone: ${ZONE}`);
  for (const control of [picker.getByLabel('Date'), picker.getByLabel('Time'), picker.getByRole('button', { name: 'Continue' })]) {
    await expect(control).toBeInViewport();
  }
  await expectNoAxeViolations(page, 'the schedule picker, narrow and dark');
  await picker.getByRole('button', { name: 'Cancel' }).click();

  const at = new Date(Date.now() + 86_400_000).toISOString();
  expect((await api.post(`/api/campaigns/${campaign.id}/schedule`, { at })).status()).toBe(200);
  await page.goto(listOf(campaign.name));
  await expect(campaignRow(page, campaign.name).getByText('Scheduled', { exact: true })).toBeVisible();
  await noSidewaysScroll(page, 'no horizontal scrolling of the list page');
  await expectNoAxeViolations(page, 'the campaigns list with a scheduled campaign, narrow and dark');

  await page.goto(`/campaigns/edit/${campaign.id}`);
  await expect(page.getByRole('button', { name: 'Cancel schedule' })).toBeInViewport();
  await noSidewaysScroll(page, 'no horizontal scrolling of the scheduled editor');
  await expectNoAxeViolations(page, 'the scheduled editor, narrow and dark');
});
