/**
 * Screens follow a campaign's status while it can change by itself (issue 21): a campaign scheduled a
 * few seconds ahead is open at once in the campaigns list, in its read-only editor and in its report;
 * when the stack's worker starts it and sends it, each of them leaves "Scheduled" without a reload (the
 * list's chip, the editor's 'Cancel schedule' and message, the report's 'Follow up' once it is sent).
 * At 1280 px in the light theme and at 390 px in the dark one, axe-core checked after the change.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, uniqueName } from './support/audiences';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import { campaignRow, listOf, people, seedAudience, seedTemplate, uniqueTag, waitForStatus } from './support/campaigns';
import { createCampaign, reportPath } from './support/reports';

test.use({ timezoneId: 'UTC' });

/** The screens poll every 5 s; the worker's sweep starts a due campaign within a second or two. */
const FOLLOWED = { timeout: 40_000 };

const noSidewaysScroll = async (page: Page, where: string) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), where).toBeLessThanOrEqual(
    0,
  );

for (const [theme, width] of [
  ['light', 1280],
  ['dark', 390],
] as const) {
  test(`the list, the editor and the report leave Scheduled without a reload (${theme}, ${width} px)`, async ({ browser, page }) => {
    test.setTimeout(180_000);
    // Each screen in a tab of its own, signed in on its own (a tab keeps its session to itself).
    const tab = async (existing?: Page) => {
      const opened = existing ?? (await (await browser.newContext({ timezoneId: 'UTC' })).newPage());
      await opened.addInitScript((chosen) => localStorage.setItem('mailroom.theme', chosen), theme);
      await opened.setViewportSize({ width, height: 900 });
      return opened;
    };
    const list = await tab(page);
    const api = await signInWithApi(list);
    const editor = await tab();
    const report = await tab();
    for (const other of [editor, report]) await signInAsMember(other);

    const tag = uniqueTag();
    const name = uniqueName(`Follows ${theme}`);
    const audience = await seedAudience(api, `${name} audience`, people(tag, 2));
    const templateId = await seedTemplate(api, `${name} template`);
    const id = await createCampaign(api, {
      name,
      templateId,
      audienceId: audience.id,
      audienceName: audience.name,
      subject: `${tag} soon`,
      fromName: 'Mailroom e2e',
    });
    // Far enough ahead for the three screens to open on a scheduled campaign.
    const at = new Date(Date.now() + 15_000).toISOString();
    expect((await api.post(`/api/campaigns/${id}/schedule`, { at })).status()).toBe(200);

    await list.goto(listOf(name));
    await editor.goto(`/campaigns/edit/${id}`);
    await report.goto(reportPath(id));
    const row = campaignRow(list, name);
    await expect(row.getByText('Scheduled', { exact: true })).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Cancel schedule' })).toBeVisible();
    await expect(report.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(report.getByRole('button', { name: 'Follow up' })).toHaveCount(0);
    // Still scheduled when every screen was open: what follows is the screens' doing, not their first read.
    expect(Date.now()).toBeLessThan(Date.parse(at));

    await waitForStatus(api, id, 'SENT', 60_000);
    await expect(row.getByText('Sent', { exact: true })).toBeVisible(FOLLOWED);
    await expect(row.getByText('Scheduled', { exact: true })).toHaveCount(0);
    await expect(row.getByText('2 / 2 recipients (0 failed)')).toBeVisible(FOLLOWED);
    await noSidewaysScroll(list, 'the list');
    await expectNoAxeViolations(list, `the list once the scheduled campaign is sent (${theme})`);

    await expect(editor.getByRole('button', { name: 'Cancel schedule' })).toHaveCount(0, FOLLOWED);
    await expect(editor.getByText('This campaign is sent and can no longer be edited.')).toBeVisible(FOLLOWED);
    await expect(editor.getByText(/This campaign is scheduled for/)).toHaveCount(0);
    await noSidewaysScroll(editor, 'the editor');
    await expectNoAxeViolations(editor, `the editor once the scheduled campaign is sent (${theme})`);

    await expect(report.getByRole('button', { name: 'Follow up' })).toBeVisible(FOLLOWED);
    await noSidewaysScroll(report, 'the report');
    await expectNoAxeViolations(report, `the report once the scheduled campaign is sent (${theme})`);
    for (const other of [editor, report]) await other.context().close();
  });
}
