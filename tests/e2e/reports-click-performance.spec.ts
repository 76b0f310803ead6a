/**
 * The campaign report's Click Performance tab (docs/product.md, Campaign report, 3) on the report's
 * journey (support/report-journey.ts): each link with its total and unique clicks, and the click map,
 * by keyboard, with axe on the tab, the map and the map's own document.
 */
import { signInWithApi } from './support/audiences';
import { collectCspViolations, expectNoAxeViolations, expectNoAxeViolationsInFrameDocument } from './support/browser-checks';
import { EVENTS, NEWS, expect, test } from './support/report-journey';
import { reportPath, tabTo } from './support/reports';

test.use({ timezoneId: 'UTC' });

test('Click Performance: each link with its total and unique clicks; the click map marks the links and shows their details', async ({
  page,
  journey,
}) => {
  const { campaign } = journey;
  const violations = await collectCspViolations(page);
  const api = await signInWithApi(page);
  const links = (await (await api.get(`/api/reports/${campaign.id}/clicks`)).json()) as {
    id: number;
    href: string;
    clicks: number;
    uniqueClicks: number;
    humanClicks: number;
    humanUniqueClicks: number;
  }[];
  expect(links.map(({ href, clicks, uniqueClicks }) => ({ href, clicks, uniqueClicks }))).toEqual([
    { href: NEWS, clicks: 3, uniqueClicks: 2 },
    { href: EVENTS, clicks: 1, uniqueClicks: 1 },
  ]);
  const newsId = links[0]!.id;

  await page.goto(reportPath(campaign.id, 'click-performance'));
  await expect(page.getByRole('heading', { level: 2, name: 'Links in this email' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Links in this email' });
  await expect(table.getByRole('columnheader')).toHaveText(['URL', 'Total Clicks', 'Unique Clicks']);
  // Under each count, how many of them people made (an addition; the journey's people read as people).
  const people = links.map((link) => [`${link.humanClicks} by people`, `${link.humanUniqueClicks} by people`]);
  await expect(table.locator('tbody tr').nth(0).getByRole('cell')).toHaveText([
    NEWS,
    `3 (75.0%)${people[0]![0]}`,
    `2 (66.7%)${people[0]![1]}`,
  ]);
  await expect(table.locator('tbody tr').nth(1).getByRole('cell')).toHaveText([
    EVENTS,
    `1 (25.0%)${people[1]![0]}`,
    `1 (33.3%)${people[1]![1]}`,
  ]);
  await expectNoAxeViolations(page, 'the click performance tab');

  // The keyboard opens the map.
  const open = page.getByRole('button', { name: 'View Click Map' });
  await page.getByRole('tab', { name: 'Click Performance' }).focus();
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Click Map' });
  await expect(dialog).toBeVisible();
  const frameElement = dialog.locator('iframe[title="Click map"]');
  await expect(frameElement).toHaveAttribute('sandbox', '');
  const map = page.frameLocator('iframe[title="Click map"]');

  // Each link carries its clicks and share, and the id of its campaign link.
  const news = map.getByRole('link', { name: /Read the news/ });
  await expect(news).toHaveAttribute('data-link-id', String(newsId));
  await expect(news).toContainText('3 clicks · 75.0%');
  await expect(map.getByRole('link', { name: /See the events/ })).toContainText('1 click · 25.0%');
  // Nothing of the template runs there either.
  await expect(map.locator('script')).toHaveCount(0);

  // Without a selection, the Click Summary: a bar per link.
  const summary = map.getByRole('region', { name: 'Click Summary' });
  await expect(summary.getByRole('listitem')).toHaveText([`${NEWS}3 clicks (75.0%)`, `${EVENTS}1 click (25.0%)`]);
  await expect(map.getByRole('region', { name: 'Link Details' })).toHaveCount(0);

  // Pointing at a link highlights it; selecting it shows its details.
  await news.hover();
  await expect(news).toHaveCSS('outline-style', 'solid');
  await news.click();
  const details = map.getByRole('region', { name: 'Link Details' });
  await expect(details).toBeVisible();
  await expect(details.getByRole('term')).toHaveText(['URL', 'Total Clicks', '% of all clicks', 'Unique Clicks', '% of all unique clicks']);
  await expect(details.getByRole('definition')).toHaveText([NEWS, '3', '75.0%', '2', '66.7%']);
  await expect(summary).toBeHidden();
  await details.getByRole('link', { name: 'Back to Click Summary' }).click();
  await expect(summary).toBeVisible();
  await expect(map.getByRole('region', { name: 'Link Details' })).toHaveCount(0);

  await expectNoAxeViolations(page, 'the click map');
  await expectNoAxeViolationsInFrameDocument(frameElement, 'the click map document');
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});
