/**
 * The import wizard's mapping step (issue 24), at 390 px in the dark theme: a file with a number, a date, a yes/no
 * and a column to leave out is mapped inside the Import step (types guessed from the first values, one column sent
 * nowhere), imported, and its contacts show typed values, with the rows whose values do not fit their fields as
 * error rows giving the reason. The wizard opened again for an audience whose import failed offers the same
 * choices. axe runs on the mapping step and on the contacts.
 */
import { expect, test } from '@playwright/test';
import {
  chooseLawfulBasis,
  contactsTable,
  createAudienceThroughDialog,
  expectImportAccepted,
  openImportWizard,
  signInWithApi,
  uniqueName,
  writeFixture,
} from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';

const TYPED_CSV = [
  'Email,Age,Joined,Member,Notes',
  'ann@example.org,34,2024-01-31,yes,likes cats',
  'bob@example.org,41,2023-12-01,no,',
  'cid@example.org,forty,2024-02-30,maybe,late payer',
  'dee@example.org,29,2022-07-14,yes,',
].join('\n');

test('maps a file with typed columns at 390 px in the dark theme', async ({ page }, testInfo) => {
  await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await signInWithApi(page);
  const name = uniqueName('Typed');
  const id = await createAudienceThroughDialog(page, name);
  await openImportWizard(page, id);

  await page.getByRole('radio', { name: /^Upload file/ }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page.getByLabel('CSV or TXT file', { exact: true }).setInputFiles(writeFixture(testInfo, 'typed.csv', TYPED_CSV));

  // Each column with its first values and a new field whose type the values suggest; the address's column apart.
  const columns = page.getByRole('list', { name: 'Columns of the file' });
  await expect(columns).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Column with the email address' })).toHaveValue('Email');
  await expect(page.getByRole('list', { name: 'First values of Age' }).getByRole('listitem')).toHaveText(['34', '41', 'forty', '29']);
  const typeOf = (column: string) => page.getByRole('combobox', { name: `Type of the new field for ${column}` });
  // 'forty' is not a number: the guess is text; the member makes it a number.
  await expect(typeOf('Age')).toHaveValue('TEXT');
  await typeOf('Age').selectOption({ label: 'Number' });
  await expect(typeOf('Joined')).toHaveValue('TEXT');
  await typeOf('Joined').selectOption({ label: 'Date' });
  await expect(typeOf('Member')).toHaveValue('TEXT');
  await typeOf('Member').selectOption({ label: 'Yes/no' });
  await expect(page.getByRole('textbox', { name: /Key of the new field for Member/ })).toHaveValue('member');
  await page.getByRole('combobox', { name: 'Notes goes to' }).selectOption({ label: 'Not imported' });
  await expect(typeOf('Notes')).toHaveCount(0);
  // Keyboard reachable: the controls take the focus in order.
  await page.getByRole('combobox', { name: 'Column with the email address' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Age goes to' })).toBeFocused();
  await expectNoAxeViolations(page, 'the mapping step (dark, 390 px)');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]!);

  // The lawful basis (issue 25): the one required choice of the Import step, recorded with the import.
  await chooseLawfulBasis(page, 'Legitimate interest');
  const uploaded = page.waitForRequest((r) => new URL(r.url()).pathname === `/api/audiences/${id}/import/file`);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  // Chromium does not expose a multipart body with a file; the typed values below show the mapping went up with it.
  await uploaded;
  await expectImportAccepted(page, id);

  const table = contactsTable(page);
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader')).toHaveText(['Status', 'email', 'age', 'joined', 'member']);
  await expect(table.getByRole('row').filter({ hasText: 'ann@example.org' }).getByRole('cell')).toHaveText([
    '',
    'ann@example.org',
    '34',
    '2024-01-31',
    'Yes',
  ]);
  await expect(table.getByRole('row').filter({ hasText: 'bob@example.org' }).getByRole('cell')).toHaveText([
    '',
    'bob@example.org',
    '41',
    '2023-12-01',
    'No',
  ]);
  const reasons =
    "Age: 'forty' is not a number (write it like 1234.5). Joined: '2024-02-30' is not a date (write it as YYYY-MM-DD). Member: 'maybe' is not yes or no.";
  const error = table.getByRole('row').filter({ hasText: 'cid@example.org' }).getByRole('img', { name: reasons });
  await expect(error).toBeVisible();
  await error.focus();
  await expect(page.getByRole('tooltip').filter({ hasText: "Age: 'forty' is not a number" })).toBeVisible();
  await expect(page.getByText('4 contacts, 1 with errors, imported from CSV')).toBeVisible();
  await expectNoAxeViolations(page, 'the typed contacts (dark, 390 px)');

  expect(await api.audience(id)).toMatchObject({
    headers: ['age', 'joined', 'member'],
    numberOfContacts: 4,
    numberOfContactsWithErrors: 1,
  });
  const contacts = (await (await api.get(`/api/audiences/${id}/contacts?page=1&limit=10`)).json()) as {
    items: { email: string; data: Record<string, unknown> }[];
  };
  expect(contacts.items.find((c) => c.email === 'ann@example.org')!.data).toEqual({ age: 34, joined: '2024-01-31', member: true });

  // The basis chosen is in the contact's consent history, in words.
  await table.getByRole('button', { name: 'ann@example.org', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'ann@example.org' });
  const history = drawer.getByRole('list', { name: 'Consent history' });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem').first()).toContainText(
    /Imported by mia@example\.org\s*lawful basis: Legitimate interest · 4 contacts/,
  );
  await expectNoAxeViolations(page, "the contact's consent history (dark, 390 px)");
});

test('the wizard offers again the mapping of an import that failed', async ({ page }, testInfo) => {
  const api = await signInWithApi(page);
  const id = await createAudienceThroughDialog(page, uniqueName('Remembered'));
  // An import the worker fails (no contacts under the header), mapped through the API as the wizard maps.
  const mapping = {
    emailColumn: 'Mail',
    columns: [
      { column: 'Score', to: 'new', key: 'score', label: 'Score', type: 'NUMBER' },
      { column: 'Notes', to: 'none' },
    ],
  };
  const failed = await api.postForm(`/api/audiences/${id}/import/file?type=csv`, {
    mapping: JSON.stringify(mapping),
    file: { name: 'first.csv', mimeType: 'text/csv', buffer: Buffer.from('Mail,Score,Notes\n\n') },
  });
  expect(failed.status()).toBe(202);
  await expect.poll(async () => (await api.audience(id)).importErrorMessage).toBe('The file has no contacts.');

  await page.reload();
  await openImportWizard(page, id);
  await page.getByRole('radio', { name: /^Upload file/ }).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await page
    .getByLabel('CSV or TXT file', { exact: true })
    .setInputFiles(writeFixture(testInfo, 'again.csv', 'Mail,Score,Notes\nann@example.org,7,x\n'));
  await expect(page.getByRole('combobox', { name: 'Column with the email address' })).toHaveValue('Mail');
  await expect(page.getByRole('combobox', { name: 'Score goes to' })).toHaveValue('score');
  await expect(page.getByRole('combobox', { name: 'Notes goes to' })).toHaveValue('+none');
  await chooseLawfulBasis(page, 'Contract');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expectImportAccepted(page, id);
  expect(await api.audience(id)).toMatchObject({ headers: ['score'], numberOfContacts: 1, importErrorMessage: null });
});
