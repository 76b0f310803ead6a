/**
 * The audiences screens (docs/product.md, Routes and screens: Audiences list, Audience detail, Import contacts wizard;
 * sections 4, 5, 8, 9), driven in Chromium against the whole stack: the real API, the RabbitMQ
 * import and delete consumers, PostgreSQL. Contact files are generated per test in its output folder.
 *
 * The first test expects the suite's fresh database to hold no audience yet (this file runs first;
 * the specs that create audiences too come after it); every other test names its audiences uniquely.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page, type Request } from '@playwright/test';
import {
  IMPORT_STARTED,
  IMPORTING_BANNER,
  areaTitle,
  audienceRow,
  browserDateTime,
  audiencesTable,
  contactsTable,
  createAudienceThroughDialog,
  expectImportAccepted,
  openImportWizard,
  parseCsv,
  pasteThroughWizard,
  signInWithApi,
  toast,
  uniqueName,
  uploadThroughWizard,
  writeFixture,
} from './support/audiences';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations, expectNoOverlappingCells } from './support/browser-checks';

const pathOf = (url: string) => new URL(url).pathname;
const searchOf = (page: Page) => new URL(page.url()).searchParams;

/** The names in the list's rows, top to bottom ([] when there is no table). */
const rowNames = (page: Page) =>
  audiencesTable(page)
    .locator('tbody tr td:first-child')
    .allInnerTexts()
    .then((names) => names.map((name) => name.trim()));

test.describe('Audiences list', () => {
  test('starts empty: "No audiences yet", no table', async ({ page }) => {
    await signInAsMember(page);
    await expect(areaTitle(page, 'Audiences')).toBeVisible();
    const empty = page.getByRole('main').getByRole('status').filter({ hasText: 'No audiences yet' });
    await expect(empty).toBeVisible();
    await expect(empty).toContainText('Create an audience, then import its contacts.');
    await expect(audiencesTable(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create Audience' })).toBeEnabled();
  });

  test('Create Audience: Create disabled while blank, lands on the audience, the row shows its columns', async ({ page }) => {
    const api = await signInWithApi(page);
    const name = uniqueName('Created');

    await page.getByRole('button', { name: 'Create Audience' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Audience' });
    await expect(dialog).toBeVisible();
    const input = dialog.getByRole('textbox', { name: 'Audience name' });
    const create = dialog.getByRole('button', { name: 'Create', exact: true });
    await expect(create).toBeDisabled();
    await input.fill('   ');
    await expect(create).toBeDisabled();
    await expect(dialog.getByText('Fill your audience name')).toBeVisible();
    await input.fill(`  ${name}  `);
    await expect(dialog.getByText('Fill your audience name')).toBeHidden();
    await expect(create).toBeEnabled();

    const posted = page.waitForRequest((r) => r.method() === 'POST' && pathOf(r.url()).replace(/\/$/, '') === '/api/audiences');
    await create.click();
    expect((await posted).postDataJSON()).toEqual({ name });
    await expect(page).toHaveURL(/\/audiences\/\d+$/);
    const id = Number(pathOf(page.url()).split('/').pop());
    await expect(areaTitle(page, name)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('0 contacts, 0 with errors')).toBeVisible();

    await page.getByRole('link', { name: 'Back to Audiences' }).click();
    await expect(page).toHaveURL(/\/audiences$/);
    const table = audiencesTable(page);
    await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Contacts', 'Imported From', 'Created At', 'Actions']);
    const row = audienceRow(page, name);
    await expect(row).toHaveCount(1);
    const cells = row.getByRole('cell');
    await expect(cells.nth(1)).toHaveText('0');
    await expect(cells.nth(2)).toHaveText('');
    await expect(cells.nth(3)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (AM|PM)$/);
    const { createdAt } = await api.audience(id);
    await expect(cells.nth(3)).toHaveText(await browserDateTime(page, createdAt));
    // Newest first: the new audience heads the list.
    await expect(table.getByRole('row').nth(1)).toContainText(name);

    await row.getByRole('button', { name: `View ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/audiences/${id}$`));
    await expect(areaTitle(page, name)).toBeVisible();
  });

  test('name search by Enter and by the Search button; paging through page and limit', async ({ page }) => {
    const api = await signInWithApi(page);
    const tag = uniqueName('Paged');
    // Created oldest first: the list shows 5, 4, 3, 2, 1.
    for (let n = 1; n <= 5; n++) await api.createAudience(`${tag} ${n}`);
    const other = uniqueName('Unrelated');
    await api.createAudience(other);
    await page.reload();
    await expect(audienceRow(page, other)).toHaveCount(1);

    const box = page.getByRole('searchbox', { name: 'Search by name' });
    await box.fill(tag);
    await box.press('Enter');
    await expect.poll(() => searchOf(page).get('name')).toBe(tag);
    expect(searchOf(page).get('page')).toBe('1');
    await expect.poll(() => rowNames(page)).toEqual([5, 4, 3, 2, 1].map((n) => `${tag} ${n}`));
    await expect(page.getByRole('group', { name: 'Audiences pagination' })).toContainText('1–5 of 5');

    // Search button, part of the name, case-insensitive.
    await box.fill(`${tag.toUpperCase()} 3`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => searchOf(page).get('name')).toBe(`${tag.toUpperCase()} 3`);
    await expect.poll(() => rowNames(page)).toEqual([`${tag} 3`]);

    await box.fill('no audience is called this');
    await box.press('Enter');
    await expect(page.getByRole('main').getByRole('status')).toContainText('No audiences match “no audience is called this”');
    await expect(audiencesTable(page)).toHaveCount(0);

    // Clearing the search drops the parameter and shows everything again.
    await box.fill('');
    await box.press('Enter');
    await expect.poll(() => searchOf(page).has('name')).toBe(false);
    await expect(audienceRow(page, other)).toHaveCount(1);

    // Paging through the query string.
    await page.goto(`/audiences?name=${encodeURIComponent(tag)}&limit=2&page=2`);
    await expect(page.getByRole('searchbox', { name: 'Search by name' })).toHaveValue(tag);
    await expect.poll(() => rowNames(page)).toEqual([`${tag} 3`, `${tag} 2`]);
    const pager = page.getByRole('group', { name: 'Audiences pagination' });
    await expect(pager).toContainText('3–4 of 5');
    await expect(pager.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('2');

    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => searchOf(page).get('page')).toBe('3');
    await expect.poll(() => rowNames(page)).toEqual([`${tag} 1`]);
    await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await expect(pager.getByRole('button', { name: 'Last page' })).toBeDisabled();

    await pager.getByRole('button', { name: 'First page' }).click();
    await expect.poll(() => searchOf(page).get('page')).toBe('1');
    await expect.poll(() => rowNames(page)).toEqual([`${tag} 5`, `${tag} 4`]);
    await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await pager.getByRole('combobox', { name: 'Rows per page' }).selectOption('5');
    await expect.poll(() => [searchOf(page).get('limit'), searchOf(page).get('page')]).toEqual(['5', '1']);
    await expect.poll(() => rowNames(page)).toHaveLength(5);

    // The parameters are read on load, with the name filter kept.
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual([5, 4, 3, 2, 1].map((n) => `${tag} ${n}`));
  });

  test('Rename and Delete from the row menu', async ({ page }) => {
    const api = await signInWithApi(page);
    const name = uniqueName('Menu');
    const id = await api.createAudience(name);
    await page.goto(`/audiences?name=${encodeURIComponent(name)}`);
    await expect(audienceRow(page, name)).toHaveCount(1);

    // Rename: a blank name marks the field and does nothing.
    await audienceRow(page, name)
      .getByRole('button', { name: `More actions for ${name}` })
      .click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename audience' });
    const field = dialog.getByRole('textbox', { name: 'New name' });
    await expect(field).toHaveValue(name);
    const puts: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && pathOf(r.url()) === `/api/audiences/${id}`) puts.push(r);
    });
    await field.fill('  ');
    await dialog.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect(dialog.getByText('Fill your audience name')).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toBeVisible();
    expect(puts).toHaveLength(0);

    const renamed = `${name} renamed`;
    await field.fill(renamed);
    await dialog.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect(toast(page, 'Audience name updated successfully')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    expect(puts.map((r) => r.postDataJSON())).toEqual([{ name: renamed }]);
    // The list keeps its name filter (the old name is a prefix of the new one).
    await expect(audienceRow(page, renamed)).toHaveCount(1);
    await expect(audienceRow(page, name)).toHaveCount(0);
    expect((await api.audience(id)).name).toBe(renamed);

    // Delete, with confirmation; Cancel first keeps it.
    await audienceRow(page, renamed)
      .getByRole('button', { name: `More actions for ${renamed}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete audience' });
    await expect(confirm).toContainText(`Delete the audience “${renamed}” and its 0 contacts?`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(audienceRow(page, renamed)).toHaveCount(1);

    await audienceRow(page, renamed)
      .getByRole('button', { name: `More actions for ${renamed}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(audienceRow(page, renamed)).toHaveCount(0, { timeout: 5_000 });
    await expect(toast(page, `Successfully deleted audience ${renamed}`)).toBeVisible();
    expect((await api.get(`/api/audiences/${id}`)).status()).toBe(404);
  });
});

const CONTACTS_CSV = [
  'Email,First Name,City',
  'ann@example.org,Ann,Paris',
  'not-an-email,Nobody,Nowhere',
  'bob@example.org,Bob,Berlin',
  'cat@example.org,Cat,Cairo',
  'ann@example.org,Annie,Rome',
  'dan@example.org,Dan,Dublin',
  'eve@example.org,Eve,Essen',
  'fay@example.org,Fay,Faro',
  'gus@example.org,Gus,Genoa',
  'hal@example.org,Hal,Hanoi',
  'ivy@example.org,Ivy,Ibiza',
  'jon@example.org,Jon,Jena',
].join('\n');

/** The email column of the contacts table (the second cell of each body row). */
const shownEmails = (page: Page) =>
  contactsTable(page)
    .locator('tbody tr td:nth-child(2)')
    .allInnerTexts()
    .then((cells) => cells.map((cell) => cell.trim()));

test('upload a CSV file: contacts with their statuses, filters, search, paging; no second import', async ({ page }, testInfo) => {
  const api = await signInWithApi(page);
  const name = uniqueName('Upload');
  const id = await createAudienceThroughDialog(page, name);
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'No contacts yet' })).toBeVisible();

  await openImportWizard(page, id);
  await expect(areaTitle(page, `Import contacts into ${name}`)).toBeVisible();
  // Next is disabled until a method is chosen; Cancel goes back.
  await expect(page.getByRole('button', { name: 'Next', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`/audiences/${id}$`));
  await openImportWizard(page, id);

  const file = writeFixture(testInfo, 'contacts.csv', CONTACTS_CSV);
  const uploaded = page.waitForResponse((r) => pathOf(r.url()) === `/api/audiences/${id}/import/file`);
  await uploadThroughWizard(page, file);
  const upload = await uploaded;
  expect(upload.status()).toBe(202);
  expect(new URL(upload.url()).searchParams.get('type')).toBe('csv');
  await expectImportAccepted(page, id);

  const table = contactsTable(page);
  await expect(table).toBeVisible({ timeout: 20_000 });
  // The wizard's mapping made each column a new field, keyed as a merge tag is (issue 24).
  await expect(table.getByRole('columnheader')).toHaveText(['Status', 'email', 'firstName', 'city']);
  await expect(page.getByText('12 contacts, 2 with errors, imported from CSV')).toBeVisible();
  await expect
    .poll(() => shownEmails(page))
    .toEqual([
      'ann@example.org',
      'not-an-email',
      'bob@example.org',
      'cat@example.org',
      'ann@example.org',
      'dan@example.org',
      'eve@example.org',
      'fay@example.org',
      'gus@example.org',
      'hal@example.org',
    ]);
  const bob = table.getByRole('row').filter({ hasText: 'bob@example.org' });
  await expect(bob.getByRole('cell')).toHaveText(['', 'bob@example.org', 'Bob', 'Berlin']);
  await expect(bob.getByRole('img', { name: 'Valid', exact: true })).toBeVisible();

  // Error icons carry the message, shown as a tooltip.
  const invalid = table.getByRole('row').filter({ hasText: 'not-an-email' }).getByRole('img', { name: 'Invalid email address' });
  const duplicate = table
    .getByRole('row')
    .filter({ hasText: 'Annie' })
    .getByRole('img', { name: 'Duplicate email address in this audience' });
  await expect(invalid).toBeVisible();
  await expect(duplicate).toBeVisible();
  await expect(table.getByRole('img', { name: 'Valid', exact: true })).toHaveCount(8);
  await invalid.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: 'Invalid email address' })).toBeVisible();
  await duplicate.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: 'Duplicate email address in this audience' })).toBeVisible();
  await expect(page.getByRole('tooltip').filter({ hasText: 'Invalid email address' })).toBeHidden();
  await page.mouse.move(0, 0);

  // Status filter.
  const status = page.getByRole('combobox', { name: 'Status', exact: true });
  await status.selectOption({ label: 'Errors' });
  await expect.poll(() => shownEmails(page)).toEqual(['not-an-email', 'ann@example.org']);
  await expect(table.getByRole('img', { name: 'Valid', exact: true })).toHaveCount(0);
  await status.selectOption({ label: 'Valid' });
  await expect.poll(() => shownEmails(page)).toHaveLength(10);
  await expect(table.getByRole('img', { name: 'Valid', exact: true })).toHaveCount(10);
  await expect(page.getByRole('group', { name: 'Contacts pagination' })).toContainText('1–10 of 10');
  await status.selectOption({ label: 'All' });
  await expect(page.getByRole('group', { name: 'Contacts pagination' })).toContainText('1–10 of 12');

  // Email search: typed key by key, asked for once, after the pause.
  const searched: string[] = [];
  page.on('request', (r) => {
    if (pathOf(r.url()) === `/api/audiences/${id}/contacts`) {
      const email = new URL(r.url()).searchParams.get('email');
      if (email !== null) searched.push(email);
    }
  });
  await page.getByRole('searchbox', { name: 'Search by email' }).pressSequentially('bob', { delay: 60 });
  await expect.poll(() => shownEmails(page)).toEqual(['bob@example.org']);
  expect(searched).toEqual(['bob']);
  await page.getByRole('searchbox', { name: 'Search by email' }).fill('nobody-has-this');
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'No contacts match the filters' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search by email' }).fill('');
  await expect.poll(() => shownEmails(page)).toHaveLength(10);

  // Page size 5 and the first/next/last controls.
  const pager = page.getByRole('group', { name: 'Contacts pagination' });
  const sizes = pager.getByRole('combobox', { name: 'Rows per page' });
  await expect(sizes.getByRole('option')).toHaveText(['5', '10', '25', 'All']);
  await sizes.selectOption('5');
  await expect(pager).toContainText('1–5 of 12');
  await expect
    .poll(() => shownEmails(page))
    .toEqual(['ann@example.org', 'not-an-email', 'bob@example.org', 'cat@example.org', 'ann@example.org']);
  await expect(pager.getByRole('button', { name: 'First page' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('6–10 of 12');
  await expect
    .poll(() => shownEmails(page))
    .toEqual(['dan@example.org', 'eve@example.org', 'fay@example.org', 'gus@example.org', 'hal@example.org']);
  await pager.getByRole('button', { name: 'Last page' }).click();
  await expect(pager).toContainText('11–12 of 12');
  await expect.poll(() => shownEmails(page)).toEqual(['ivy@example.org', 'jon@example.org']);
  await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await expect(pager.getByRole('button', { name: 'Last page' })).toBeDisabled();
  await pager.getByRole('button', { name: 'First page' }).click();
  await expect(pager).toContainText('1–5 of 12');
  await sizes.selectOption('All');
  await expect(pager).toContainText('1–12 of 12');
  await expect.poll(() => shownEmails(page)).toHaveLength(12);

  // The audience has a source now: no second import.
  await page.getByRole('button', { name: 'Options' }).click();
  await expect(page.getByRole('menuitem', { name: 'Export Contacts' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Import Contacts' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // Reached by its address, the wizard says why and leads back.
  await page.goto(`/audiences/${id}/import`);
  await expect(page.getByText(/This audience already has contacts imported from CSV and cannot take more contacts\./)).toBeVisible();
  await page.getByRole('link', { name: 'Back to Audience Details' }).click();
  await expect(page).toHaveURL(new RegExp(`/audiences/${id}$`));

  // The list row: contacts, source, error icon.
  await page.goto(`/audiences?name=${encodeURIComponent(name)}`);
  const row = audienceRow(page, name);
  await expect(row.getByRole('cell').nth(1)).toHaveText('12');
  await expect(row.getByRole('cell').nth(2)).toHaveText('CSV');
  await expect(row.getByRole('img', { name: '2 contacts with errors' })).toBeVisible();
  await expect(row.getByRole('progressbar')).toHaveCount(0);
  expect(await api.audience(id)).toMatchObject({
    headers: ['firstName', 'city'],
    source: 'CSV',
    isImporting: false,
    numberOfContacts: 12,
    numberOfContactsWithErrors: 2,
  });
});

test('copy and paste: tab-separated rows become contacts with their headers', async ({ page }) => {
  const api = await signInWithApi(page);
  const name = uniqueName('Pasted');
  const id = await createAudienceThroughDialog(page, name);
  await openImportWizard(page, id);

  await page.getByRole('radio', { name: /^Copy and Paste/ }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const area = page.getByRole('textbox', { name: 'Contacts' });
  await expect(area).toHaveAttribute('placeholder', /Email\tUsername\tFull Name/);
  // Required: Import stays disabled while the area is blank.
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  // Back keeps the choice.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByRole('radio', { name: /^Copy and Paste/ })).toBeChecked();

  const uploaded = page.waitForRequest((r) => pathOf(r.url()) === `/api/audiences/${id}/import/file`);
  await pasteThroughWizard(
    page,
    [
      'Email\tUsername\tFull Name',
      'jane@example.org\tjane\tJane Doe',
      'john@example.org\tjohn\tJohn Smith',
      'kim@example.org\tkim\tKim Lee',
    ].join('\n'),
  );
  expect(new URL((await uploaded).url()).searchParams.get('type')).toBe('text');
  await expectImportAccepted(page, id);

  const table = contactsTable(page);
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader')).toHaveText(['Status', 'email', 'username', 'fullName']);
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.getByRole('row').filter({ hasText: 'john@example.org' }).getByRole('cell')).toHaveText([
    '',
    'john@example.org',
    'john',
    'John Smith',
  ]);
  await expect(table.getByRole('img', { name: 'Valid', exact: true })).toHaveCount(3);
  await expect(page.getByText('3 contacts, 0 with errors, imported from TEXT')).toBeVisible();
  expect(await api.audience(id)).toMatchObject({ source: 'TEXT', headers: ['username', 'fullName'], numberOfContacts: 3 });
});

test.describe('imports that fail', () => {
  test('a file bad past the upload check ends with the Import Error banner and no contacts', async ({ page }, testInfo) => {
    const api = await signInWithApi(page);
    const name = uniqueName('Broken');
    const id = await createAudienceThroughDialog(page, name);

    // The upload check reads the first 256 KB; the invalid UTF-8 byte comes after ~300 KB of good rows.
    const good = `email,n\n${Array.from({ length: 14_000 }, (_, i) => `p${i}@example.org,${i}`).join('\n')}\n`;
    expect(good.length).toBeGreaterThan(256 * 1024);
    const badUtf8 = Buffer.concat([Buffer.from(good), Buffer.from('Jos\xe9@example.org,1\n', 'latin1')]);
    await openImportWizard(page, id);
    await uploadThroughWizard(page, writeFixture(testInfo, 'late-bad-byte.csv', badUtf8));
    await expectImportAccepted(page, id);

    // The error banner: a message bar titled 'Import Error', holding the worker's message.
    const errorBanner = page.getByRole('group', { name: 'Import Error' });
    await expect(errorBanner).toBeVisible({ timeout: 20_000 });
    await expect(errorBanner).toHaveText('Import Error' + 'The file is not UTF-8 text. Save it as "CSV UTF-8" and import it again.');
    await expect(page.getByText(IMPORTING_BANNER)).toHaveCount(0);
    await expect(page.getByText('0 contacts, 0 with errors')).toBeVisible();
    await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'No contacts yet' })).toBeVisible();
    await expect(contactsTable(page)).toHaveCount(0);
    expect(await api.audience(id)).toMatchObject({
      isImporting: false,
      source: null,
      numberOfContacts: 0,
      importErrorMessage: 'The file is not UTF-8 text. Save it as "CSV UTF-8" and import it again.',
    });
    expect((await (await api.get(`/api/audiences/${id}/contacts`)).json()).meta.totalItems).toBe(0);

    // The failed import left no source: the wizard takes another file. An unclosed quote, late.
    const unclosed = `${good}last@example.org,"never closed\n`;
    // The first import's toast gone, so the next one is this import's.
    await expect(toast(page, IMPORT_STARTED)).toHaveCount(0);
    await openImportWizard(page, id);
    await expect(page.getByText(/cannot take more contacts/)).toHaveCount(0);
    await uploadThroughWizard(page, writeFixture(testInfo, 'late-open-quote.csv', unclosed));
    await expectImportAccepted(page, id);
    // Header, 14,000 good rows, then the bad one: row 14002.
    await expect(errorBanner).toHaveText('Import Error' + 'Row 14002 has a quote that is never closed.', { timeout: 20_000 });
    await expect(contactsTable(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Options' }).click();
    await expect(page.getByRole('menuitem', { name: 'Import Contacts' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Import in Progress...' })).toHaveCount(0);
    await page.keyboard.press('Escape');
  });

  test('a file without an email column: the wizard asks for the address column and uploads nothing', async ({ page }, testInfo) => {
    const api = await signInWithApi(page);
    const name = uniqueName('No email');
    const id = await createAudienceThroughDialog(page, name);
    await openImportWizard(page, id);
    let uploads = 0;
    page.on('request', (r) => void (pathOf(r.url()) === `/api/audiences/${id}/import/file` && uploads++));
    await page.getByRole('radio', { name: /^Upload file/ }).check();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page
      .getByLabel('CSV or TXT file', { exact: true })
      .setInputFiles(writeFixture(testInfo, 'no-email.csv', 'Name,City\nAnn,Paris\nBob,Berlin\n'));
    await expect(page.getByText('Choose the column that holds the email address.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
    // Still on the wizard's upload step, the file still chosen.
    await expect(page).toHaveURL(new RegExp(`/audiences/${id}/import$`));
    await expect(page.getByText('no-email.csv', { exact: true })).toBeVisible();
    expect(uploads).toBe(0);
    expect(await api.audience(id)).toMatchObject({ isImporting: false, source: null, importErrorMessage: null, numberOfContacts: 0 });
  });
});

test('Export Contacts downloads a CSV named from Content-Disposition, formulas made inert', async ({ page }, testInfo) => {
  await signInWithApi(page);
  const name = uniqueName('Export');
  const id = await createAudienceThroughDialog(page, name);
  const source = [
    'Email,Name,Note',
    'ann@example.org,Ann,=1+2',
    'bob@example.org,"Bob, Jr.",plain',
    'broken-address,Nobody,+cmd',
    'cat@example.org,Cat,"say ""hi"""',
  ].join('\n');
  await openImportWizard(page, id);
  await uploadThroughWizard(page, writeFixture(testInfo, 'to-export.csv', source));
  await expectImportAccepted(page, id);
  await expect(contactsTable(page).locator('tbody tr')).toHaveCount(4, { timeout: 20_000 });

  await page.getByRole('button', { name: 'Options' }).click();
  const downloadResponse = page.waitForResponse((r) => pathOf(r.url()) === `/api/audiences/${id}/download`);
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export Contacts' }).click();
  const response = await downloadResponse;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/csv/);
  const disposition = response.headers()['content-disposition'] ?? '';
  expect(disposition).toContain(`filename="${name}-contacts.csv"`);
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe(`${name}-contacts.csv`);

  const path = testInfo.outputPath('downloaded.csv');
  await download.saveAs(path);
  const text = readFileSync(path, 'utf8');
  // The wizard's mapping made the columns new fields, keyed as merge tags are; the last column is the latest consent.
  const consent = `Imported by mia@example.org, ${new Date().toISOString().slice(0, 10)}`;
  expect(parseCsv(text.replace(/\n$/, ''))).toEqual([
    ['email', 'name', 'note', 'Latest consent'],
    ['ann@example.org', 'Ann', "'=1+2", consent],
    ['bob@example.org', 'Bob, Jr.', 'plain', consent],
    ['broken-address', 'Nobody', "'+cmd", consent],
    ['cat@example.org', 'Cat', 'say "hi"', consent],
  ]);
  expect(text.split('\n')[0]).toBe('"email","name","note","Latest consent"');

  // The consent record (issue 25): every event of the audience, here its import with the basis the wizard asked for.
  await page.getByRole('button', { name: 'Options' }).click();
  const consentDownload = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export consent record' }).click();
  const record = await consentDownload;
  expect(record.suggestedFilename()).toBe(`${name}-consent.csv`);
  const recordPath = testInfo.outputPath('consent.csv');
  await record.saveAs(recordPath);
  const rows = parseCsv(readFileSync(recordPath, 'utf8').replace(/\n$/, ''));
  expect(rows[0]).toEqual([
    'time',
    'address',
    'event',
    'form',
    'wording version',
    'wording',
    'member',
    'lawful basis',
    'client address',
    'agent',
    'detail',
  ]);
  expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
    ['', 'Imported', '', '', '', 'mia@example.org', 'Consent collected elsewhere', '', '', '4 contacts'],
  ]);
});

test('the editable title: Escape cancels, blank cannot be saved, Enter saves the trimmed name', async ({ page }) => {
  const api = await signInWithApi(page);
  const name = uniqueName('Title');
  const id = await api.createAudience(name);
  await page.goto(`/audiences/${id}`);
  await expect(areaTitle(page, name)).toBeVisible();

  const puts: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && pathOf(r.url()) === `/api/audiences/${id}`) puts.push(r);
  });
  const edit = page.getByRole('button', { name: 'Edit audience name' });
  const input = page.getByRole('textbox', { name: 'Audience name' });
  const save = page.getByRole('button', { name: 'Save audience name' });

  // Escape cancels.
  await edit.click();
  await expect(input).toBeFocused();
  await expect(input).toHaveValue(name);
  await input.fill('Not kept');
  await input.press('Escape');
  await expect(input).toHaveCount(0);
  await expect(areaTitle(page, name)).toBeVisible();

  // The cancel icon, too.
  await edit.click();
  await input.fill('Not kept either');
  await page.getByRole('button', { name: 'Cancel editing' }).click();
  await expect(areaTitle(page, name)).toBeVisible();

  // Blank: save disabled, Enter does nothing.
  await edit.click();
  await input.fill('   ');
  await expect(save).toBeDisabled();
  await input.press('Enter');
  await expect(input).toBeVisible();
  expect(puts).toHaveLength(0);

  // Enter saves the trimmed name.
  const renamed = `${name} edited`;
  await input.fill(`   ${renamed}   `);
  await expect(save).toBeEnabled();
  await input.press('Enter');
  await expect(toast(page, 'Audience name updated successfully')).toBeVisible();
  await expect(areaTitle(page, renamed)).toBeVisible();
  await expect(input).toHaveCount(0);
  expect(puts.map((r) => r.postDataJSON())).toEqual([{ name: renamed }]);
  await page.reload();
  await expect(areaTitle(page, renamed)).toBeVisible();

  // And the save icon.
  await edit.click();
  await input.fill(`${renamed} again`);
  await save.click();
  await expect(areaTitle(page, `${renamed} again`)).toBeVisible();
  expect((await api.audience(id)).name).toBe(`${renamed} again`);
});

test('deleting an audience with contacts from the list: gone at once, its page reads "Audience not found"', async ({ page }) => {
  const api = await signInWithApi(page);
  const name = uniqueName('Doomed');
  const id = await createAudienceThroughDialog(page, name);
  await openImportWizard(page, id);
  await pasteThroughWizard(page, ['Email\tCity', 'a@example.org\tAthens', 'b@example.org\tBern', 'bad address\tCork'].join('\n'));
  await expectImportAccepted(page, id);
  await expect(contactsTable(page).locator('tbody tr')).toHaveCount(3, { timeout: 20_000 });

  await page.getByRole('link', { name: 'Back to Audiences' }).click();
  await expect(page).toHaveURL(/\/audiences$/);
  // Newest first: on the first page.
  const row = audienceRow(page, name);
  await expect(row.getByRole('cell').nth(1)).toHaveText('3');
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete audience' });
  await expect(confirm).toContainText(`Delete the audience “${name}” and its 3 contacts? This cannot be undone.`);
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && pathOf(r.url()) === `/api/audiences/${id}`);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  expect((await deleted).status()).toBe(202);
  await expect(row).toHaveCount(0, { timeout: 5_000 });
  await expect(confirm).toHaveCount(0);

  await page.goto(`/audiences/${id}`);
  await expect(areaTitle(page, 'Audience not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Audiences' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Options' })).toHaveCount(0);
  expect((await api.get(`/api/audiences/${id}`)).status()).toBe(404);
  expect((await api.get(`/api/audiences/${id}/contacts`)).status()).toBe(404);
});

test('at 390 px wide the tables scroll sideways inside their box and no two cells overlap', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsMember(page);
  const name = uniqueName('Narrow');
  const id = await createAudienceThroughDialog(page, name);
  await openImportWizard(page, id);
  await pasteThroughWizard(
    page,
    [
      'Email\tFirst Name\tLast Name\tCity',
      'alexandrina.wolfeschlegelstein@example.org\tAlexandrina\tWolfeschlegelsteinhausen\tLlanfairpwllgwyngyll',
      'bob@example.org\tBob\tLee\tOslo',
    ].join('\n'),
  );
  await expectImportAccepted(page, id);
  const table = contactsTable(page);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expectNoOverlappingCells(table);

  // The table scrolls sideways in its own box, by keyboard too; the page itself does not.
  const scroller = page.getByRole('region', { name: 'Contacts table' });
  expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await scroller.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  // A cut value keeps the whole of it in a tooltip.
  await table.getByText(/^alexandrina\.wolfe/).focus();
  await expect(page.getByRole('tooltip')).toHaveText('alexandrina.wolfeschlegelstein@example.org');
  await page.keyboard.press('Escape');
  // Nothing half faded while axe measures contrast.
  await expect(page.getByRole('tooltip')).toBeHidden();
  await expect(toast(page, IMPORT_STARTED)).toBeHidden({ timeout: 15_000 });
  await expectNoAxeViolations(page, 'the audience detail at 390 px');

  await page.goto(`/audiences?name=${encodeURIComponent(name)}`);
  await expect(audienceRow(page, name)).toBeVisible();
  await expectNoOverlappingCells(audiencesTable(page));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, 'the audiences list at 390 px');
});
