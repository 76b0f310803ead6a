/**
 * The report says when the deployment takes no SES delivery events (an addition to the spec), so that
 * 'Sent (waiting Ack)' for ever has a reason on screen: in the light and dark themes, at 390 px and at
 * full width, with axe. The e2e stack takes delivery events (SES_CONFIGURATION_SET and SNS_TOPIC_ARNS),
 * so its report shows no notice; a deployment without them is played by answering the quota call as
 * its API would.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInWithApi, uniqueName } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { reportPath } from './support/reports';
import { createTemplate } from './support/templates';

const NOTICE = 'Delivery events are not configured';

/** The quota call as an API without delivery events answers it: its real figures, with the flag off. */
async function withoutDeliveryEvents(page: Page): Promise<void> {
  await page.route('**/api/ses-quota', async (route) => {
    const response = await route.fetch();
    const quota = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...quota, deliveryEventsConfigured: false } });
  });
}

for (const theme of ['light', 'dark'] as const) {
  for (const width of [390, 1280]) {
    test(`the report says delivery events are not configured (${theme}, ${width} px)`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
      await page.setViewportSize({ width, height: 844 });
      const api = await signInWithApi(page);
      const templateId = await createTemplate(api, uniqueName('Delivery events template'));
      const created = await api.post('/api/campaigns', { name: uniqueName('Delivery events'), templateId });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: number };

      // This stack takes delivery events: no notice.
      await page.goto(reportPath(id));
      await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible();
      expect(await (await api.get('/api/ses-quota')).json()).toMatchObject({ deliveryEventsConfigured: true });
      await expect(page.getByText(NOTICE)).toHaveCount(0);

      // A deployment without them: the notice, on every tab, readable by everyone.
      await withoutDeliveryEvents(page);
      await page.reload();
      const notice = page.getByText(NOTICE);
      await expect(notice).toBeVisible();
      await expect(page.getByText(/every email stays 'Sent \(waiting Ack\)'/)).toBeVisible();
      await expectNoAxeViolations(page, `the report with the delivery events notice (${theme}, ${width} px)`);
      for (const tab of ['Email Performance', 'Click Performance']) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(notice).toBeVisible();
      }
      // Nothing spills out of a narrow window.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
}
