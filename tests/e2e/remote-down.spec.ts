/**
 * One remote down (docs/architecture.md, Micro-frontends): with the campaigns remote's server stopped, /campaigns
 * shows an error panel in its own area while the drawer, the quota bar and the other remotes keep
 * working. The server is started again afterwards, whatever the outcome.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInAsMember } from './support/auth';
import { readState, startCampaignsRemote, stopCampaignsRemote, writeState } from './support/stack';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const quotaBar = (page: Page) => page.getByRole('region', { name: 'Daily sending quota' });
const areaTitle = (page: Page, title: string) => page.getByRole('main').getByRole('heading', { name: title, exact: true, level: 1 });

test.describe('with the campaigns remote down', () => {
  test.beforeAll(async () => {
    const state = readState();
    if (state.campaignsRemotePid) await stopCampaignsRemote(state.campaignsRemotePid);
    writeState({ ...state, campaignsRemotePid: null });
  });

  test.afterAll(async () => {
    const state = readState();
    if (!state.campaignsRemotePid) writeState({ ...state, campaignsRemotePid: await startCampaignsRemote() });
  });

  test('/campaigns shows an error panel while the drawer, the quota bar and /audiences keep working', async ({ page }) => {
    await signInAsMember(page);
    await expect(areaTitle(page, 'Audiences')).toBeVisible();

    await nav(page).getByRole('link', { name: 'Campaigns' }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
    const main = page.getByRole('main');
    await expect(main.getByRole('alert')).toBeVisible({ timeout: 20_000 });
    await expect(main.getByRole('alert')).toContainText('The Campaigns area could not be loaded.');
    await expect(main.getByRole('alert').getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(areaTitle(page, 'Campaigns')).toHaveCount(0);

    await expect(nav(page)).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('aria-current', 'page');
    await expect(quotaBar(page).getByText(/\d+\.\d{2}%/)).toBeVisible();

    await nav(page).getByRole('link', { name: 'Audiences' }).click();
    await expect(page).toHaveURL(/\/audiences$/);
    await expect(areaTitle(page, 'Audiences')).toBeVisible();
    await expect(main.getByRole('alert')).toHaveCount(0);

    // A direct load of the broken area, too: the shell itself still comes up.
    await page.goto('/campaigns');
    await expect(page.getByRole('main').getByRole('alert')).toBeVisible({ timeout: 20_000 });
    await expect(nav(page)).toBeVisible();
  });
});
