/**
 * The campaign report's Email Performance tab (docs/product.md, Campaign report, 2) on the report's
 * journey (support/report-journey.ts): the columns and each contact's facts, every filter, the search and
 * paging, the keyboard's way through the actions, the export read back, and the tab at 390 px in the dark
 * theme. Its retry and send actions are reports-actions.spec.ts's.
 */
import ExcelJS from 'exceljs';
import { SEND_STATUS_LABELS } from '@mailroom/api-client/labels';
import { signInAsMember } from './support/auth';
import { expectNoAxeViolations, expectNoOverlappingCells } from './support/browser-checks';
import { COLUMNS, NOT_SENT_INFO, cellsOf, cut, expect, expectedRows, hardBounceOf, sendStatusFilter, test } from './support/report-journey';
import { emailPerformanceTable, performanceRow, reportPath, tabTo, tableEmails } from './support/reports';

test.use({ timezoneId: 'UTC' });

test('Email Performance: the columns, each contact’s facts, every filter, the search and paging; the keyboard reaches every action', async ({
  page,
  journey,
}) => {
  const { campaign, people } = journey;
  const { ada, ben, formula, cy, dee, zoe } = people;
  await signInAsMember(page);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  const table = emailPerformanceTable(page);

  await expect(table.getByRole('columnheader')).toHaveText(COLUMNS);
  // In the order they were sent (the file's).
  await expect.poll(() => tableEmails(page)).toEqual(people.all);
  for (const email of people.all) await expect(cellsOf(page, email), email).toHaveText(expectedRows(people)[email]!);
  await expect(page.getByRole('group', { name: 'Email performance pagination' })).toContainText('1–6 of 6');
  // Only the failed mail has a retry, and nothing is NOT_SENT in this campaign.
  await expect(table.getByRole('button', { name: 'Retry sending this failed email' })).toHaveCount(1);
  await expect(performanceRow(page, zoe).getByRole('button', { name: 'Retry sending this failed email' })).toBeVisible();
  await expect(table.getByRole('button', { name: 'Send email to this contact' })).toHaveCount(0);

  // The bounce message is cut, the whole of it in a tooltip.
  await cellsOf(page, formula)
    .nth(5)
    .getByText(cut(hardBounceOf(people).diagnosticCode))
    .focus();
  await expect(page.getByRole('tooltip')).toHaveText(hardBounceOf(people).diagnosticCode);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toBeHidden();
  await expectNoOverlappingCells(table);
  await expectNoAxeViolations(page, 'the email performance tab');

  const filter = async (name: string, option: string, expected: string[]) => {
    await page.getByRole('combobox', { name }).selectOption({ label: option });
    await expect.poll(() => tableEmails(page), `${name}: ${option}`).toEqual(expected);
  };
  await filter('Send Status', 'Failed', [zoe]);
  await filter('Send Status', 'Sent successfully', [ada, ben, cy]);
  await filter('Send Status', 'Sent (waiting Ack)', [formula, dee]);
  await filter('Send Status', 'All', people.all);
  await filter('Bounce Type', 'Hard', [formula]);
  await filter('Bounce Type', 'Soft', [dee]);
  await filter('Bounce Type', 'All', people.all);
  await filter('Clicked', 'Yes', [ada, cy]);
  await filter('Clicked', 'No', [ben, formula, dee, zoe]);
  await filter('Opened', 'Yes', [ben]);
  await filter('Clicked', 'All', [ada, ben, cy]);
  await filter('Opened', 'No', [formula, dee, zoe]);
  await filter('Opened', 'All', people.all);

  // The email search: debounced, a case-insensitive part of the address.
  const search = page.getByRole('searchbox', { name: 'Search Email' });
  const part = `${ben.split('@')[0]!.toUpperCase()}@`;
  const searched = page.waitForRequest((r) => new URL(r.url()).searchParams.get('email') === part);
  await search.fill(part);
  await searched;
  await expect.poll(() => tableEmails(page)).toEqual([ben]);
  await search.fill('nobody-has-this');
  await expect(table.locator('tbody tr')).toHaveText(['No data available']);
  await search.fill('');
  await expect.poll(() => tableEmails(page)).toEqual(people.all);

  // NOT_SENT: the info alert; every valid contact of the audience has a mail in this campaign.
  await expect(page.getByText(NOT_SENT_INFO)).toHaveCount(0);
  await sendStatusFilter(page).selectOption({ label: 'NOT_SENT' });
  await expect(page.getByText(NOT_SENT_INFO)).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveText(['No data available']);
  await sendStatusFilter(page).selectOption({ label: 'All' });
  await expect(page.getByText(NOT_SENT_INFO)).toHaveCount(0);

  // Paging: 5 a page.
  const pagination = page.getByRole('group', { name: 'Email performance pagination' });
  await pagination.getByRole('combobox', { name: 'Rows per page' }).selectOption('5');
  await expect(pagination).toContainText('1–5 of 6');
  await expect.poll(() => tableEmails(page)).toEqual(people.all.slice(0, 5));
  await pagination.getByRole('button', { name: 'Next page' }).click();
  await expect(pagination).toContainText('6–6 of 6');
  await expect.poll(() => tableEmails(page)).toEqual([zoe]);
  await pagination.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
  await expect.poll(() => tableEmails(page)).toEqual(people.all);

  // From the search box, the keyboard reaches the filters, the three actions and the row's retry, in order.
  await search.focus();
  const passed = await tabTo(page, page.getByRole('button', { name: 'Export' }));
  expect(passed.length, `passed on the way: ${passed.join(' | ')}`).toBeGreaterThanOrEqual(4);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Retry All Failed' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Send to all NOT_SENT contacts' })).toBeFocused();
  await tabTo(page, performanceRow(page, zoe).getByRole('button', { name: 'Retry sending this failed email' }));
});

test('Email Performance: Export downloads the rows of the filters as email-performance-{id}.xlsx, every value a text cell', async ({
  page,
  journey,
}, testInfo) => {
  const { campaign, rows, people } = journey;
  const { formula } = people;
  await signInAsMember(page);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  await expect.poll(() => tableEmails(page)).toEqual(people.all);

  const exportRows = async (file: string): Promise<ExcelJS.Worksheet> => {
    const downloaded = page.waitForEvent('download');
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/reports/${campaign.id}/export-email-performance`);
    await page.getByRole('button', { name: 'Export' }).click();
    expect((await answered).status()).toBe(200);
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(`email-performance-${campaign.id}.xlsx`);
    const path = testInfo.outputPath(file);
    await download.saveAs(path);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    // The Summary sheet first (an addition to the spec), then the rows.
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Email performance']);
    return workbook.getWorksheet('Email performance')!;
  };
  const values = (sheet: ExcelJS.Worksheet) =>
    Array.from({ length: sheet.rowCount }, (_, i) => Array.from({ length: 10 }, (_, c) => sheet.getRow(i + 1).getCell(c + 1).text));

  const sheet = await exportRows('all.xlsx');
  const expected = (email: string) => {
    const row = rows[email]!;
    return [
      row.email,
      SEND_STATUS_LABELS[row.status],
      row.clicked ? 'Yes' : 'No',
      row.opened ? 'Yes' : 'No',
      row.bounceType ?? 'None',
      row.bounceMessage ?? '',
      row.bounceTime ?? '',
      row.complaintType ?? '',
      row.complaintTime ?? '',
      row.errorMessage ?? '',
    ];
  };
  expect(values(sheet)).toEqual([COLUMNS, ...people.all.map(expected)]);
  // The facts themselves, not only the API's word for them.
  expect(values(sheet)[3]).toEqual([
    formula,
    'Sent (waiting Ack)',
    'No',
    'No',
    'HARD',
    hardBounceOf(people).diagnosticCode,
    hardBounceOf(people).at,
    '',
    '',
    '',
  ]);
  // The export words each row as the screen does: Send Status, Clicked, Opened and Bounce Type cell for cell.
  for (const [n, email] of people.all.entries())
    expect({ email, cells: values(sheet)[n + 1]!.slice(1, 5) }).toEqual({
      email,
      cells: (await cellsOf(page, email).allTextContents()).slice(1, 5),
    });
  // '=1+1@…' is text to the spreadsheet, never a formula; so is every other cell.
  const formulaCell = sheet.getRow(4).getCell(1);
  expect(formulaCell.formula).toBeUndefined();
  expect([ExcelJS.ValueType.String, ExcelJS.ValueType.RichText]).toContain(formulaCell.type);
  sheet.eachRow((row) =>
    row.eachCell((cell) => expect([ExcelJS.ValueType.String, ExcelJS.ValueType.RichText], `cell ${cell.address}`).toContain(cell.type)),
  );

  // The filters of the screen go with it.
  await page.getByRole('combobox', { name: 'Bounce Type' }).selectOption({ label: 'Hard' });
  await expect.poll(() => tableEmails(page)).toEqual([formula]);
  const hard = await exportRows('hard.xlsx');
  expect(values(hard).slice(1)).toEqual([expected(formula)]);
});

test('the report works at 390 px wide in the dark theme: tabs, the email performance table and its actions', async ({ page, journey }) => {
  const { campaign } = journey;
  await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsMember(page);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  const table = emailPerformanceTable(page);
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no horizontal scrolling of the page').toBeLessThanOrEqual(0);
  await expectNoOverlappingCells(table);
  for (const name of ['Export', 'Retry All Failed', 'Send to all NOT_SENT contacts']) {
    await page.getByRole('button', { name, exact: true }).scrollIntoViewIfNeeded();
    await expect(page.getByRole('button', { name, exact: true })).toBeInViewport();
  }
  await expectNoAxeViolations(page, 'the email performance tab, narrow and dark');
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByText(/^Sent to: /)).toBeVisible();
  await expectNoAxeViolations(page, 'the overview tab, narrow and dark');
});
