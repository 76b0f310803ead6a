/**
 * The campaign report (docs/product.md, Routes and screens "Campaign report", sections 4, 7, 8 and 9) through the whole
 * journey on the suite's one-command stack: an audience imported through the wizard, a template and a
 * campaign made and sent through the API with the member's token, each recipient's mail read from the
 * local SES inbox, delivery, bounce and complaint events posted to the webhook as SNS posts them
 * (signed; support/reports.ts), opens, clicks and an unsubscribe made through the recipients' own
 * links, then every tab of the report, the export read back, and the retry and send actions.
 *
 * The tests run in order and share what the first one builds. The browser runs in UTC, so the
 * report's dates read as the ISO times they come from.
 */
import ExcelJS from 'exceljs';
import type { SendStatus } from '@mailroom/api-client';
import { SEND_STATUS_LABELS } from '@mailroom/api-client/labels';
import { expect, test, type Page } from '@playwright/test';
import {
  createAudienceThroughDialog,
  expectImportAccepted,
  openImportWizard,
  pasteThroughWizard,
  signInWithApi,
  toast,
  uniqueName,
  uploadThroughWizard,
  writeFixture,
  type MemberApi,
} from './support/audiences';
import { signInAsMember } from './support/auth';
import {
  collectCspViolations,
  expectNoAxeViolations,
  expectNoAxeViolationsInFrameDocument,
  expectNoOverlappingCells,
} from './support/browser-checks';
import {
  BROWSER_AGENT,
  clickLink,
  createCampaign,
  emailPerformanceTable,
  inbox,
  jobAttempts,
  linksOf,
  mailTo,
  openMail,
  performanceRow,
  postSesEvent,
  postToWebhook,
  readCampaign,
  reportPath,
  sendCampaign,
  sesEvent,
  snsNotification,
  tabTo,
  tableEmails,
  waitUntilSent,
  type CampaignJson,
  type InboxMail,
  type MailLinks,
} from './support/reports';
import { createTemplate } from './support/templates';

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const ADA = 'ada@example.org';
const BEN = 'ben@example.org';
/** An address a spreadsheet would take for a formula: the export must keep it text. */
const FORMULA = '=1+1@example.org';
const CY = 'cy@example.org';
const DEE = 'dee@example.org';
/**
 * A valid contact that SES refuses (the suite's SES treats unverified.example as its sandbox treats
 * an unverified address; an address beyond ASCII before the @ no longer imports as valid): its mail fails.
 */
const ZOE = 'zoe@unverified.example';
const RECIPIENTS = [ADA, BEN, FORMULA, CY, DEE, ZOE];
const MAILED = [ADA, BEN, FORMULA, CY, DEE];

const CONTACTS_CSV = [
  'email,firstName',
  `${ADA},Ada`,
  `${BEN},Ben`,
  `${FORMULA},Formula`,
  `${CY},Cy`,
  `${DEE},Dee`,
  `${ZOE},Zoë`,
  'not-an-email,Broken',
].join('\n');

const NEWS = 'https://example.org/news';
const EVENTS = 'https://example.org/events';
const TEMPLATE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head><body>' +
  '<h1>Hello {{firstName}}</h1>' +
  `<p><a href="${NEWS}">Read the news</a></p>` +
  `<p><a href="${EVENTS}">See the events</a></p>` +
  '<script>window.top.reportScriptRan = true;</script>' +
  '</body></html>';

const HARD_BOUNCE = {
  bounceType: 'Permanent',
  bounceSubType: 'General',
  at: '2026-11-20T09:15:30.000Z',
  diagnosticCode: 'smtp; 550 5.1.1 <=1+1@example.org>: Recipient address rejected: User unknown',
} as const;
const SOFT_BOUNCE = { bounceType: 'Transient', bounceSubType: 'MailboxFull', at: '2026-11-20T09:16:00.000Z' } as const;
const COMPLAINT = { type: 'abuse', at: '2026-11-20T10:00:00.000Z' } as const;

const RETRY_ALL_QUEUED = 'All failed jobs have been queued for retry. Please check the status in a few moments.';
const NOT_SENT_QUEUED = 'All NOT_SENT contacts have been queued for sending. Please check the status in a few moments.';
const JOB_QUEUED = 'The email has been queued for retry. Please check the status in a few moments.';
const CONTACT_QUEUED = 'The email to this contact has been queued for sending. Please check the status in a few moments.';
const NOT_SENT_INFO = 'Showing all NOT_SENT contacts. This may take a moment to load all data.';

/** dayjs 'YYYY-MM-DD HH:mm:ss A' of an ISO time, in the browser's UTC. */
const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} ${Number(iso.slice(11, 13)) < 12 ? 'AM' : 'PM'}`;
/** TruncatedText's cut (docs/product.md, Limits and constants: 30 characters). */
const cut = (text: string) => (text.length > 30 ? `${text.slice(0, 29)}…` : text);

/** The table as docs/product.md's columns read once the events, opens and clicks are in. */
const EXPECTED_ROWS: Record<string, string[]> = {
  [ADA]: [ADA, 'Sent successfully', 'Yes', 'Yes', 'None', '', '', '', '', ''],
  [BEN]: [BEN, 'Sent successfully', 'No', 'Yes', 'None', '', '', '', '', ''],
  [FORMULA]: [FORMULA, 'Sent (waiting Ack)', 'No', 'No', 'HARD', cut(HARD_BOUNCE.diagnosticCode), shown(HARD_BOUNCE.at), '', '', ''],
  [CY]: [CY, 'Sent successfully', 'Yes', 'Yes', 'None', '', '', COMPLAINT.type, shown(COMPLAINT.at), ''],
  [DEE]: [DEE, 'Sent (waiting Ack)', 'No', 'No', 'SOFT', 'Transient: MailboxFull', shown(SOFT_BOUNCE.at), '', '', ''],
  [ZOE]: [ZOE, 'Failed', 'No', 'No', 'None', '', '', '', '', 'Email address is not verified.'],
};

interface PerformanceRowJson {
  id: number | null;
  contactId: number;
  email: string;
  status: SendStatus;
  clicked: boolean;
  opened: boolean;
  bounceType: string | null;
  bounceMessage: string | null;
  bounceTime: string | null;
  complaintType: string | null;
  complaintTime: string | null;
  errorMessage: string | null;
}

interface Journey {
  tag: string;
  campaign: CampaignJson;
  audienceId: number;
  audienceName: string;
  templateId: number;
  subject: string;
  /** The API's rows, by address. */
  rows: Record<string, PerformanceRowJson>;
}

/** The email performance columns (docs/product.md), on the screen and in the export alike. */
const COLUMNS = [
  'Email',
  'Send Status',
  'Clicked',
  'Opened',
  'Bounce Type',
  'Bounce Message',
  'Bounce Time',
  'Complaint Type',
  'Complaint Time',
  'Error Message',
];

let journey: Journey | undefined;
const built = (): Journey => {
  if (!journey) throw new Error('the journey test did not build the campaign');
  return journey;
};

async function performanceRows(api: MemberApi, campaignId: number): Promise<Record<string, PerformanceRowJson>> {
  const response = await api.get(`/api/reports/${campaignId}/email-performance?page=1&limit=50`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: PerformanceRowJson[] };
  return Object.fromEntries(items.map((row) => [row.email, row]));
}

const cellsOf = (page: Page, email: string) => performanceRow(page, email).getByRole('cell');
const sendStatusFilter = (page: Page) => page.getByRole('combobox', { name: 'Send Status' });

test('the journey: audience imported, campaign sent to the local SES inbox, SES events, opens, clicks and an unsubscribe', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const api = await signInWithApi(page);

  // The audience, through the import wizard: six valid contacts and one invalid.
  const audienceName = uniqueName('Report audience');
  const audienceId = await createAudienceThroughDialog(page, audienceName);
  await openImportWizard(page, audienceId);
  await uploadThroughWizard(page, writeFixture(testInfo, 'recipients.csv', CONTACTS_CSV));
  await expectImportAccepted(page, audienceId);
  await expect
    .poll(async () => {
      const { numberOfContacts, numberOfContactsWithErrors, isImporting } = await api.audience(audienceId);
      return { numberOfContacts, numberOfContactsWithErrors, isImporting };
    })
    .toEqual({ numberOfContacts: 7, numberOfContactsWithErrors: 1, isImporting: false });

  // The template and the campaign, as the editors save them.
  const tag = uniqueName('Report');
  const templateId = await createTemplate(api, `${tag} template`);
  expect(
    (
      await api.put(`/api/templates/${templateId}`, { name: `${tag} template`, design: { body: { rows: [] } }, html: TEMPLATE_HTML })
    ).status(),
  ).toBe(200);
  const subject = `${tag} news for {{firstName}}`;
  const campaignId = await createCampaign(api, {
    name: `${tag} campaign`,
    templateId,
    audienceId,
    audienceName,
    subject,
    fromName: 'Mailroom e2e',
  });
  const sent = await sendCampaign(api, campaignId);
  expect(sent).toMatchObject({ status: 'SENT', contactCount: 6, jobsSent: 5, jobsFailed: 1 });

  // The local SES took one mail per valid contact it accepts: merged, tracked, with one-click unsubscribe.
  const mails = await inbox(request, tag);
  // A click within 10 s of the send is a link scanner's (README, people and machines): the people below click later.
  const readable = Date.now() + 11_000;
  expect(mails.map((mail) => mail.to).sort()).toEqual([...MAILED].sort());
  const links = new Map<string, MailLinks>();
  for (const to of MAILED) {
    const mail = mailTo(mails, to);
    const name = { [ADA]: 'Ada', [BEN]: 'Ben', [FORMULA]: 'Formula', [CY]: 'Cy', [DEE]: 'Dee' }[to]!;
    expect(mail.subject).toBe(`${tag} news for ${name}`);
    expect(mail.html).toContain(`<h1>Hello ${name}</h1>`);
    // The links go through the product's click tracking; the template's addresses are not in the mail.
    expect(mail.html).not.toContain(`href="${NEWS}"`);
    const found = linksOf(mail);
    expect(found.clicks).toHaveLength(2);
    expect(mail.headers['List-Unsubscribe']).toBe(`<${found.unsubscribe}>`);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(`Unsubscribe: ${found.unsubscribe}`);
    links.set(to, found);
  }
  const mailOf = (to: string): InboxMail => mailTo(mails, to);
  const linksFor = (to: string): MailLinks => links.get(to)!;

  // SES events, as SNS posts them. Only a signed message of the configured topic is taken.
  const forged = snsNotification(sesEvent.delivery(mailOf(ADA)));
  expect((await postToWebhook(request, { ...forged, Message: JSON.stringify(sesEvent.bounce(mailOf(ADA), HARD_BOUNCE)) })).status()).toBe(
    403,
  );
  expect(
    (
      await postToWebhook(
        request,
        snsNotification(sesEvent.delivery(mailOf(ADA)), { TopicArn: 'arn:aws:sns:us-east-1:123456789012:other' }),
      )
    ).status(),
  ).toBe(403);
  for (const to of [ADA, BEN, CY]) await postSesEvent(request, sesEvent.delivery(mailOf(to)));
  await postSesEvent(request, sesEvent.bounce(mailOf(FORMULA), HARD_BOUNCE));
  await postSesEvent(request, sesEvent.bounce(mailOf(DEE), SOFT_BOUNCE));
  const complaint = snsNotification(sesEvent.complaint(mailOf(CY), COMPLAINT));
  expect((await postToWebhook(request, complaint)).status()).toBe(204);
  // SNS delivers at least once: a MessageId seen before changes nothing, whatever it carries.
  const repeated = snsNotification(sesEvent.complaint(mailOf(CY), { type: 'not-spam', at: '2026-11-21T00:00:00.000Z' }), {
    MessageId: complaint.MessageId,
  });
  expect((await postToWebhook(request, repeated)).status()).toBe(204);

  // Ada opens her mail twice and clicks the news twice and the events once; Ben only opens his.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readable - Date.now())));
  await openMail(request, linksFor(ADA));
  await openMail(request, linksFor(ADA));
  await openMail(request, linksFor(BEN));
  expect(await clickLink(request, linksFor(ADA).clicks[0]!)).toBe(NEWS);
  expect(await clickLink(request, linksFor(ADA).clicks[0]!)).toBe(NEWS);
  // Every link of a mail followed within 5 s is a scanner's burst: Ada reads on before the events.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(await clickLink(request, linksFor(ADA).clicks[1]!)).toBe(EVENTS);
  // A link whose token was changed leads nowhere.
  const forgedClick = linksFor(ADA).clicks[0]!.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
  expect((await request.get(forgedClick, { maxRedirects: 0 })).status()).toBe(404);

  // Cy, in her own browser (images off: no pixel), clicks the news.
  const cysBrowser = await browser.newContext({ userAgent: BROWSER_AGENT });
  try {
    const mailbox = await cysBrowser.newPage();
    // The browser follows the redirect to the news. (The news site itself is out of this machine's
    // reach, and Playwright cannot route a redirect's target: whether its page loads is not asserted.)
    const click = linksFor(CY).clicks[0]!;
    const toNews = mailbox.waitForRequest((r) => r.url() === NEWS);
    await mailbox.goto(click).catch(() => undefined);
    expect((await toNews).redirectedFrom()?.url()).toBe(click);
  } finally {
    await cysBrowser.close();
  }

  // Ben unsubscribes through the link at the foot of his mail.
  const bensBrowser = await browser.newContext();
  try {
    const unsubscribe = await bensBrowser.newPage();
    await unsubscribe.goto(linksFor(BEN).unsubscribe);
    await expect(unsubscribe.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
    await expect(unsubscribe.getByText('Stop receiving emails from Example at this address?')).toBeVisible();
    await expectNoAxeViolations(unsubscribe, 'the unsubscribe page');
    await unsubscribe.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(unsubscribe.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
    await expect(unsubscribe.getByText('You will not receive more emails from Example at this address.')).toBeVisible();
  } finally {
    await bensBrowser.close();
  }

  // Everything is recorded (opens and clicks within a quarter second).
  await expect
    .poll(async () => {
      const rows = await performanceRows(api, campaignId);
      return RECIPIENTS.map((email) => [email, rows[email]?.status, rows[email]?.opened, rows[email]?.clicked, rows[email]?.complaintType]);
    })
    .toEqual([
      [ADA, 'SENT_SUCCESS', true, true, null],
      [BEN, 'SENT_SUCCESS', true, false, null],
      [FORMULA, 'SENT_WAIT_ACK', false, false, null],
      [CY, 'SENT_SUCCESS', true, true, COMPLAINT.type],
      [DEE, 'SENT_WAIT_ACK', false, false, null],
      [ZOE, 'FAILED', false, false, null],
    ]);
  journey = {
    tag,
    campaign: await readCampaign(api, campaignId),
    audienceId,
    audienceName,
    templateId,
    subject,
    rows: await performanceRows(api, campaignId),
  };
});

test('Overview: recipients sent, failed, audience, subject, the start and the html sent, in a sandboxed frame', async ({ page }) => {
  const { campaign, audienceId, audienceName, subject } = built();
  const violations = await collectCspViolations(page);
  await signInAsMember(page);
  await page.goto(reportPath(campaign.id));

  await expect(page.getByRole('heading', { level: 1, name: campaign.name })).toBeVisible();
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(3);
  for (const [index, name] of ['Overview', 'Email Performance', 'Click Performance'].entries()) {
    await expect(tabs.nth(index)).toHaveAccessibleName(name);
  }
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Sent to: 5 / 6 Recipients (1 failed)', { exact: true })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByText('Sent', { exact: true })).toBeVisible();
  // Sending is over: no progress bar.
  await expect(page.getByText('Sending progress')).toHaveCount(0);

  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('term')).toHaveText(['Audience', 'Subject', 'Started']);
  const values = panel.getByRole('definition');
  await expect(values.nth(0).getByRole('link', { name: audienceName })).toHaveAttribute('href', `/audiences/${audienceId}`);
  await expect(values.nth(1)).toHaveText(subject);
  expect(campaign.deliveryDate).toBeTruthy();
  await expect(values.nth(2)).toHaveText(shown(campaign.deliveryDate!));

  // The html as it was sent (links marked with their ids), with an empty sandbox: its script never runs.
  const frame = page.locator('iframe[title="Campaign email"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  expect(await frame.getAttribute('srcdoc')).toMatch(/<a [^>]*data-link-id="\d+"[^>]*>Read the news<\/a>/);
  await expect(page.frameLocator('iframe[title="Campaign email"]').getByRole('heading', { name: 'Hello {{firstName}}' })).toBeVisible();
  expect(await page.evaluate(() => (window as { reportScriptRan?: boolean }).reportScriptRan)).toBeUndefined();

  await expectNoAxeViolations(page, 'the report overview');
  expect(violations, 'Content-Security-Policy violations').toEqual([]);

  // The keyboard moves between the tabs and opens one.
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Email Performance' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(reportPath(campaign.id, 'email-performance'));
  await expect(emailPerformanceTable(page)).toBeVisible();
});

test('Email Performance: the columns, each contact’s facts, every filter, the search and paging; the keyboard reaches every action', async ({
  page,
}) => {
  const { campaign } = built();
  await signInAsMember(page);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  const table = emailPerformanceTable(page);

  await expect(table.getByRole('columnheader')).toHaveText(COLUMNS);
  // In the order they were sent (the file's).
  await expect.poll(() => tableEmails(page)).toEqual(RECIPIENTS);
  for (const email of RECIPIENTS) await expect(cellsOf(page, email), email).toHaveText(EXPECTED_ROWS[email]!);
  await expect(page.getByRole('group', { name: 'Email performance pagination' })).toContainText('1–6 of 6');
  // Only the failed mail has a retry, and nothing is NOT_SENT in this campaign.
  await expect(table.getByRole('button', { name: 'Retry sending this failed email' })).toHaveCount(1);
  await expect(performanceRow(page, ZOE).getByRole('button', { name: 'Retry sending this failed email' })).toBeVisible();
  await expect(table.getByRole('button', { name: 'Send email to this contact' })).toHaveCount(0);

  // The bounce message is cut, the whole of it in a tooltip.
  await cellsOf(page, FORMULA).nth(5).getByText(cut(HARD_BOUNCE.diagnosticCode)).focus();
  await expect(page.getByRole('tooltip')).toHaveText(HARD_BOUNCE.diagnosticCode);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toBeHidden();
  await expectNoOverlappingCells(table);
  await expectNoAxeViolations(page, 'the email performance tab');

  const filter = async (name: string, option: string, expected: string[]) => {
    await page.getByRole('combobox', { name }).selectOption({ label: option });
    await expect.poll(() => tableEmails(page), `${name}: ${option}`).toEqual(expected);
  };
  await filter('Send Status', 'Failed', [ZOE]);
  await filter('Send Status', 'Sent successfully', [ADA, BEN, CY]);
  await filter('Send Status', 'Sent (waiting Ack)', [FORMULA, DEE]);
  await filter('Send Status', 'All', RECIPIENTS);
  await filter('Bounce Type', 'Hard', [FORMULA]);
  await filter('Bounce Type', 'Soft', [DEE]);
  await filter('Bounce Type', 'All', RECIPIENTS);
  await filter('Clicked', 'Yes', [ADA, CY]);
  await filter('Clicked', 'No', [BEN, FORMULA, DEE, ZOE]);
  await filter('Opened', 'Yes', [BEN]);
  await filter('Clicked', 'All', [ADA, BEN, CY]);
  await filter('Opened', 'No', [FORMULA, DEE, ZOE]);
  await filter('Opened', 'All', RECIPIENTS);

  // The email search: debounced, a case-insensitive part of the address.
  const search = page.getByRole('searchbox', { name: 'Search Email' });
  const searched = page.waitForRequest((r) => new URL(r.url()).searchParams.get('email') === 'BEN@');
  await search.fill('BEN@');
  await searched;
  await expect.poll(() => tableEmails(page)).toEqual([BEN]);
  await search.fill('nobody-has-this');
  await expect(table.locator('tbody tr')).toHaveText(['No data available']);
  await search.fill('');
  await expect.poll(() => tableEmails(page)).toEqual(RECIPIENTS);

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
  await expect.poll(() => tableEmails(page)).toEqual(RECIPIENTS.slice(0, 5));
  await pagination.getByRole('button', { name: 'Next page' }).click();
  await expect(pagination).toContainText('6–6 of 6');
  await expect.poll(() => tableEmails(page)).toEqual([ZOE]);
  await pagination.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
  await expect.poll(() => tableEmails(page)).toEqual(RECIPIENTS);

  // From the search box, the keyboard reaches the filters, the three actions and the row's retry, in order.
  await search.focus();
  const passed = await tabTo(page, page.getByRole('button', { name: 'Export' }));
  expect(passed.length, `passed on the way: ${passed.join(' | ')}`).toBeGreaterThanOrEqual(4);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Retry All Failed' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Send to all NOT_SENT contacts' })).toBeFocused();
  await tabTo(page, performanceRow(page, ZOE).getByRole('button', { name: 'Retry sending this failed email' }));
});

test('Email Performance: Export downloads the rows of the filters as email-performance-{id}.xlsx, every value a text cell', async ({
  page,
}, testInfo) => {
  const { campaign, rows } = built();
  await signInAsMember(page);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  await expect.poll(() => tableEmails(page)).toEqual(RECIPIENTS);

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
  expect(values(sheet)).toEqual([COLUMNS, ...RECIPIENTS.map(expected)]);
  // The facts themselves, not only the API's word for them.
  expect(values(sheet)[3]).toEqual([
    FORMULA,
    'Sent (waiting Ack)',
    'No',
    'No',
    'HARD',
    HARD_BOUNCE.diagnosticCode,
    HARD_BOUNCE.at,
    '',
    '',
    '',
  ]);
  // The export words each row as the screen does: Send Status, Clicked, Opened and Bounce Type cell for cell.
  for (const [n, email] of RECIPIENTS.entries())
    expect({ email, cells: values(sheet)[n + 1]!.slice(1, 5) }).toEqual({
      email,
      cells: (await cellsOf(page, email).allTextContents()).slice(1, 5),
    });
  // '=1+1@…' is text to the spreadsheet, never a formula; so is every other cell.
  const formula = sheet.getRow(4).getCell(1);
  expect(formula.formula).toBeUndefined();
  expect([ExcelJS.ValueType.String, ExcelJS.ValueType.RichText]).toContain(formula.type);
  sheet.eachRow((row) =>
    row.eachCell((cell) => expect([ExcelJS.ValueType.String, ExcelJS.ValueType.RichText], `cell ${cell.address}`).toContain(cell.type)),
  );

  // The filters of the screen go with it.
  await page.getByRole('combobox', { name: 'Bounce Type' }).selectOption({ label: 'Hard' });
  await expect.poll(() => tableEmails(page)).toEqual([FORMULA]);
  const hard = await exportRows('hard.xlsx');
  expect(values(hard).slice(1)).toEqual([expected(FORMULA)]);
});

test('Click Performance: each link with its total and unique clicks; the click map marks the links and shows their details', async ({
  page,
}) => {
  const { campaign } = built();
  const violations = await collectCspViolations(page);
  const api = await signInWithApi(page);
  const links = (await (await api.get(`/api/reports/${campaign.id}/clicks`)).json()) as {
    id: number;
    href: string;
    clicks: number;
    uniqueClicks: number;
    humanClicks: number;
    humanUniqueClicks: number;
  }[];
  expect(links.map(({ href, clicks, uniqueClicks }) => ({ href, clicks, uniqueClicks }))).toEqual([
    { href: NEWS, clicks: 3, uniqueClicks: 2 },
    { href: EVENTS, clicks: 1, uniqueClicks: 1 },
  ]);
  const newsId = links[0]!.id;

  await page.goto(reportPath(campaign.id, 'click-performance'));
  await expect(page.getByRole('heading', { level: 2, name: 'Links in this email' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Links in this email' });
  await expect(table.getByRole('columnheader')).toHaveText(['URL', 'Total Clicks', 'Unique Clicks']);
  // Under each count, how many of them people made (an addition; the journey's people read as people).
  const people = links.map((link) => [`${link.humanClicks} by people`, `${link.humanUniqueClicks} by people`]);
  await expect(table.locator('tbody tr').nth(0).getByRole('cell')).toHaveText([
    NEWS,
    `3 (75.0%)${people[0]![0]}`,
    `2 (66.7%)${people[0]![1]}`,
  ]);
  await expect(table.locator('tbody tr').nth(1).getByRole('cell')).toHaveText([
    EVENTS,
    `1 (25.0%)${people[1]![0]}`,
    `1 (33.3%)${people[1]![1]}`,
  ]);
  await expectNoAxeViolations(page, 'the click performance tab');

  // The keyboard opens the map.
  const open = page.getByRole('button', { name: 'View Click Map' });
  await page.getByRole('tab', { name: 'Click Performance' }).focus();
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Click Map' });
  await expect(dialog).toBeVisible();
  const frameElement = dialog.locator('iframe[title="Click map"]');
  await expect(frameElement).toHaveAttribute('sandbox', '');
  const map = page.frameLocator('iframe[title="Click map"]');

  // Each link carries its clicks and share, and the id of its campaign link.
  const news = map.getByRole('link', { name: /Read the news/ });
  await expect(news).toHaveAttribute('data-link-id', String(newsId));
  await expect(news).toContainText('3 clicks · 75.0%');
  await expect(map.getByRole('link', { name: /See the events/ })).toContainText('1 click · 25.0%');
  // Nothing of the template runs there either.
  await expect(map.locator('script')).toHaveCount(0);

  // Without a selection, the Click Summary: a bar per link.
  const summary = map.getByRole('region', { name: 'Click Summary' });
  await expect(summary.getByRole('listitem')).toHaveText([`${NEWS}3 clicks (75.0%)`, `${EVENTS}1 click (25.0%)`]);
  await expect(map.getByRole('region', { name: 'Link Details' })).toHaveCount(0);

  // Pointing at a link highlights it; selecting it shows its details.
  await news.hover();
  await expect(news).toHaveCSS('outline-style', 'solid');
  await news.click();
  const details = map.getByRole('region', { name: 'Link Details' });
  await expect(details).toBeVisible();
  await expect(details.getByRole('term')).toHaveText(['URL', 'Total Clicks', '% of all clicks', 'Unique Clicks', '% of all unique clicks']);
  await expect(details.getByRole('definition')).toHaveText([NEWS, '3', '75.0%', '2', '66.7%']);
  await expect(summary).toBeHidden();
  await details.getByRole('link', { name: 'Back to Click Summary' }).click();
  await expect(summary).toBeVisible();
  await expect(map.getByRole('region', { name: 'Link Details' })).toHaveCount(0);

  await expectNoAxeViolations(page, 'the click map');
  await expectNoAxeViolationsInFrameDocument(frameElement, 'the click map document');
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('Email Performance: a failed mail retried from its row and by Retry All Failed; SES refuses it again', async ({ page }) => {
  const { campaign, rows } = built();
  const zoe = rows[ZOE]!;
  expect(zoe.id).not.toBeNull();
  const api = await signInWithApi(page);
  expect(await jobAttempts(zoe.id!)).toBe(1);
  await page.goto(reportPath(campaign.id, 'email-performance'));
  const retry = performanceRow(page, ZOE).getByRole('button', { name: 'Retry sending this failed email' });
  await expect(retry).toBeVisible();

  // The row's retry, by keyboard.
  const retried = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/reports/${campaign.id}/retry-job/${zoe.id}`,
  );
  await retry.focus();
  await page.keyboard.press('Enter');
  expect((await retried).status()).toBe(202);
  await expect(toast(page, JOB_QUEUED)).toBeVisible();
  await expect.poll(() => jobAttempts(zoe.id!), { message: 'the mail was handed to SES again' }).toBe(2);
  await waitUntilSent(api, campaign.id);
  await expect(cellsOf(page, ZOE)).toHaveText(EXPECTED_ROWS[ZOE]!, { timeout: 15_000 });

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
  await expect.poll(() => jobAttempts(zoe.id!), { message: 'the mail was handed to SES again' }).toBe(3);
  await waitUntilSent(api, campaign.id);
  await expect(cellsOf(page, ZOE)).toHaveText(EXPECTED_ROWS[ZOE]!, { timeout: 15_000 });

  // Still one failed, nothing else changed, and SES kept no mail to the refused address.
  expect(await readCampaign(api, campaign.id)).toMatchObject({ contactCount: 6, jobsSent: 5, jobsFailed: 1 });
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByText('Sent to: 5 / 6 Recipients (1 failed)', { exact: true })).toBeVisible();
  expect((await inbox(page.request, built().tag)).filter((mail) => mail.to === ZOE)).toEqual([]);
});

test('NOT_SENT: contacts imported after the send are sent one by one and all at once; suppressed addresses are not', async ({
  page,
  request,
}) => {
  const { templateId } = built();
  const api = await signInWithApi(page);

  // A campaign sent to an audience that has no contacts yet...
  const lateName = uniqueName('Late audience');
  const lateId = await createAudienceThroughDialog(page, lateName);
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
  const late = [BEN, FORMULA, CY, DAN, EVE, FAY];
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
    [BEN]: 'Suppressed (unsubscribed)',
    [FORMULA]: 'Suppressed (hard bounce)',
    [CY]: 'Suppressed (complaint)',
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
  await expect.poll(() => tableEmails(page)).toEqual([BEN, FORMULA, CY, EVE, FAY]);

  // Send to all NOT_SENT asks first, then sends to everyone left but the suppressed.
  const sendAll = page.getByRole('button', { name: 'Send to all NOT_SENT contacts' });
  await sendAll.click();
  const dialog = page.getByRole('alertdialog', { name: 'Send to NOT_SENT Contacts' });
  await expect(dialog).toContainText('Every valid contact of the audience that has not been sent this campaign yet will be queued.');
  await expect(dialog.getByRole('button')).toHaveText(['Cancel', 'Send to NOT_SENT']);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => tableEmails(page)).toEqual([BEN, FORMULA, CY, EVE, FAY]);
  await sendAll.click();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/reports/${campaignId}/send-to-not-sent`);
  await dialog.getByRole('button', { name: 'Send to NOT_SENT' }).click();
  expect((await answered).status()).toBe(202);
  await expect(
    toast(page, `${NOT_SENT_QUEUED} 2 emails queued, 3 suppressed contacts skipped (unsubscribed, bounced or complained).`),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => tableEmails(page)).toEqual([BEN, FORMULA, CY]);

  // The new contacts got the mail; the suppressed did not.
  expect(await waitUntilSent(api, campaignId)).toMatchObject({ contactCount: 3, jobsSent: 3, jobsFailed: 0 });
  await expect.poll(async () => (await inbox(request, tag)).map((mail) => mail.to).sort()).toEqual([DAN, EVE, FAY]);
  await sendStatusFilter(page).selectOption({ label: 'All' });
  await expect.poll(() => tableEmails(page), { timeout: 15_000 }).toEqual([DAN, EVE, FAY]);
  for (const email of [DAN, EVE, FAY]) await expect(cellsOf(page, email).nth(1)).toHaveText('Sent (waiting Ack)', { timeout: 15_000 });
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByText('Sent to: 3 / 3 Recipients (0 failed)', { exact: true })).toBeVisible();
});

test('the report works at 390 px wide in the dark theme: tabs, the email performance table and its actions', async ({ page }) => {
  const { campaign } = built();
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
