/**
 * Sign-up forms and double opt-in (issue 25), the whole path in Chromium, once at desktop width in the
 * light theme and once at 390 px in the dark one: a member makes a form on the audience's forms screen
 * and reads its HTML to paste; a person opens the hosted page (no Content-Security-Policy violation),
 * submits it while the widget solves the proof-of-work in the browser, reads the confirmation mail at the
 * local SES, opens the link (a page asking, which changes nothing), confirms, and the contact is in the
 * audience. axe runs on the member's screen and on every public page.
 * Then the form pasted into the organisation's own site (another origin) with the widget: the check is solved
 * in the visitor's browser from the API's scripts, and the audience shows the sign-up waiting for confirmation.
 */
import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { contactsTable, signInWithApi } from './support/audiences';
import { collectCspViolations, expectNoAxeViolations } from './support/browser-checks';
import { people, seedAudience, uniqueTag } from './support/campaigns';
import { inbox, mailTo } from './support/reports';
import { baseURL, PORTS } from './support/stack';

const MAIL_SUBJECT = 'Please confirm your subscription';

for (const [theme, width] of [
  ['light', 1280],
  ['dark', 390],
] as const) {
  test(`a person joins an audience through its form and a confirmed mail (${theme}, ${width} px)`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width, height: 844 });
    const violations = await collectCspViolations(page);
    const api = await signInWithApi(page);
    const tag = uniqueTag().toLowerCase();
    const audience = await seedAudience(api, `Signups ${tag}`, people(`member-${tag}`, 1));
    const formName = `Tree news ${tag}`;
    const joiner = `joiner-${tag}@example.org`;

    // The member: from the audience's page to its forms, a new form, its HTML.
    await page.goto(`/audiences/${audience.id}`);
    const formsLink = page.getByRole('link', { name: /^Sign-up forms/ });
    await expect(formsLink).toHaveText('Sign-up forms (0)', { timeout: 30_000 });
    await formsLink.click();
    await expect(page).toHaveURL(new RegExp(`/audiences/${audience.id}/forms$`));
    await expect(page.getByRole('heading', { name: 'Sign-up forms', level: 1 })).toBeVisible();
    await expect(page.getByText('No sign-up forms yet')).toBeVisible();
    await expectNoAxeViolations(page, `the forms screen (${theme})`);
    await page.getByRole('button', { name: 'New form' }).click();
    const dialog = page.getByRole('dialog', { name: 'New sign-up form' });
    await dialog.getByRole('textbox', { name: 'Public name' }).fill(formName);
    await expect(dialog.getByRole('switch', { name: 'Ask for confirmation by mail (double opt-in)' })).toBeChecked();
    await expectNoAxeViolations(page, `the new form dialog (${theme})`);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    const table = page.getByRole('table', { name: 'Sign-up forms' });
    await expect(table.getByRole('row').filter({ hasText: formName })).toBeVisible();
    await page.getByRole('button', { name: `HTML of ${formName}` }).click();
    const snippet = page.getByRole('textbox', { name: `HTML of ${formName}` });
    // The widget by default; the plain form for a site without JavaScript.
    await expect(snippet).toHaveValue(/^<link rel="stylesheet" href="http:\/\/[^"]+\/subscribe\/static\/altcha.css">/);
    await page.getByRole('switch', { name: /^With the anti-robot check/ }).click();
    await expect(snippet).toHaveValue(/^<form method="post" action="http:\/\/[^"]+\/subscribe\/tree-news-[a-z0-9-]+">/);
    await expectNoAxeViolations(page, `the forms screen with the HTML (${theme})`);
    const forms = (await (await api.get(`/api/audiences/${audience.id}/forms`)).json()) as { items: { hostedUrl: string }[] };
    const hostedUrl = forms.items[0]!.hostedUrl;
    expect(hostedUrl.startsWith(`${baseURL}/subscribe/`)).toBe(true);

    // The person: the hosted page, the proof-of-work solved by the widget as the form is sent.
    await page.goto(hostedUrl);
    await expect(page.getByRole('heading', { name: formName, level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, `the hosted page (${theme})`);
    await page.getByRole('textbox', { name: 'Email address' }).fill(joiner);
    await page.getByRole('checkbox', { name: 'I agree to receive emails from this list.' }).check();
    const posted = page.waitForRequest((request) => request.method() === 'POST' && request.url() === hostedUrl);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const body = (await posted).postData() ?? '';
    expect(new URLSearchParams(body).get('altcha'), 'the widget solved the challenge').toMatch(/^[A-Za-z0-9+/=]{40,}$/);
    await expect(page.getByRole('heading', { name: 'Thank you', level: 1 })).toBeVisible();
    await expect(page.getByText('Check your inbox')).toBeVisible();
    await expectNoAxeViolations(page, `the page of thanks (${theme})`);
    expect((await api.audience(audience.id)).numberOfContacts, 'a pending person is no contact').toBe(1);

    // The mail, its link: a GET asks, the button confirms.
    let mail: ReturnType<typeof mailTo> | undefined;
    await expect.poll(async () => (mail = (await inbox(page.request, MAIL_SUBJECT)).find((m) => m.to === joiner)) !== undefined).toBe(true);
    const link = new RegExp(`${baseURL}/subscribe/confirm/[A-Za-z0-9._~-]+`).exec(mail!.text)?.[0];
    expect(link, 'the confirmation link in the mail').toBeDefined();
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Confirm your subscription', level: 1 })).toBeVisible();
    await expect(page.getByText(`Confirm that you want to receive "${formName}"`)).toBeVisible();
    await expectNoAxeViolations(page, `the confirmation page (${theme})`);
    expect((await api.audience(audience.id)).numberOfContacts, 'opening the link confirms nothing').toBe(1);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed', level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, `the confirmed page (${theme})`);
    // The link works once.
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'This link was already used', level: 1 })).toBeVisible();

    // The member sees the new contact.
    await page.goto(`/audiences/${audience.id}`);
    await expect(page.getByText('2 contacts, 0 with errors')).toBeVisible();
    await expect(contactsTable(page).getByRole('cell', { name: joiner })).toBeVisible();
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
}

/**
 * The organisation's own site: another origin (127.0.0.1 where the product is localhost), a secure context,
 * served by a server of the test's own (a page the browser took from the network, so Chromium lets it reach
 * the local API as a public site reaches a public one).
 */
const SITE = `http://127.0.0.1:${PORTS.web + 1}`;
let sitePage = '';
let site: Server | undefined;
test.beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(sitePage));
  await new Promise<void>((resolve) => site!.listen(PORTS.web + 1, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

for (const [theme, width] of [
  ['light', 1280],
  ['dark', 390],
] as const) {
  test(`a form pasted into another site passes the anti-robot check with the widget (${theme}, ${width} px)`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag().toLowerCase();
    const audience = await seedAudience(api, `Embedded ${tag}`, people(`member-${tag}`, 1));
    const formName = `Site news ${tag}`;
    const created = await api.post(`/api/audiences/${audience.id}/forms`, {
      name: formName,
      consentWording: 'I agree to the site news.',
      allowedOrigins: [SITE],
    });
    expect(created.status()).toBe(201);
    const { hostedUrl } = (await created.json()) as { hostedUrl: string };

    // The member copies the HTML with the check (the default).
    await page.goto(`/audiences/${audience.id}/forms`);
    await page.getByRole('button', { name: `HTML of ${formName}` }).click();
    await expect(page.getByRole('switch', { name: /^With the anti-robot check/ })).toBeChecked();
    await expect(page.getByText(`it must allow scripts from ${new URL(hostedUrl).origin} and workers from blob:`)).toBeVisible();
    await expectNoAxeViolations(page, `the forms screen with the widget's HTML (${theme})`);
    const snippet = await page.getByRole('textbox', { name: `HTML of ${formName}` }).inputValue();
    expect(snippet).toContain('<altcha-widget');

    // The visitor, on the organisation's site.
    sitePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our site</title></head><body><main><h1>Join us</h1>${snippet}</main></body></html>`;
    const violations = await collectCspViolations(page);
    await page.goto(`${SITE}/join`);
    await expect(page.locator('altcha-widget')).toBeAttached();
    await page.getByRole('textbox', { name: 'Email address' }).fill(`visitor-${tag}@example.org`);
    await page.getByRole('checkbox', { name: 'I agree to the site news.' }).check();
    const posted = page.waitForRequest((request) => request.method() === 'POST' && request.url() === hostedUrl);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const request = await posted;
    expect(new URLSearchParams(request.postData() ?? '').get('altcha'), 'the widget solved the challenge on the site').toMatch(
      /^[A-Za-z0-9+/=]{40,}$/,
    );
    expect(await request.headerValue('origin')).toBe(SITE);
    await expect(page.getByRole('heading', { name: 'Thank you', level: 1 })).toBeVisible();
    expect(violations, 'Content-Security-Policy violations').toEqual([]);

    // The member sees the sign-up apart from the contacts until it is confirmed.
    await page.goto(`/audiences/${audience.id}`);
    await expect(page.getByText('1 waiting for confirmation')).toBeVisible();
    await expect(page.getByText('1 contacts, 0 with errors')).toBeVisible();
    await expectNoAxeViolations(page, `the audience with a sign-up waiting (${theme})`);
  });
}
