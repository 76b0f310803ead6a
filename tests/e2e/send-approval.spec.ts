/**
 * Send approval (issue 27), in Chromium against the whole stack, which global-setup starts with
 * SEND_APPROVAL_ABOVE=40: Mia's campaign to an audience of 41 offers 'Request approval' instead of Send,
 * then waits read-only as AWAITING_APPROVAL; Mia cannot approve it herself; Sam, a second member of the
 * domain (the embedded provider's sam@example.org), finds it under /campaigns?status=awaiting, reads its
 * preview, audience and count, and approves it; it is sent through the stack's worker, and Mia is told by
 * mail. Mia at 1280 px in the light theme, Sam at 390 px in the dark one, with axe at every step.
 */
import { expect, test, type Browser } from '@playwright/test';
import { signInWithApi, toast, uniqueName, type MemberApi } from './support/audiences';
import { MEMBER, SECOND_MEMBER } from './support/auth';
import { expectNoAxeViolations } from './support/browser-checks';
import { authorizedSenders, readCampaign, seedCampaign, seedTemplate, uniqueTag, waitForStatus } from './support/campaigns';
import { mailsTo } from './support/local-ses';

/** One more than the stack's SEND_APPROVAL_ABOVE (global-setup.ts). */
const ABOVE_THRESHOLD = 41;

/** An audience of `count` valid contacts `<tag>-<n>@example.org`, imported through the upload call. */
async function seedLargeAudience(api: MemberApi, name: string, tag: string, count: number) {
  const id = await api.createAudience(name);
  const csv = ['email,firstName,city', ...Array.from({ length: count }, (_, n) => `${tag}-${n}@example.org,Person${n},Town${n}`)];
  const uploaded = await api.postForm(`/api/audiences/${id}/import/file?type=csv`, {
    file: { name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv.join('\n')}\n`) },
  });
  expect(uploaded.status(), `import into audience ${id}`).toBe(202);
  await expect
    .poll(async () => {
      const audience = await api.audience(id);
      return audience.isImporting ? 'importing' : `${audience.numberOfContacts} contacts`;
    })
    .toBe(`${count} contacts`);
  return { id, name };
}

/** Sam, signed in a browser context of his own, at 390 px in the dark theme. */
async function signInSam(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('mailroom.theme', 'dark'));
  const api = await signInWithApi(page, SECOND_MEMBER);
  return { context, page, api };
}

test('a campaign to a large audience is requested by one member, approved by another, and sent', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const mia = await signInWithApi(page);
  const name = uniqueName('Approval');
  const tag = uniqueTag();
  const audience = await seedLargeAudience(mia, `${name} audience`, tag, ABOVE_THRESHOLD);
  const templateId = await seedTemplate(mia, `${name} template`);
  const [sender] = await authorizedSenders(mia);
  const id = await seedCampaign(mia, name, {
    audienceId: audience.id,
    templateId,
    fromName: 'Mailroom E2E',
    fromEmail: sender!,
    subject: 'Approved news for {{firstName}}',
  });

  // Mia's editor: Request approval instead of Send and Schedule, the same save, checks and count.
  await page.goto(`/campaigns/edit/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Draft Email' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Request approval to schedule' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Schedule', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'the editor of a campaign that needs approval');
  // By the keyboard, as any action of the editor.
  await page.getByRole('button', { name: 'Request approval', exact: true }).focus();
  await page.keyboard.press('Enter');
  const request = page.getByRole('alertdialog', { name: 'Request approval' });
  await expect(request).toContainText(
    `Once another member approves it, this campaign will be sent to ${ABOVE_THRESHOLD} contacts of “${audience.name}”.`,
  );
  await expectNoAxeViolations(page, 'the request confirmation');
  await request.getByRole('button', { name: 'Request approval' }).click();
  await expect(toast(page, `Approval of ${name} is requested; another member can approve it`)).toBeVisible();

  // Waiting: read-only, and its requester may only withdraw it.
  await expect(page.getByRole('heading', { level: 1, name: 'Campaign' })).toBeVisible();
  await expect(page.getByText('Awaiting approval', { exact: true })).toBeVisible();
  await expect(page.getByText(`${MEMBER.email} asked on`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Campaign name' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Withdraw request' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'the waiting campaign, as its requester sees it');
  expect((await readCampaign(mia, id)).status).toBe('AWAITING_APPROVAL');
  // Nor can she approve it by the API.
  const own = await mia.post(`/api/campaigns/${id}/approve`);
  expect(own.status()).toBe(403);
  expect(((await own.json()) as { message: string }).message).toBe(
    'You asked for this approval: another member must approve or decline it.',
  );

  // Sam finds it among the waiting requests.
  const sam = await signInSam(browser);
  try {
    await sam.page.goto('/campaigns?status=awaiting');
    await expect(sam.page.getByRole('button', { name: 'Awaiting approval' })).toHaveAttribute('aria-pressed', 'true');
    const row = sam.page.getByRole('row').filter({ hasText: name });
    await expect(row.getByText(`Requested by ${MEMBER.email}`)).toBeVisible();
    await expectNoAxeViolations(sam.page, 'the waiting requests at 390 px, dark');
    await row.getByRole('link', { name: `Review ${name}` }).click();

    // He reads it: the preview of a recipient's copy, the audience and the count, then approves.
    await expect(sam.page.getByRole('heading', { level: 1, name: 'Campaign' })).toBeVisible();
    await expect(sam.page.getByText(`${MEMBER.email} asked on`)).toBeVisible();
    await expect(sam.page.getByRole('button', { name: 'Withdraw request' })).toHaveCount(0);
    await expectNoAxeViolations(sam.page, 'the waiting campaign, as the reviewer sees it');
    await sam.page.getByRole('button', { name: 'Preview Campaign' }).click();
    const preview = sam.page.getByRole('dialog', { name: 'Preview Campaign' });
    await expect(preview).toContainText(audience.name);
    await expect(preview.locator('iframe')).toHaveAttribute('title', `Email as ${tag}-0@example.org receives it`);
    await sam.page.keyboard.press('Escape');
    await expect(preview).toBeHidden();

    await sam.page.getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = sam.page.getByRole('alertdialog', { name: 'Approve campaign' });
    await expect(approve).toContainText(
      `This campaign will be sent to ${ABOVE_THRESHOLD} contacts of “${audience.name}”. Approve and send it now?`,
    );
    await expectNoAxeViolations(sam.page, 'the approval confirmation');
    await approve.getByRole('button', { name: 'Approve and send' }).click();
    await expect(sam.page).toHaveURL(/\/campaigns$/);
    await expect(toast(sam.page, 'Approved: The campaign is being sent.')).toBeVisible();

    // Sent through the worker to every contact, the approval logged under Sam (read by Mia, an admin: a sender reads
    // only their own entries).
    const sent = await waitForStatus(sam.api, id, 'SENT', 60_000);
    expect(sent.jobsSent).toBe(ABOVE_THRESHOLD);
    const log = await mia.get(`/api/activity?objectType=campaign&objectId=${id}`);
    const kinds = ((await log.json()) as { items: { kind: string; memberEmail: string }[] }).items.map((e) => `${e.kind} ${e.memberEmail}`);
    expect(kinds).toEqual(
      expect.arrayContaining([`request-approval ${MEMBER.email}`, `approve ${SECOND_MEMBER.email}`, `send ${SECOND_MEMBER.email}`]),
    );
  } finally {
    await sam.context.close();
  }

  // Mia is told by mail; every contact got the campaign.
  await expect.poll(async () => (await mailsTo([MEMBER.email])).filter((mail) => mail.subject === `Approved: ${name}`).length).toBe(1);
  const approved = (await mailsTo([MEMBER.email])).find((mail) => mail.subject === `Approved: ${name}`)!;
  expect(approved.body.text).toContain(`${SECOND_MEMBER.email} approved`);
  const recipients = Array.from({ length: ABOVE_THRESHOLD }, (_, n) => `${tag}-${n}@example.org`);
  expect((await mailsTo(recipients)).length).toBe(ABOVE_THRESHOLD);
});
