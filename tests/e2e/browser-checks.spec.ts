/**
 * The checks of support/browser-checks.ts read the page once it has settled: a fade still running
 * would show axe colours no member sees once it ends.
 */
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, waitForPageToSettle } from './support/browser-checks';

/** A title fading in over 6 s: faint at first, then dark grey on white (4.6:1, above the AA 4.5:1). */
const FADING_IN = `<!doctype html><html lang="en"><head><title>Fading toast</title><style>
  @keyframes fade-in { from { opacity: 0.1; } to { opacity: 1; } }
  @keyframes timer { from { opacity: 0; } to { opacity: 0; } }
  @keyframes spin { to { transform: rotate(360deg); } }
  .title { color: #757575; background: #fff; animation: fade-in 6000ms linear; }
  .timer { animation: timer 60s linear; }
  .spinner { width: 10px; height: 10px; animation: spin 1s linear infinite; }
</style></head><body><main><h1 class="title">Follow-up created</h1><span class="timer"></span><div class="spinner"></div></main></body></html>`;

test('axe reads a toast once its fade-in has finished, not half-way', async ({ page }) => {
  await page.setContent(FADING_IN);
  // The title is still fading in (below 4.5:1 until its last second): what axe would have measured without the wait.
  expect(Number(await page.locator('.title').evaluate((title) => getComputedStyle(title).opacity))).toBeLessThan(1);
  await expectNoAxeViolations(page, 'a page whose title fades in');
  expect(await page.locator('.title').evaluate((title) => getComputedStyle(title).opacity)).toBe('1');
});

test('the wait ignores what never ends and what changes nothing on screen', async ({ page }) => {
  await page.setContent(FADING_IN.replace('animation: fade-in 6000ms linear;', ''));
  const started = Date.now();
  // The 60 s timer and the endless spinner are running: neither holds the checks up.
  await waitForPageToSettle(page, 'a page with a timer and a spinner');
  expect(Date.now() - started).toBeLessThan(5_000);
});
