/**
 * Sign-in through the real login form of the embedded OIDC provider (api/dev/embedded/oidc.ts):
 * the shell's 'Sign In With <org> ID' button, then the provider's labelled Email and Password
 * fields and its 'Sign in' button, then the redirect back to the shell.
 */
import { expect, type Page } from '@playwright/test';
import { baseURL, oidcOrigin } from './stack';

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export const MEMBER: Account = { email: 'mia@example.org', password: 'mailroom', firstName: 'Mia', lastName: 'Member' };
/** Another member of the domain (send approval: never the requester approves). */
export const SECOND_MEMBER: Account = { email: 'sam@example.org', password: 'mailroom', firstName: 'Sam', lastName: 'Sender' };
export const OUTSIDER: Account = { email: 'otto@outsider.test', password: 'mailroom', firstName: 'Otto', lastName: 'Outsider' };

export interface ShellConfig {
  orgName: string;
  orgDomain: string;
}

/** The shell's runtime configuration, as the browser gets it. */
export async function shellConfig(page: Page): Promise<ShellConfig> {
  const response = await page.request.get('/config.json');
  expect(response.ok(), 'GET /config.json').toBeTruthy();
  return (await response.json()) as ShellConfig;
}

const webOrigin = new URL(baseURL).origin;

/** Opens /, lands on /login, and goes through the provider's form; returns once back on the shell's origin. */
export async function signInThroughProvider(page: Page, account: Account): Promise<void> {
  const { orgName } = await shellConfig(page);
  await page.goto('/');
  // The silent single-sign-on check runs first (an iframe to the provider).
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  await page.getByRole('button', { name: `Sign In With ${orgName} ID` }).click();

  await page.waitForURL((url) => url.origin === oidcOrigin);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Back on the shell, past the callback route that exchanges the code.
  await page.waitForURL((url) => url.origin === webOrigin && url.pathname !== '/login/callback', { timeout: 20_000 });
}

/** Signs the member (or `account`) in and waits for the default signed-in page. */
export async function signInAsMember(page: Page, account: Account = MEMBER): Promise<void> {
  await signInThroughProvider(page, account);
  await expect(page).toHaveURL(/\/audiences$/);
}
