/**
 * End-to-end suite for the platform: the built product in Debian's Chromium, signed in through the
 * embedded OIDC provider's real login form.
 *
 * global-setup.ts creates a fresh database `mailroom_e2e_<timestamp>` on 127.0.0.1:5432, serves the
 * campaigns remote and the local SES from separate processes (the remote-down test stops the one,
 * the campaigns spec the other) and starts the one-command stack (api/dev/stack/main.ts) on the
 * e2e ports (web 18080, OIDC 14000, SES 18005, remotes 13101..13104, campaigns remote 13203), with
 * RabbitMQ. global-teardown.ts ends them all and drops the database. Missing frontend builds are built first.
 *
 * Run alone: cd tests && pnpm exec playwright test -c e2e/playwright.config.ts
 * Logs of the stack, the remote and the local SES: tests/e2e/.state/*.log
 */
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { baseURL } from './support/stack';

const jsonReport = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME;
/** The files whose tests need a product nothing has been done in yet. */
const UNTOUCHED = ['audiences.spec.ts', 'platform.spec.ts'];
const reporter: ReporterDescription[] = [['list']];
if (jsonReport) reporter.push(['json', { outputFile: jsonReport }]);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '.state/test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  // Two cores: one browser at a time, tests in file order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The longest walks (a follow-up: send, wait until sent, dialogs, axe in each state) take about 50 s
  // on the shared two cores at a load average of 20; at 40 they ran past a one-minute limit.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter,
  // Some tests read the product untouched (no audiences yet, nothing sent on the local SES): their
  // files run first, whatever later files (activity, follow-ups...) are named.
  projects: [
    { name: 'untouched', testMatch: UNTOUCHED },
    { name: 'product', testIgnore: UNTOUCHED, dependencies: ['untouched'] },
  ],
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // As a member who asked for less motion sees it: Fluent's enter and exit motions take 1 ms, so
    // what a test reads is the settled page (browser-checks.ts still waits for what does move).
    reducedMotion: 'reduce',
    launchOptions: {
      // Never a downloaded browser: the machine's Chromium.
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
