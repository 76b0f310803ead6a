/**
 * Sign-up forms and double opt-in (issue 25), the whole path in Chromium, once at desktop width in the
 * light theme and once at 390 px in the dark one: a member makes a form on the audience's forms screen
 * and reads its HTML to paste; a person opens the hosted page (no Content-Security-Policy violation),
 * submits it while the widget solves the proof-of-work in the browser, reads the confirmation mail at the
 * local SES, opens the link (a page asking, which changes nothing), confirms, and the contact is in the
 * audience, its drawer showing the sign-up and the confirmation. A campaign then reaches the person, whose mail's
 * unsubscribe page leads to the preference centre, where they leave the audience: the drawer's history says so.
 * axe runs on the member's screen and on every public page.
 * Then the form pasted into the organisation's own site (another origin) with the widget: the check is solved
 * in the visitor's browser from the API's scripts, and the audience shows the sign-up waiting for confirmation.
 */
import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { contactsTable, signInWithApi } from './support/audiences';
import { collectCspViolations, expectNoAxeViolations } from './support/browser-checks';
import { people, seedAudience, uniqueTag } from './support/campaigns';
import { inbox, linksOf, mailTo, sendNewsletter } from './support/reports';
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

    // ...and how they came: the sign-up through the form and its confirmation, in the contact's drawer.
    const drawer = await openContact(page, joiner);
    const history = drawer.getByRole('list', { name: 'Consent history' }).getByRole('listitem');
    await expect(history).toHaveCount(2);
    await expect(history.nth(0)).toContainText(`Signed up via form ${formName}`);
    await expect(history.nth(1)).toContainText(`Confirmed via form ${formName}`);
    await expectNoAxeViolations(page, `the drawer of the person who joined (${theme})`);
    await page.keyboard.press('Escape');

    // A campaign reaches the person, whose mail leads to the preference centre, where they leave this audience.
    const publicName = `Tree news ${tag}`;
    expect((await api.patch(`/api/audiences/${audience.id}`, { publicName })).status()).toBe(200);
    const subject = `Tree campaign ${tag}`;
    await sendNewsletter(api, audience, subject);
    let campaignMail: ReturnType<typeof mailTo> | undefined;
    await expect
      .poll(async () => (campaignMail = (await inbox(page.request, subject)).find((m) => m.to === joiner)) !== undefined)
      .toBe(true);
    await page.goto(linksOf(campaignMail!).unsubscribe);
    await page.getByRole('link', { name: 'Manage your preferences' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your preferences' })).toBeVisible();
    await expectNoAxeViolations(page, `the preference centre of the person who joined (${theme})`);
    await page.getByRole('checkbox', { name: `Receive emails of ${publicName}` }).uncheck();
    await page.getByRole('button', { name: 'Save my preferences' }).click();
    await expect(page.getByText(`You will no longer receive ${publicName}.`)).toBeVisible();

    // The member reads it in the drawer: the person left this audience, and the ledger says so.
    await page.goto(`/audiences/${audience.id}`);
    const after = (await openContact(page, joiner)).getByRole('list', { name: 'Consent history' }).getByRole('listitem');
    await expect(after).toHaveCount(3);
    await expect(after.nth(2)).toContainText('Unsubscribed');
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
}

/** Opens the drawer of the contact `email` from its row (the button names the address, cut when long). */
async function openContact(page: Page, email: string) {
  await contactsTable(page)
    .getByRole('button', { name: email.length <= 30 ? email : `${email.slice(0, 29)}…`, exact: true })
    .click();
  const drawer = page.getByRole('dialog', { name: email });
  await expect(drawer.getByRole('heading', { name: 'Consent history' })).toBeVisible();
  return drawer;
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
