/**
 * While the message broker is away the quota bar says that sending and imports are paused (the quota
 * call's sendingAndImportsPaused, an addition: docs/decisions/sending.md): in the light and dark
 * themes, at 390 px and at full width, with axe. The e2e stack's broker is never stopped (others
 * share the machine); the outage is played by answering the quota call as the API then does, its
 * real figures with the flag on. The API's side of the outage is tested in
 * api/src/http/broker-outage.test.ts and api/src/workers/outages.int.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';

const PAUSED = 'Sending and imports are paused: the message broker is unavailable.';
const quotaBar = (page: Page) => page.getByRole('region', { name: 'Daily sending quota' });

/** The quota call as the API answers it while the broker is away. */
async function brokerAway(page: Page): Promise<void> {
  await page.route('**/api/ses-quota', async (route) => {
    const response = await route.fetch();
    const quota = (await response.json()) as Record<string, unknown>;
    expect(quota.sendingAndImportsPaused).toBe(false);
    await route.fulfill({ response, json: { ...quota, sendingAndImportsPaused: true } });
  });
}

for (const theme of ['light', 'dark'] as const) {
  for (const width of [390, 1280]) {
    test(`the quota bar says that sending and imports are paused (${theme}, ${width} px)`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
      await page.setViewportSize({ width, height: 844 });
      await brokerAway(page);
      await signInAsMember(page);
      const bar = quotaBar(page);
      const paused = bar.getByRole('status');
      await expect(paused).toContainText(PAUSED);
      // The figures stay beside it: only sending and imports are paused.
      await expect(bar.getByText(/^Sent\b/)).toBeVisible();
      await expectNoAxeViolations(page, `the quota bar with sending paused (${theme}, ${width} px)`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      // The broker is back: the next reading of the quota takes the banner away.
      await page.unroute('**/api/ses-quota');
      await page.reload();
      await expect(bar.getByText(/^Sent\b/)).toBeVisible();
      await expect(bar.getByText(PAUSED)).toHaveCount(0);
    });
  }
}
