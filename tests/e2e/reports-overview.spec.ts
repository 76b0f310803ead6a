/**
 * The campaign report's Overview tab (docs/product.md, Campaign report, 1) on the report's journey
 * (support/report-journey.ts): the recipients sent and failed, the audience, the subject, when sending
 * started, and the html as it was sent, in a frame with an empty sandbox; the keyboard moves between the
 * tabs. The Overview's figures, timeline and domains (an addition) are report-overview.spec.ts's.
 */
import { signInWithApi } from './support/audiences';
import { collectCspViolations, expectNoAxeViolations } from './support/browser-checks';
import { test, expect, shown } from './support/report-journey';
import { emailPerformanceTable, readCampaign, reportPath } from './support/reports';

test.use({ timezoneId: 'UTC' });

test('Overview: recipients sent, failed, audience, subject, the start and the html sent, in a sandboxed frame', async ({
  page,
  journey,
}) => {
  const { audienceId, audienceName, subject } = journey;
  const violations = await collectCspViolations(page);
  // Read as it is now: the report's other files may have retried its failed mail meanwhile.
  const campaign = await readCampaign(await signInWithApi(page), journey.campaign.id);
  await page.goto(reportPath(campaign.id));

  await expect(page.getByRole('heading', { level: 1, name: campaign.name })).toBeVisible();
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(3);
  for (const [index, name] of ['Overview', 'Email Performance', 'Click Performance'].entries()) {
    await expect(tabs.nth(index)).toHaveAccessibleName(name);
  }
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Sent to: 5 / 6 Recipients (1 failed)', { exact: true })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByText('Sent', { exact: true })).toBeVisible();
  // Sending is over: no progress bar.
  await expect(page.getByText('Sending progress')).toHaveCount(0);

  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('term')).toHaveText(['Audience', 'Subject', 'Started']);
  const values = panel.getByRole('definition');
  await expect(values.nth(0).getByRole('link', { name: audienceName })).toHaveAttribute('href', `/audiences/${audienceId}`);
  await expect(values.nth(1)).toHaveText(subject);
  expect(campaign.deliveryDate).toBeTruthy();
  await expect(values.nth(2)).toHaveText(shown(campaign.deliveryDate!));

  // The html as it was sent (links marked with their ids), with an empty sandbox: its script never runs.
  const frame = page.locator('iframe[title="Campaign email"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  expect(await frame.getAttribute('srcdoc')).toMatch(/<a [^>]*data-link-id="\d+"[^>]*>Read the news<\/a>/);
  await expect(page.frameLocator('iframe[title="Campaign email"]').getByRole('heading', { name: 'Hello {{firstName}}' })).toBeVisible();
  expect(await page.evaluate(() => (window as { reportScriptRan?: boolean }).reportScriptRan)).toBeUndefined();

  await expectNoAxeViolations(page, 'the report overview');
  expect(violations, 'Content-Security-Policy violations').toEqual([]);

  // The keyboard moves between the tabs and opens one.
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Email Performance' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(reportPath(campaign.id, 'email-performance'));
  await expect(emailPerformanceTable(page)).toBeVisible();
});
