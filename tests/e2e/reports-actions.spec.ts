/**
 * The campaign report's retry and send actions (docs/product.md, Campaign report, 2) on the report's
 * journey (support/report-journey.ts): its failed mail retried from its row and by Retry All Failed (SES
 * refuses it again, so the journey reads as before for the other files), and a campaign of its own whose
 * contacts came after the send, sent from a row and by 'Send to all NOT_SENT contacts', the journey's
 * unsubscribed, bounced and complaining addresses left out.
 */
import {
  createAudienceThroughDialog,
  expectImportAccepted,
  openImportWizard,
  pasteThroughWizard,
  signInWithApi,
  toast,
  uniqueName,
} from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { NOT_SENT_INFO, cellsOf, expect, expectedRows, sendStatusFilter, test } from './support/report-journey';
import {
  createCampaign,
  emailPerformanceTable,
  inbox,
  jobAttempts,
  performanceRow,
  readCampaign,
  reportPath,
  sendCampaign,
  tableEmails,
  waitUntilSent,
} from './support/reports';

test.use({ timezoneId: 'UTC' });

const RETRY_ALL_QUEUED = 'All failed jobs have been queued for retry. Please check the status in a few moments.';
const NOT_SENT_QUEUED = 'All NOT_SENT contacts have been queued for sending. Please check the status in a few moments.';
const JOB_QUEUED = 'The email has been queued for retry. Please check the status in a few moments.';
const CONTACT_QUEUED = 'The email to this contact has been queued for sending. Please check the status in a few moments.';

test('Email Performance: a failed mail retried from its row and by Retry All Failed; SES refuses it again', async ({ page, journey }) => {
  const { campaign, rows, people } = journey;
  const { zoe } = people;
  const zoeRow = rows[zoe]!;
  expect(zoeRow.id).not.toBeNull();
  const api = await signInWithApi(page);
  expect(await jobAttempts(zoeRow.id!)).toBe(1);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  const retry = performanceRow(page, zoe).getByRole('button', { name: 'Retry sending this failed email' });
  await expect(retry).toBeVisible();

  // The row's retry, by keyboard.
  const retried = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/reports/${campaign.id}/retry-job/${zoeRow.id}`,
  );
  await retry.focus();
  await page.keyboard.press('Enter');
  expect((await retried).status()).toBe(202);
  await expect(toast(page, JOB_QUEUED)).toBeVisible();
  await expect.poll(() => jobAttempts(zoeRow.id!), { message: 'the mail was handed to SES again' }).toBe(2);
  await waitUntilSent(api, campaign.id);
  await expect(cellsOf(page, zoe)).toHaveText(expectedRows(people)[zoe]!, { timeout: 15_000 });

  // Retry All Failed asks first; Cancel asks nothing of the server.
  const retryAllPosts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === `/api/reports/${campaign.id}/retry-all-failed-jobs`)
      retryAllPosts.push(r.url());
  });
  await page.getByRole('button', { name: 'Retry All Failed' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Retry All Failed Jobs' });
  await expect(dialog).toContainText('Every failed email of this campaign will be queued to be sent again.');
  await expect(dialog.getByRole('button')).toHaveText(['Cancel', 'Retry All']);
  // Nothing half faded while axe measures contrast.
  await expect(toast(page, JOB_QUEUED)).toBeHidden({ timeout: 10_000 });
  await expectNoAxeViolations(page, 'the Retry All Failed Jobs dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(retryAllPosts).toEqual([]);

  await page.getByRole('button', { name: 'Retry All Failed' }).click();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/reports/${campaign.id}/retry-all-failed-jobs`);
  await dialog.getByRole('button', { name: 'Retry All' }).click();
  expect((await answered).status()).toBe(202);
  await expect(toast(page, RETRY_ALL_QUEUED)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(retryAllPosts).toHaveLength(1);
  await expect.poll(() => jobAttempts(zoeRow.id!), { message: 'the mail was handed to SES again' }).toBe(3);
  await waitUntilSent(api, campaign.id);
  await expect(cellsOf(page, zoe)).toHaveText(expectedRows(people)[zoe]!, { timeout: 15_000 });

  // Still one failed, nothing else changed, and SES kept no mail to the refused address.
  expect(await readCampaign(api, campaign.id)).toMatchObject({ contactCount: 6, jobsSent: 5, jobsFailed: 1 });
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByText('Sent to: 5 / 6 Recipients (1 failed)', { exact: true })).toBeVisible();
  expect((await inbox(page.request, journey.tag)).filter((mail) => mail.to === zoe)).toEqual([]);
});

test('NOT_SENT: contacts imported after the send are sent one by one and all at once; suppressed addresses are not', async ({
  page,
  request,
  journey,
}) => {
  const { templateId, people } = journey;
  const { ben, formula, cy } = people;
  const api = await signInWithApi(page);

  // A campaign sent to an audience that has no contacts yet...
  const lateName = uniqueName('Late audience');
  const lateId = await createAudienceThroughDialog(page, lateName);
  // The template greets by {{firstName}}: an audience without that field is refused at Send, so the member
  // gives the empty audience its field first, as the import below fills it.
  const field = await api.post(`/api/audiences/${lateId}/fields`, { key: 'firstName', label: 'First name', type: 'TEXT' });
  expect(field.status(), 'POST /api/audiences/{id}/fields').toBe(201);
  const tag = uniqueName('Late');
  const campaignId = await createCampaign(api, {
    name: `${tag} campaign`,
    templateId,
    audienceId: lateId,
    audienceName: lateName,
    subject: `${tag} for {{firstName}}`,
    fromName: 'Mailroom e2e',
  });
  expect(await sendCampaign(api, campaignId)).toMatchObject({ status: 'SENT', contactCount: 0, jobsSent: 0 });

  // ...whose contacts come after: three who unsubscribed, bounced for good or complained, and three new ones.
  const DAN = 'dan@example.org';
  const EVE = 'eve@example.org';
  const FAY = 'fay@example.org';
  const late = [ben, formula, cy, DAN, EVE, FAY];
  await openImportWizard(page, lateId);
  await pasteThroughWizard(page, ['Email\tfirstName', ...late.map((email) => `${email}\t${email.split('@')[0]}`)].join('\n'));
  await expectImportAccepted(page, lateId);
  await expect.poll(async () => (await api.audience(lateId)).numberOfContacts).toBe(late.length);

  await page.goto(reportPath(campaignId, 'email-performance'));
  const table = emailPerformanceTable(page);
  await expect(table.locator('tbody tr')).toHaveText(['No data available']);
  await sendStatusFilter(page).selectOption({ label: 'NOT_SENT' });
  await expect(page.getByText(NOT_SENT_INFO)).toBeVisible();
  await expect.poll(() => tableEmails(page)).toEqual(late);
  // The suppressed read as such, with the reason, and offer no send (the API would refuse it).
  const suppressed: Record<string, string> = {
    [ben]: 'Suppressed (unsubscribed)',
    [formula]: 'Suppressed (hard bounce)',
    [cy]: 'Suppressed (complaint)',
  };
  for (const email of late) {
    await expect(cellsOf(page, email)).toHaveText([email, suppressed[email] ?? 'NOT_SENT', 'No', 'No', 'None', '', '', '', '', '']);
    await expect(performanceRow(page, email).getByRole('button', { name: 'Send email to this contact' })).toHaveCount(
      email in suppressed ? 0 : 1,
    );
  }
  await expectNoAxeViolations(page, 'the NOT_SENT contacts');

  // A new contact is sent from its row.
  await performanceRow(page, DAN).getByRole('button', { name: 'Send email to this contact' }).click();
  await expect(toast(page, CONTACT_QUEUED)).toBeVisible();
  await expect.poll(() => tableEmails(page)).toEqual([ben, formula, cy, EVE, FAY]);

  // Send to all NOT_SENT asks first, then sends to everyone left but the suppressed.
  const sendAll = page.getByRole('button', { name: 'Send to all NOT_SENT contacts' });
  await sendAll.click();
  const dialog = page.getByRole('alertdialog', { name: 'Send to NOT_SENT Contacts' });
  await expect(dialog).toContainText('Every valid contact of the audience that has not been sent this campaign yet will be queued.');
  await expect(dialog.getByRole('button')).toHaveText(['Cancel', 'Send to NOT_SENT']);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => tableEmails(page)).toEqual([ben, formula, cy, EVE, FAY]);
  await sendAll.click();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/reports/${campaignId}/send-to-not-sent`);
  await dialog.getByRole('button', { name: 'Send to NOT_SENT' }).click();
  expect((await answered).status()).toBe(202);
  await expect(
    toast(page, `${NOT_SENT_QUEUED} 2 emails queued, 3 suppressed contacts skipped (unsubscribed, bounced or complained).`),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => tableEmails(page)).toEqual([ben, formula, cy]);

  // The new contacts got the mail; the suppressed did not.
  expect(await waitUntilSent(api, campaignId)).toMatchObject({ contactCount: 3, jobsSent: 3, jobsFailed: 0 });
  await expect.poll(async () => (await inbox(request, tag)).map((mail) => mail.to).sort()).toEqual([DAN, EVE, FAY]);
  await sendStatusFilter(page).selectOption({ label: 'All' });
  await expect.poll(() => tableEmails(page), { timeout: 15_000 }).toEqual([DAN, EVE, FAY]);
  for (const email of [DAN, EVE, FAY]) await expect(cellsOf(page, email).nth(1)).toHaveText('Sent (waiting Ack)', { timeout: 15_000 });
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByText('Sent to: 3 / 3 Recipients (0 failed)', { exact: true })).toBeVisible();
});
