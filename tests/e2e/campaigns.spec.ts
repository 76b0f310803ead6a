/**
 * The campaigns screens (docs/product.md, Routes and screens: Campaigns list, Campaign editor; section 4: campaign
 * states; sections 5, 8 and 9), driven in Chromium against the whole stack: the API, the RabbitMQ
 * sending consumers, PostgreSQL, and the suite's local SES (support/local-ses.ts), whose inbox tells
 * what was really sent and to whom.
 *
 * Sending stops in ERROR the way it does in production when SES cannot be reached: the test takes
 * the local SES down, the worker retries each mail and then stops the campaign with the reason; with
 * SES back, 'Continue sending' sends the rest. Nothing in the product is told it is under test.
 *
 * The first test expects the suite's fresh database to hold no campaign yet (no spec before this one
 * makes any); every other test names its campaigns, audiences, templates and addresses uniquely.
 */
import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import { areaTitle, browserDateTime, signInWithApi, toast, uniqueName, type MemberApi } from './support/audiences';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations, expectNoOverlappingCells } from './support/browser-checks';
import {
  authorizedSenders,
  campaignRow,
  campaignsTable,
  editorSection,
  errorDialog,
  expectSection,
  greetingOf,
  listOf,
  openRowMenu,
  openSection,
  people,
  pick,
  readCampaign,
  seedAudience,
  seedCampaign,
  seedTemplate,
  uniqueTag,
  waitForStatus,
  type Person,
  type SectionTitle,
} from './support/campaigns';
import { clearSesInbox, mailsTo, startLocalSes, stopLocalSes, type SesMail } from './support/local-ses';
import { readState, writeState } from './support/stack';

const SECTIONS: SectionTitle[] = ['To', 'From', 'Subject', 'Content'];
const SENDER_NAME = 'Mailroom E2E';
const SUBJECT = 'News for {{firstName}}';
const PREVIEW_TEXT = 'Hello {{firstName}} in {{city}}';

const pathOf = (url: string) => new URL(url).pathname;
const isCall = (method: string, path: string) => (request: Request) => request.method() === method && pathOf(request.url()) === path;

/** The Campaign name box of the editor. */
const nameBox = (page: Page) => page.getByRole('textbox', { name: 'Campaign name' });

/** A campaign ready to send: an audience of `recipients` (plus `invalid` addresses), the newsletter template, every field filled. */
async function readyCampaign(api: MemberApi, label: string, recipients: Person[], invalid: string[] = []) {
  const name = uniqueName(label);
  const audience = await seedAudience(api, `${name} audience`, recipients, { invalid });
  const templateId = await seedTemplate(api, `${name} template`);
  const [sender] = await authorizedSenders(api);
  const id = await seedCampaign(api, name, {
    audienceId: audience.id,
    templateId,
    fromName: SENDER_NAME,
    fromEmail: sender!,
    subject: SUBJECT,
    previewText: PREVIEW_TEXT,
  });
  return { id, name, audience, templateId, sender: sender! };
}

/** In the open 'Send campaign' confirmation: its text, then Send now; lands on /campaigns with a toast. */
async function confirmSend(page: Page, campaign: { id: number; name: string }, text: string): Promise<void> {
  const confirm = page.getByRole('alertdialog', { name: 'Send campaign' });
  await expect(confirm).toContainText(text);
  const sent = page.waitForResponse((response) => isCall('POST', `/api/campaigns/${campaign.id}/send`)(response.request()));
  await confirm.getByRole('button', { name: 'Send now' }).click();
  expect((await sent).status()).toBe(202);
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(toast(page, `Campaign ${campaign.name} is being sent`)).toBeVisible();
}

/** Waits until the local SES holds one mail for each of `recipients` and returns them by address. */
async function expectOneMailEach(recipients: readonly string[]): Promise<Map<string, SesMail>> {
  await expect.poll(async () => (await mailsTo(recipients)).length, { timeout: 30_000 }).toBe(recipients.length);
  const mails = await mailsTo(recipients);
  const byAddress = new Map(mails.map((mail) => [mail.destination.to[0]!.toLowerCase(), mail]));
  expect([...byAddress.keys()].sort(), 'each recipient got exactly one mail').toEqual(recipients.map((r) => r.toLowerCase()).sort());
  return byAddress;
}

/** A person's copy of the newsletter: their own subject, greeting and address, from the campaign's sender. */
function expectPersonalCopy(mail: SesMail, person: Person, sender: string): void {
  expect(mail.from).toBe(`"${SENDER_NAME}" <${sender}>`);
  expect(mail.subject).toBe(`News for ${person.firstName}`);
  expect(mail.body.html).toContain(greetingOf(person));
  expect(mail.body.html).toContain(`This copy was made for ${person.email}.`);
  expect(mail.body.text).toContain(greetingOf(person));
}

/** The row's status cell (the second column). */
const statusCell = (row: Locator) => row.getByRole('cell').nth(1);

/** The computed colour of an element's CSS property as [r, g, b]. */
async function colourOf(locator: Locator, property: 'backgroundColor' | 'borderTopColor'): Promise<number[]> {
  const value = await locator.evaluate((element, name) => getComputedStyle(element)[name], property);
  return (value.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
}

test.afterAll(async () => {
  // Leave the local SES as the later specs expect it: running, its 24-hour count at nothing sent.
  const state = readState();
  if (!state.sesPid) writeState({ ...state, sesPid: await startLocalSes() });
  await clearSesInbox();
});

test.describe('Campaigns list', () => {
  test("starts empty; Create Campaign makes 'My Campaign' and opens it in the editor", async ({ page }) => {
    await signInAsMember(page);
    await page.goto('/campaigns');
    await expect(areaTitle(page, 'Campaigns')).toBeVisible();
    const empty = page.getByRole('main').getByRole('status').filter({ hasText: 'No campaigns yet' });
    await expect(empty).toContainText('Create a campaign to send a template to an audience.');
    await expect(campaignsTable(page)).toHaveCount(0);
    await expectNoAxeViolations(page, 'the empty campaigns list');

    const created = page.waitForResponse((response) => isCall('POST', '/api/campaigns')(response.request()));
    await page.getByRole('button', { name: 'Create Campaign' }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toEqual({ name: 'My Campaign' });
    const { id } = (await response.json()) as { id: number };
    await expect(page).toHaveURL(new RegExp(`/campaigns/edit/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Draft Email' })).toBeVisible();
    await expect(page.getByRole('main').getByText('Draft', { exact: true })).toBeVisible();
    await expect(nameBox(page)).toHaveValue('My Campaign');
    for (const title of SECTIONS) await expectSection(page, title, 'not done');

    await page.goto('/campaigns');
    const row = campaignRow(page, 'My Campaign');
    await expect(row).toHaveCount(1);
    await expect(statusCell(row)).toHaveText('Draft');
    await expect(row.getByRole('link', { name: 'My Campaign', exact: true })).toHaveAttribute('href', `/campaigns/edit/${id}`);
  });

  test('searches by name (Enter and the Search button), pages through the query string, and shows each row', async ({ page }) => {
    const api = await signInWithApi(page);
    const tag = uniqueName('Paged');
    const audienceId = await api.createAudience(`${tag} readers`);
    const ids: number[] = [];
    // Oldest first: the list shows the most recently edited first.
    for (let n = 1; n <= 7; n++) ids.push(await seedCampaign(api, `${tag} ${n}`, n === 7 ? { audienceId } : undefined));
    const other = uniqueName('Unrelated');
    await seedCampaign(api, other);

    await page.goto('/campaigns?limit=3');
    const search = page.getByRole('searchbox', { name: 'Search by name' });
    await search.fill(tag);
    await search.press('Enter');
    await expect.poll(() => Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ limit: '3', page: '1', name: tag });
    await expect(page.getByText('1–3 of 7')).toBeVisible();
    await expect(campaignsTable(page).locator('tbody tr')).toHaveCount(3);
    await expect(campaignsTable(page).getByRole('columnheader')).toHaveText(['Name', 'Status', 'Open rate', 'Click Rate', 'Actions']);

    // The newest row: its name leads to the editor, 'To:' to the audience, the last edit, both rates, Edit.
    const newest = campaignRow(page, `${tag} 7`);
    await expect(newest.getByRole('link', { name: `${tag} 7`, exact: true })).toHaveAttribute('href', `/campaigns/edit/${ids[6]}`);
    await expect(newest).toContainText(`To: ${tag} readers`);
    await expect(newest.getByRole('link', { name: `${tag} readers` })).toHaveAttribute('href', `/audiences/${audienceId}`);
    const stored = await readCampaign(api, ids[6]!);
    await expect(newest).toContainText(`Last edited: on ${await browserDateTime(page, stored.updatedAt)} by mia@example.org`);
    await expect(statusCell(newest)).toHaveText('Draft');
    // The spec's rate and count, and under them the rate by people (an addition: README, people and machines).
    await expect(newest.getByRole('cell').nth(2)).toHaveText('0.0%0 opens0.0% by people');
    await expect(newest.getByRole('cell').nth(3)).toHaveText('0.0%0 clicks0.0% by people');
    await expect(newest.getByRole('link', { name: `Edit ${tag} 7` })).toHaveAttribute('href', `/campaigns/edit/${ids[6]}`);
    await expect(campaignRow(page, `${tag} 6`)).not.toContainText('To:');
    await expectNoAxeViolations(page, 'the campaigns list');

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('4–6 of 7')).toBeVisible();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await page.getByRole('button', { name: 'Last page' }).click();
    await expect(page.getByText('7–7 of 7')).toBeVisible();
    await expect(campaignRow(page, `${tag} 1`)).toBeVisible();

    // Straight from the URL; a page size resets to page 1.
    await page.goto(`/campaigns?page=2&limit=3&name=${encodeURIComponent(tag)}`);
    await expect(page.getByText('4–6 of 7')).toBeVisible();
    await expect(search).toHaveValue(tag);
    const sizes = page.getByRole('group', { name: 'Campaigns pagination' }).getByRole('combobox', { name: 'Rows per page' });
    await sizes.selectOption('5');
    await expect(page.getByText('1–5 of 7')).toBeVisible();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ page: '1', limit: '5' });

    // The Search button, and a search that matches nothing.
    await search.fill(other);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(campaignRow(page, other)).toBeVisible();
    await expect(campaignsTable(page).locator('tbody tr')).toHaveCount(1);
    await search.fill(`${tag} none`);
    await search.press('Enter');
    await expect(
      page
        .getByRole('main')
        .getByRole('status')
        .filter({ hasText: `No campaigns match “${tag} none”` }),
    ).toBeVisible();
  });

  test('Rename, Replicate and Delete from the row menu, with their dialogs and toasts', async ({ page }) => {
    const api = await signInWithApi(page);
    const [sender] = await authorizedSenders(api);
    const name = uniqueName('Menu');
    const id = await seedCampaign(api, name, { subject: 'Kept subject', fromName: SENDER_NAME, fromEmail: sender! });
    await page.goto(listOf(name));
    await openRowMenu(page, name);
    await expect(page.getByRole('menuitem')).toHaveText(['Rename', 'Replicate', 'Delete']);

    // Rename: blank refused, then saved (the name only) with a toast.
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename campaign' });
    const input = rename.getByRole('textbox', { name: 'New name' });
    await expect(input).toHaveValue(name);
    await input.fill('   ');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(rename).toContainText('Fill your campaign name');
    await expectNoAxeViolations(page, 'the rename dialog');
    const renamed = `${name} renamed`;
    await input.fill(` ${renamed} `);
    await input.press('Enter');
    await expect(toast(page, 'Successfully renamed campaign')).toBeVisible();
    await expect(rename).toBeHidden();
    expect(await readCampaign(api, id)).toMatchObject({ name: renamed, subject: 'Kept subject', fromName: SENDER_NAME });
    await page.goto(listOf(renamed));
    await expect(campaignRow(page, renamed)).toBeVisible();

    // Replicate: a draft copy with the same content, opened in the editor.
    await openRowMenu(page, renamed);
    await page.getByRole('menuitem', { name: 'Replicate' }).click();
    await expect(toast(page, `Successfully replicated campaign ${renamed}`)).toBeVisible();
    await expect(page).toHaveURL(/\/campaigns\/edit\/\d+$/);
    const copyId = Number(pathOf(page.url()).split('/').at(-1));
    expect(copyId).not.toBe(id);
    await expect(nameBox(page)).toHaveValue(`${renamed} (copy)`);
    expect(await readCampaign(api, copyId)).toMatchObject({
      name: `${renamed} (copy)`,
      status: 'DRAFT',
      subject: 'Kept subject',
      fromName: SENDER_NAME,
      fromEmail: sender,
    });

    // Delete: Cancel keeps it, Go ahead deletes it; the copy stays.
    await page.goto(listOf(renamed));
    await openRowMenu(page, renamed);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Deletion confirmation' });
    await expect(confirm).toContainText('Are you sure to delete the following campaign?');
    await expect(confirm).toContainText(renamed);
    await expectNoAxeViolations(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect((await api.get(`/api/campaigns/${id}`)).status()).toBe(200);

    await openRowMenu(page, renamed);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Go ahead' }).click();
    await expect(toast(page, `Successfully delete campaign ${renamed}`)).toBeVisible();
    await expect(campaignRow(page, renamed)).toHaveCount(0);
    await expect(campaignRow(page, `${renamed} (copy)`)).toBeVisible();
    expect((await api.get(`/api/campaigns/${id}`)).status()).toBe(404);
  });

  test('the keyboard reaches the search, Create Campaign, Edit and every row action, then the editor', async ({ page }) => {
    const api = await signInWithApi(page);
    const name = uniqueName('Keys');
    const id = await seedCampaign(api, name);
    await page.goto(listOf(name));
    await expect(campaignRow(page, name)).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search by name' }).focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeFocused();
    await page.getByRole('button', { name: 'Create Campaign' }).focus();
    await expect(page.getByRole('button', { name: 'Create Campaign' })).toBeFocused();

    // Name link, Edit and the menu, in that order, by Tab.
    await campaignRow(page, name).getByRole('link', { name, exact: true }).focus();
    await page.keyboard.press('Tab');
    const edit = page.getByRole('link', { name: `Edit ${name}` });
    await expect(edit).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: `More actions for ${name}` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Replicate' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alertdialog', { name: 'Deletion confirmation' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog', { name: 'Deletion confirmation' })).toBeHidden();
    expect((await api.get(`/api/campaigns/${id}`)).status()).toBe(200);

    await edit.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/campaigns/edit/${id}$`));

    // The editor: Finish later, Schedule, Send, the name, Send test email, Preview Campaign, then the sections.
    await page.getByRole('button', { name: 'Finish later' }).focus();
    await page.keyboard.press('Tab');
    // Schedule (an addition to the spec) sits beside Send.
    await expect(page.getByRole('button', { name: 'Schedule', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(nameBox(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send test email' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Preview Campaign' })).toBeFocused();
    await page.keyboard.press('Tab');
    const toHeader = editorSection(page, 'To').getByRole('button');
    await expect(toHeader).toBeFocused();
    await expect(toHeader).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Choose audience' })).toBeFocused();
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'Choose an audience' });
    await expect(picker).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    // Enter on a section header folds it.
    await toHeader.focus();
    await page.keyboard.press('Enter');
    await expect(toHeader).toHaveAttribute('aria-expanded', 'false');
  });

  test('works at 390 px wide in the dark theme: the list and the editor', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
    await page.setViewportSize({ width: 390, height: 844 });
    const api = await signInWithApi(page);
    const name = uniqueName('Narrow');
    const id = await seedCampaign(api, name);
    await page.goto(listOf(name));
    const row = campaignRow(page, name);
    await expect(row).toBeVisible();
    for (const control of [
      page.getByRole('button', { name: 'Create Campaign' }),
      page.getByRole('searchbox', { name: 'Search by name' }),
    ]) {
      await expect(control).toBeInViewport();
    }
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow(), 'no horizontal scrolling of the list page').toBeLessThanOrEqual(0);
    await expectNoOverlappingCells(campaignsTable(page));
    await expectNoAxeViolations(page, 'the campaigns list, narrow and dark');

    await page.goto(`/campaigns/edit/${id}`);
    await expect(page.getByRole('button', { name: 'Send test email' })).toBeVisible();
    expect(await overflow(), 'no horizontal scrolling of the editor').toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, 'the campaign editor, narrow and dark');
  });
});

test.describe('Campaign editor', () => {
  test('builds a campaign through every section with the pickers, and Finish later saves it', async ({ page }) => {
    const api = await signInWithApi(page);
    const name = uniqueName('Built');
    const audience = await seedAudience(api, `${name} audience`, people(uniqueTag(), 3));
    const templateName = `${name} template`;
    const templateId = await seedTemplate(api, templateName);
    const senders = await authorizedSenders(api);
    const id = await seedCampaign(api, `${name} draft`);
    await page.goto(`/campaigns/edit/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Draft Email' })).toBeVisible();
    for (const title of SECTIONS) await expectSection(page, title, 'not done');
    await expectNoAxeViolations(page, 'the campaign editor');

    await nameBox(page).fill(name);

    // To: the audience picker starts at page 1 with 10 per page.
    const firstPage = page.waitForRequest((request) => isCall('GET', '/api/audiences')(request));
    await page.getByRole('button', { name: 'Choose audience' }).click();
    expect(new URL((await firstPage).url()).search).toBe('?page=1&limit=10');
    const audiencePicker = page.getByRole('dialog', { name: 'Choose an audience' });
    await expect(audiencePicker.getByRole('table', { name: 'Audiences' })).toBeVisible();
    await expectNoAxeViolations(page, 'the audience picker');
    await pick(page, 'Choose an audience', audience.name);
    await expectSection(page, 'To', 'done');
    await expect(page.getByRole('main').getByRole('link', { name: audience.name })).toHaveAttribute('href', `/audiences/${audience.id}`);

    // From: a name, and an address among the authorized ones.
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(SENDER_NAME);
    await expectSection(page, 'From', 'not done');
    const email = page.getByRole('combobox', { name: 'Email' });
    await expect(email).toBeEnabled();
    await expect(email.locator('option')).toHaveText(['Choose an address', ...senders]);
    await email.selectOption(senders[0]!);
    await expectSection(page, 'From', 'done');

    // Subject: the subject and the preview text.
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill(SUBJECT);
    await page.getByRole('textbox', { name: 'Preview text' }).fill(PREVIEW_TEXT);
    await expectSection(page, 'Subject', 'done');

    // Content: the template picker, which does not lead to the template editor.
    await page.getByRole('button', { name: 'Choose template' }).click();
    const templatePicker = page.getByRole('dialog', { name: 'Choose a template' });
    await expect(templatePicker.getByRole('table', { name: 'Templates' })).toBeVisible();
    await expect(templatePicker.getByRole('link')).toHaveCount(0);
    await pick(page, 'Choose a template', templateName);
    await expectSection(page, 'Content', 'done');
    await expect(page.getByRole('main').getByText(`Template: ${templateName}`)).toBeVisible();
    await expectNoAxeViolations(page, 'the completed campaign editor');

    const saved = page.waitForRequest(isCall('PUT', `/api/campaigns/${id}`));
    await page.getByRole('button', { name: 'Finish later' }).click();
    expect((await saved).postDataJSON()).toEqual({
      name,
      audienceId: audience.id,
      audienceName: audience.name,
      fromName: SENDER_NAME,
      fromEmail: senders[0],
      subject: SUBJECT,
      previewText: PREVIEW_TEXT,
      templateId,
      // The whole audience: no segment was chosen (issue 26).
      segmentId: null,
    });
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(campaignRow(page, name)).toContainText(`To: ${audience.name}`);
    expect(await readCampaign(api, id)).toMatchObject({
      name,
      status: 'DRAFT',
      audienceId: audience.id,
      templateId,
      fromName: SENDER_NAME,
      fromEmail: senders[0],
      subject: SUBJECT,
      previewText: PREVIEW_TEXT,
    });

    // Opened again, it holds what was saved, every section done.
    await page.goto(`/campaigns/edit/${id}`);
    await expect(nameBox(page)).toHaveValue(name);
    for (const title of SECTIONS) await expectSection(page, title, 'done');
    await openSection(page, 'Subject');
    await expect(page.getByRole('textbox', { name: 'Preview text' })).toHaveValue(PREVIEW_TEXT);
  });

  test("Send saves, then stops at each pre-send check in the spec's order", async ({ page }) => {
    const api = await signInWithApi(page);
    const name = uniqueName('Checks');
    const audience = await seedAudience(api, `${name} audience`, people(uniqueTag(), 2));
    const templateName = `${name} template`;
    await seedTemplate(api, templateName);
    const id = await seedCampaign(api, name);
    const sendCalls: Request[] = [];
    page.on('request', (request) => isCall('POST', `/api/campaigns/${id}/send`)(request) && sendCalls.push(request));
    await page.goto(`/campaigns/edit/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Draft Email' })).toBeVisible();

    /** Send: the draft is saved, then the Error dialog shows `message`; OK closes it. Returns what was saved. */
    const sendStopsAt = async (message: string, axe = false) => {
      const saved = page.waitForRequest(isCall('PUT', `/api/campaigns/${id}`));
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const body = (await saved).postDataJSON() as Record<string, unknown>;
      const dialog = errorDialog(page);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByText(/^Please/)).toHaveText(message);
      if (axe) await expectNoAxeViolations(page, 'the pre-send Error dialog');
      await dialog.getByRole('button', { name: 'OK' }).click();
      await expect(dialog).toBeHidden();
      return body;
    };

    await sendStopsAt('Please select an audience', true);
    await page.getByRole('button', { name: 'Choose audience' }).click();
    await pick(page, 'Choose an audience', audience.name);
    expect(await sendStopsAt('Please select a template')).toMatchObject({ audienceId: audience.id, templateId: null });

    await page.getByRole('button', { name: 'Choose template' }).click();
    await pick(page, 'Choose a template', templateName);
    await sendStopsAt('Please input email subject');

    // Blank after trimming is no subject.
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('   ');
    await sendStopsAt('Please input email subject');
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill(SUBJECT);
    expect(await sendStopsAt("Please input name for who's sending this campaign")).toMatchObject({ subject: SUBJECT });

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(SENDER_NAME);
    await sendStopsAt("Please input email for who's sending this campaign");

    // Every check passes: the confirmation opens instead; cancelled, nothing is sent.
    const [sender] = await authorizedSenders(api);
    await page.getByRole('combobox', { name: 'Email' }).selectOption(sender!);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Send campaign' });
    await expect(confirm).toContainText(`This campaign will be sent to 2 contacts of “${audience.name}”. Send it now?`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect(sendCalls).toHaveLength(0);
    expect((await readCampaign(api, id)).status).toBe('DRAFT');
  });

  test('Preview renders the email per contact in a sandboxed frame, pages the contacts and lists missing fields', async ({ page }) => {
    const api = await signInWithApi(page);
    const everyone = people(uniqueTag(), 12);
    // Two contacts have no first name: a missing field for them.
    everyone[3]!.firstName = '';
    everyone[7]!.firstName = '';
    const campaign = await readyCampaign(api, 'Preview', everyone, ['not-an-address']);
    await page.goto(`/campaigns/edit/${campaign.id}`);
    await page.getByRole('button', { name: 'Preview Campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview Campaign' });
    await expect(dialog).toBeVisible();
    // Full screen, once the dialog has finished opening (its surface grows into place).
    await expect.poll(async () => (await dialog.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(1270);

    // The first valid contact's copy, in a frame sandboxed without scripts.
    const [ada, , cleo, dev] = everyone as [Person, Person, Person, Person];
    const frame = dialog.locator('iframe');
    await expect(frame).toHaveAttribute('title', `Email as ${ada.email} receives it`);
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(frame).toHaveAttribute('srcdoc', new RegExp(`${greetingOf(ada)}[\\s\\S]*This copy was made for ${ada.email}\\.`));
    await expect(page.frameLocator(`iframe[title="Email as ${ada.email} receives it"]`).getByText(greetingOf(ada))).toBeVisible();
    await expect(dialog.locator('dd')).toHaveText([
      `News for ${ada.firstName}`,
      `Hello ${ada.firstName} in ${ada.city}`,
      campaign.audience.name,
      ada.email,
    ]);

    // The valid contacts (not the invalid one), 10 per page to start with; 5, 10, 25 or 50.
    const contacts = dialog.getByRole('table', { name: 'Contacts', exact: true });
    const pager = dialog.getByRole('group', { name: 'Contacts pagination' });
    await expect(contacts.locator('tbody tr')).toHaveCount(10);
    await expect(pager.getByText('1–10 of 12')).toBeVisible();
    await expect(contacts).not.toContainText('not-an-address');
    const sizes = pager.getByRole('combobox', { name: 'Rows per page' });
    await expect(sizes).toHaveValue('10');
    await expect(sizes.locator('option')).toHaveText(['5', '10', '25', '50']);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect(pager.getByText('11–12 of 12')).toBeVisible();
    await expect(contacts.locator('tbody tr')).toHaveCount(2);
    await sizes.selectOption('5');
    await expect(pager.getByText('1–5 of 12')).toBeVisible();
    await expect(contacts.locator('tbody tr')).toHaveCount(5);
    await sizes.selectOption('25');
    await expect(pager.getByText('1–12 of 12')).toBeVisible();
    await expect(contacts.locator('tbody tr')).toHaveCount(12);
    await sizes.selectOption('50');
    await expect(sizes).toHaveValue('50');
    await expect(contacts.locator('tbody tr')).toHaveCount(12);

    // Another contact's copy, then one whose first name is missing: its tag renders empty.
    await contacts.getByRole('button', { name: `Preview for ${cleo.email}` }).click();
    await expect(frame).toHaveAttribute('title', `Email as ${cleo.email} receives it`);
    await expect(frame).toHaveAttribute('srcdoc', new RegExp(greetingOf(cleo)));
    await expect(contacts.getByRole('button', { name: `Preview for ${cleo.email}` })).toHaveAttribute('aria-pressed', 'true');
    await expect(dialog.locator('dd').first()).toHaveText(`News for ${cleo.firstName}`);
    await contacts.getByRole('button', { name: `Preview for ${dev.email}` }).click();
    await expect(frame).toHaveAttribute('title', `Email as ${dev.email} receives it`);
    await expect(frame).toHaveAttribute('srcdoc', new RegExp(`Dear  of ${dev.city},`));

    // The banner and the table of contacts with missing fields.
    await expect(dialog.getByText('Missing fields', { exact: true })).toBeVisible();
    await expect(dialog.getByText('2 contacts lack fields this email uses; those fields will be empty in their copies.')).toBeVisible();
    const missing = dialog.getByRole('table', { name: 'Contacts with missing fields' });
    await expect(missing.getByRole('columnheader')).toHaveText(['Email', 'Missing Fields']);
    await expect(missing.locator('tbody tr')).toHaveText([`${everyone[3]!.email}firstName`, `${everyone[7]!.email}firstName`]);
    // The email itself is the template's html, in a frame whose sandbox forbids scripts (axe among them):
    // it is checked above for its title and sandbox, and left out here.
    await expectNoAxeViolations(page, 'the campaign preview', { exclude: ['iframe[sandbox=""]'] });

    // The template's script ran nowhere in the app.
    expect(await page.evaluate(() => (window as { templateScriptRan?: boolean }).templateScriptRan)).toBeUndefined();
    await dialog.getByRole('button', { name: 'Close preview' }).click();
    await expect(dialog).toBeHidden();
  });

  test('Send test email takes comma-separated addresses, refuses bad ones, and the test arrives in the local SES', async ({ page }) => {
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const recipients = people(tag, 3);
    const campaign = await readyCampaign(api, 'Test email', recipients);
    await page.goto(`/campaigns/edit/${campaign.id}`);
    await expect(nameBox(page)).toHaveValue(campaign.name);
    // The test carries what the editor holds, saved or not.
    await openSection(page, 'Subject');
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Tested for {{firstName}}');

    await page.getByRole('button', { name: 'Send test email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send test email' });
    const addresses = dialog.getByRole('textbox', { name: /Email addresses/ });
    await expect(addresses).toBeFocused();
    await expectNoAxeViolations(page, 'the test email dialog');
    const testCalls: Request[] = [];
    page.on('request', (request) => isCall('POST', '/api/campaigns/send-test-email')(request) && testCalls.push(request));

    await addresses.fill(' , ');
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await expect(dialog).toContainText('Enter at least one email address');
    await addresses.fill(`${tag}-tester@example.org, not-an-address`);
    await addresses.press('Enter');
    await expect(dialog).toContainText('Not an email address: not-an-address');
    await expect(addresses).toHaveAttribute('aria-invalid', 'true');
    expect(testCalls).toHaveLength(0);

    const first = `${tag}-tester@example.org`;
    const second = `${tag}-reviewer@example.org`;
    await addresses.fill(` ${first},${second} , ,${first}`);
    const answered = page.waitForResponse((response) => isCall('POST', '/api/campaigns/send-test-email')(response.request()));
    await dialog.getByRole('button', { name: 'Send test' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toMatchObject({
      emails: [first, second],
      subject: 'Tested for {{firstName}}',
      templateId: campaign.templateId,
      audienceId: campaign.audience.id,
    });
    await expect(toast(page, `Test email sent to ${first}, ${second}`)).toBeVisible();
    await expect(dialog).toBeHidden();

    // Both arrived, filled from the audience's first valid contact, marked as a test, untracked.
    const mails = await expectOneMailEach([first, second]);
    for (const mail of mails.values()) {
      expect(mail.from).toBe(`"${SENDER_NAME}" <${campaign.sender}>`);
      expect(mail.subject).toBe(`[Test] Tested for ${recipients[0]!.firstName}`);
      expect(mail.body.html).toContain(greetingOf(recipients[0]!));
      expect(mail.body.html).toContain(`This copy was made for ${recipients[0]!.email}.`);
      expect(mail.body.html).not.toContain('/t/o/');
    }
    // Nothing went to the audience, and the campaign is untouched.
    expect(await mailsTo(recipients.map((p) => p.email))).toHaveLength(0);
    expect(await readCampaign(api, campaign.id)).toMatchObject({ status: 'DRAFT', subject: SUBJECT });
  });

  test('Send warns about invalid contacts, confirms the valid count, and every valid contact gets their own copy', async ({ page }) => {
    const api = await signInWithApi(page);
    const recipients = people(uniqueTag(), 4);
    const campaign = await readyCampaign(api, 'Sent', recipients, ['broken-address']);
    expect(campaign.audience).toMatchObject({ numberOfContacts: 5, numberOfContactsWithErrors: 1 });
    await page.goto(`/campaigns/edit/${campaign.id}`);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const warning = page.getByRole('alertdialog', { name: 'Invalid contacts' });
    await expect(warning).toContainText(`The audience “${campaign.audience.name}” has 1 invalid contact. It will be skipped`);
    await expectNoAxeViolations(page, 'the invalid contacts warning');
    await warning.getByRole('button', { name: 'Proceed with Valid Contacts' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Send campaign' })).toBeVisible();
    await expectNoAxeViolations(page, 'the send confirmation');
    // numberOfContacts (5) minus numberOfContactsWithErrors (1).
    await confirmSend(page, campaign, `This campaign will be sent to 4 contacts of “${campaign.audience.name}”. Send it now?`);

    const mails = await expectOneMailEach(recipients.map((p) => p.email));
    for (const person of recipients) expectPersonalCopy(mails.get(person.email)!, person, campaign.sender);
    expect(await mailsTo(['broken-address'])).toHaveLength(0);

    // The list: a green Sent chip, the report link, the sent date and the recipients.
    const sent = await waitForStatus(api, campaign.id, 'SENT');
    await page.goto(listOf(campaign.name));
    const row = campaignRow(page, campaign.name);
    const chip = statusCell(row).getByText('Sent', { exact: true });
    await expect(chip).toBeVisible();
    const [red, green, blue] = await colourOf(chip, 'backgroundColor');
    expect(green, 'the Sent chip is green').toBeGreaterThan(Math.max(red!, blue!) + 40);
    await expect(row.getByRole('link', { name: campaign.name, exact: true })).toHaveAttribute('href', `/campaigns/reports/${campaign.id}`);
    await expect(row.getByRole('link', { name: `View report of ${campaign.name}` })).toHaveAttribute(
      'href',
      `/campaigns/reports/${campaign.id}`,
    );
    await expect(row).toContainText(await browserDateTime(page, sent.deliveryDate!));
    await expect(row).toContainText('4 / 4 recipients (0 failed)');
    await expectNoAxeViolations(page, 'the campaigns list with a sent campaign');

    // A sent campaign is no longer edited.
    await page.goto(`/campaigns/edit/${campaign.id}`);
    await expect(page.getByText(/This campaign is sent and can no longer be edited/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  });

  test('with SES unreachable the campaign shows Sending, stops in ERROR with the reason, and Continue sending sends it', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const api = await signInWithApi(page);
    const recipients = people(uniqueTag(), 3);
    const campaign = await readyCampaign(api, 'Stopped', recipients);
    await page.goto(`/campaigns/edit/${campaign.id}`);
    await expect(nameBox(page)).toHaveValue(campaign.name);

    const state = readState();
    expect(state.sesPid, 'the local SES runs').toBeTruthy();
    await stopLocalSes(state.sesPid!);
    writeState({ ...state, sesPid: null });
    try {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await confirmSend(page, campaign, `This campaign will be sent to 3 contacts of “${campaign.audience.name}”.`);

      // While the worker retries, the list shows the campaign sending, with its progress; it cannot be deleted.
      await page.goto(listOf(campaign.name));
      const sending = campaignRow(page, campaign.name);
      await expect(statusCell(sending).getByText('Sending', { exact: true })).toBeVisible();
      await expect(statusCell(sending).getByRole('progressbar', { name: `${campaign.name}: 0% sent` })).toBeVisible();
      await openRowMenu(page, campaign.name);
      await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
      await page.keyboard.press('Escape');

      // Then it stops in ERROR (the list reads itself again every 5 s while a campaign sends).
      const chip = statusCell(sending).getByText('Error', { exact: true });
      await expect(chip).toBeVisible({ timeout: 60_000 });
      const stopped = await readCampaign(api, campaign.id);
      expect(stopped).toMatchObject({ status: 'ERROR', jobsSent: 0 });
      expect(stopped.errorMessage).toBe('Amazon SES could not be reached (ECONNREFUSED)');
      const [red, green] = await colourOf(chip, 'borderTopColor');
      expect(red, 'the Error chip is outlined in red').toBeGreaterThan(green! + 60);
      // Its tooltip is the reason; the keyboard reaches it (Tab from the audience link before it).
      await sending.getByRole('link', { name: campaign.audience.name }).focus();
      await page.keyboard.press('Tab');
      await expect(statusCell(sending).locator('[tabindex="0"]')).toBeFocused();
      await expect(page.getByRole('tooltip')).toHaveText(stopped.errorMessage!);
      await page.keyboard.press('Tab');
      await expect(sending.getByRole('button', { name: `Continue sending ${campaign.name}` })).toBeFocused();
      await expectNoAxeViolations(page, 'the campaigns list with a campaign in error');
    } finally {
      const now = readState();
      if (!now.sesPid) writeState({ ...now, sesPid: await startLocalSes() });
    }
    expect(await mailsTo(recipients.map((p) => p.email))).toHaveLength(0);

    // Continue sending asks first; Cancel sends nothing.
    const row = campaignRow(page, campaign.name);
    const continueButton = row.getByRole('button', { name: `Continue sending ${campaign.name}` });
    await expect(continueButton).toHaveText('Continue sending');
    await continueButton.click();
    const dialog = page.getByRole('alertdialog', { name: 'Continue Campaign' });
    await expect(dialog).toContainText('Are you sure you want to continue sending emails for this campaign?');
    await expect(dialog).toContainText("This will attempt to send emails to contacts that haven't been sent to yet.");
    await expectNoAxeViolations(page, 'the continue dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await readCampaign(api, campaign.id)).status).toBe('ERROR');

    // Confirmed: the button stays disabled while the request is in flight (held here until checked).
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    const continuePath = `/api/campaigns/${campaign.id}/continue`;
    await page.route(`**${continuePath}`, async (route) => {
      await held;
      await route.continue();
    });
    const requested = page.waitForRequest(isCall('POST', continuePath));
    await continueButton.click();
    await dialog.getByRole('button', { name: 'Continue Sending' }).click();
    await requested;
    await expect(continueButton).toBeDisabled();
    const answered = page.waitForResponse((response) => isCall('POST', continuePath)(response.request()));
    release();
    expect((await answered).status()).toBe(202);
    await expect(toast(page, 'Campaign will continue sending to remaining contacts.')).toBeVisible();

    // Every contact gets their copy once, and the list shows it Sent.
    const mails = await expectOneMailEach(recipients.map((p) => p.email));
    for (const person of recipients) expectPersonalCopy(mails.get(person.email)!, person, campaign.sender);
    await expect(statusCell(row).getByText('Sent', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(row.getByRole('button', { name: `Continue sending ${campaign.name}` })).toHaveCount(0);
    await expect(row).toContainText('3 / 3 recipients (0 failed)');
  });

  test("an unknown campaign shows 'No Campaign Found!' with a way back to the list", async ({ page }) => {
    await signInAsMember(page);
    await page.goto('/campaigns/edit/999999999');
    await expect(page.getByRole('heading', { level: 1, name: 'No Campaign Found!' })).toBeVisible();
    await expectNoAxeViolations(page, 'the campaign not-found page');
    await page.getByRole('link', { name: 'Back to Campaigns' }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(areaTitle(page, 'Campaigns')).toBeVisible();
  });
});
