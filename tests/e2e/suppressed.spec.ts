/**
 * Suppressed contacts, from the member's side: two people of an audience unsubscribe through their
 * mail's one-click link, then a new campaign goes to that audience. The send confirmation keeps the
 * spec's count and says how many of those are suppressed and skipped; the report's NOT_SENT shows
 * them as Suppressed with the reason and no send action; the bulk actions say what they queued and
 * skipped, or that there was nothing to do.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi, toast, uniqueName } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import { authorizedSenders, people, seedAudience, seedCampaign, seedTemplate, uniqueTag } from './support/campaigns';
import {
  createCampaign,
  emailPerformanceTable,
  inbox,
  linksOf,
  mailTo,
  performanceRow,
  readCampaign,
  reportPath,
  sendCampaign,
  tableEmails,
  waitUntilSent,
} from './support/reports';

test.use({ timezoneId: 'UTC' });

test('two unsubscribed contacts: counted in the send confirmation, Suppressed in NOT_SENT, skipped by the bulk action', async ({
  page,
  request,
}) => {
  const api = await signInWithApi(page);
  const tag = uniqueTag();
  const audience = await seedAudience(api, uniqueName('Suppressed audience'), people(tag, 5));
  const [stays, , quitter1, quitter2] = people(tag, 5);
  const templateId = await seedTemplate(api, `${tag} template`);

  // A first campaign reaches everyone; two of them unsubscribe with their mail's one-click link (RFC 8058).
  const first = `${tag} first`;
  await sendCampaign(
    api,
    await createCampaign(api, {
      name: first,
      templateId,
      audienceId: audience.id,
      audienceName: audience.name,
      subject: `${first} for {{firstName}}`,
      fromName: 'Mailroom e2e',
    }),
  );
  await expect.poll(async () => (await inbox(request, first)).length, { timeout: 30_000 }).toBe(5);
  const mails = await inbox(request, first);
  for (const person of [quitter1!, quitter2!]) {
    const { unsubscribe } = linksOf(mailTo(mails, person.email));
    const answer = await request.post(unsubscribe, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(answer.ok(), `unsubscribe ${person.email}`).toBeTruthy();
  }

  // A new campaign to the same audience, sent from the editor.
  const second = `${tag} second`;
  const [sender] = await authorizedSenders(api);
  const id = await seedCampaign(api, second, {
    audienceId: audience.id,
    templateId,
    fromName: 'Mailroom e2e',
    fromEmail: sender!,
    subject: `${second} for {{firstName}}`,
  });
  await page.goto(`/campaigns/edit/${id}`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Send campaign' });
  // The spec's count (numberOfContacts minus numberOfContactsWithErrors), then the suppressed among them.
  await expect(confirm).toContainText(`This campaign will be sent to 5 contacts of “${audience.name}”. Send it now?`);
  await expect(confirm).toContainText('2 of them are suppressed and will be skipped (2 unsubscribed).');
  await expectNoAxeViolations(page, 'the send confirmation with suppressed contacts');
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  expect(await waitUntilSent(api, id)).toMatchObject({ contactCount: 3, jobsSent: 3 });
  await expect.poll(async () => (await inbox(request, second)).map((mail) => mail.to).sort()).toHaveLength(3);
  expect((await inbox(request, second)).map((mail) => mail.to)).not.toContain(quitter1!.email);

  // The report: the two are NOT_SENT, shown as Suppressed with the reason, with no send action.
  await page.goto(reportPath(id, 'email-performance'));
  await expect(emailPerformanceTable(page)).toBeVisible();
  await page.getByRole('combobox', { name: 'Send Status' }).selectOption({ label: 'NOT_SENT' });
  await expect.poll(() => tableEmails(page)).toEqual([quitter1!.email, quitter2!.email]);
  for (const person of [quitter1!, quitter2!]) {
    const row = performanceRow(page, person.email);
    await expect(row.getByRole('cell').nth(1)).toHaveText('Suppressed (unsubscribed)');
    await expect(row.getByRole('button')).toHaveCount(0);
  }
  await expectNoAxeViolations(page, 'the suppressed NOT_SENT contacts');

  // Send to all NOT_SENT: nothing to queue, both skipped, and the toast says so.
  await page.getByRole('button', { name: 'Send to all NOT_SENT contacts' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Send to NOT_SENT Contacts' });
  await expect(dialog).toContainText('Suppressed contacts (unsubscribed, bounced or complained) are skipped.');
  await dialog.getByRole('button', { name: 'Send to NOT_SENT' }).click();
  await expect(
    toast(page, 'No NOT_SENT contact was queued. 0 emails queued, 2 suppressed contacts skipped (unsubscribed, bounced or complained).'),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // Retry All Failed with nothing failed says there was nothing to retry.
  await page.getByRole('button', { name: 'Retry All Failed' }).click();
  await page.getByRole('alertdialog', { name: 'Retry All Failed Jobs' }).getByRole('button', { name: 'Retry All' }).click();
  await expect(toast(page, 'There were no failed emails to retry.')).toBeVisible();

  // Nothing more was sent: the one who stayed got one mail of this campaign, the others none.
  expect(await readCampaign(api, id)).toMatchObject({ status: 'SENT', contactCount: 3, jobsSent: 3 });
  expect((await inbox(request, second)).filter((mail) => mail.to === stays!.email)).toHaveLength(1);
  await expect.poll(() => tableEmails(page)).toEqual([quitter1!.email, quitter2!.email]);
});
