/**
 * The campaign report's journey (docs/product.md, Campaign report), shared by the report's e2e files
 * (reports-overview, reports-email-performance, reports-click-performance, reports-actions) as a
 * worker fixture: built once for the worker by the first test that asks for it, whichever file that is.
 *
 * An audience imported through the wizard, a template and a campaign made and sent through the API
 * with the member's token, each recipient's mail read from the local SES inbox, delivery, bounce and
 * complaint events posted to the webhook as SNS posts them (signed; support/reports.ts), opens, clicks
 * and an unsubscribe made through the recipients' own links. What the journey itself must get right
 * (the mails merged and tracked, forged SNS posts and clicks refused, the unsubscribe page) is checked
 * on the way.
 *
 * The recipients' addresses are the journey's own: a worker started again after a failure builds
 * another journey, which an earlier one's unsubscribe, bounce and complaint do not touch. The tests
 * run in UTC, so the report's dates read as the ISO times they come from.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SendStatus } from '@mailroom/api-client';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import {
  createAudienceThroughDialog,
  expectImportAccepted,
  openImportWizard,
  signInWithApi,
  uniqueName,
  uploadThroughWizard,
  type MemberApi,
} from './audiences';
import { expectNoAxeViolations } from './browser-checks';
import {
  BROWSER_AGENT,
  clickLink,
  createCampaign,
  inbox,
  linksOf,
  mailTo,
  openMail,
  performanceRow,
  postSesEvent,
  postToWebhook,
  readCampaign,
  sendCampaign,
  sesEvent,
  snsNotification,
  type CampaignJson,
  type InboxMail,
  type MailLinks,
} from './reports';
import { baseURL } from './stack';
import { createTemplate } from './templates';

export { expect };

/** The journey's recipients; `formula` is an address a spreadsheet would take for a formula: the export must keep it text. */
export interface Recipients {
  ada: string;
  ben: string;
  formula: string;
  cy: string;
  dee: string;
  /**
   * A valid contact that SES refuses (the suite's SES treats unverified.example as its sandbox treats
   * an unverified address): its mail fails.
   */
  zoe: string;
  /** All six, in the file's order (the order they were sent in). */
  all: string[];
  /** Those SES took a mail for. */
  mailed: string[];
}

/** Six addresses of one journey (`id`: six characters), short enough to show whole in the table (30 characters). */
export function recipientsOf(id: string): Recipients {
  const [ada, ben, formula, cy, dee] = ['ada', 'ben', '=1+1', 'cy', 'dee'].map((name) => `${name}.${id}@example.org`) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const zoe = `zoe.${id}@unverified.example`;
  return { ada, ben, formula, cy, dee, zoe, all: [ada, ben, formula, cy, dee, zoe], mailed: [ada, ben, formula, cy, dee] };
}

export const NEWS = 'https://example.org/news';
export const EVENTS = 'https://example.org/events';
const TEMPLATE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>News</title></head><body>' +
  '<h1>Hello {{firstName}}</h1>' +
  `<p><a href="${NEWS}">Read the news</a></p>` +
  `<p><a href="${EVENTS}">See the events</a></p>` +
  '<script>window.top.reportScriptRan = true;</script>' +
  '</body></html>';

export const hardBounceOf = (people: Recipients) =>
  ({
    bounceType: 'Permanent',
    bounceSubType: 'General',
    at: '2026-11-20T09:15:30.000Z',
    diagnosticCode: `smtp; 550 5.1.1 <${people.formula}>: Recipient address rejected: User unknown`,
  }) as const;
export const SOFT_BOUNCE = { bounceType: 'Transient', bounceSubType: 'MailboxFull', at: '2026-11-20T09:16:00.000Z' } as const;
export const COMPLAINT = { type: 'abuse', at: '2026-11-20T10:00:00.000Z' } as const;

export const NOT_SENT_INFO = 'Showing all NOT_SENT contacts. This may take a moment to load all data.';

/** The email performance columns (docs/product.md), on the screen and in the export alike. */
export const COLUMNS = [
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

/** dayjs 'YYYY-MM-DD HH:mm:ss A' of an ISO time, in the browser's UTC. */
export const shown = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} ${Number(iso.slice(11, 13)) < 12 ? 'AM' : 'PM'}`;
/** TruncatedText's cut (docs/product.md, Limits and constants: 30 characters). */
export const cut = (text: string) => (text.length > 30 ? `${text.slice(0, 29)}…` : text);

/** The table as docs/product.md's columns read once the events, opens and clicks are in. */
export function expectedRows(people: Recipients): Record<string, string[]> {
  const { ada, ben, formula, cy, dee, zoe } = people;
  const hard = hardBounceOf(people);
  return {
    [ada]: [ada, 'Sent successfully', 'Yes', 'Yes', 'None', '', '', '', '', ''],
    [ben]: [ben, 'Sent successfully', 'No', 'Yes', 'None', '', '', '', '', ''],
    [formula]: [formula, 'Sent (waiting Ack)', 'No', 'No', 'HARD', cut(hard.diagnosticCode), shown(hard.at), '', '', ''],
    [cy]: [cy, 'Sent successfully', 'Yes', 'Yes', 'None', '', '', COMPLAINT.type, shown(COMPLAINT.at), ''],
    [dee]: [dee, 'Sent (waiting Ack)', 'No', 'No', 'SOFT', 'Transient: MailboxFull', shown(SOFT_BOUNCE.at), '', '', ''],
    [zoe]: [zoe, 'Failed', 'No', 'No', 'None', '', '', '', '', 'Email address is not verified.'],
  };
}

export interface PerformanceRowJson {
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

export interface Journey {
  tag: string;
  people: Recipients;
  campaign: CampaignJson;
  audienceId: number;
  audienceName: string;
  templateId: number;
  subject: string;
  /** The API's rows, by address, as the journey left them. */
  rows: Record<string, PerformanceRowJson>;
}

export async function performanceRows(api: MemberApi, campaignId: number): Promise<Record<string, PerformanceRowJson>> {
  const response = await api.get(`/api/reports/${campaignId}/email-performance?page=1&limit=50`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: PerformanceRowJson[] };
  return Object.fromEntries(items.map((row) => [row.email, row]));
}

export const cellsOf = (page: Page, email: string) => performanceRow(page, email).getByRole('cell');
export const sendStatusFilter = (page: Page) => page.getByRole('combobox', { name: 'Send Status' });

/** The report's e2e test: a test may ask for the worker's `journey`. */
export const test = base.extend<object, { journey: Journey }>({
  journey: [
    async ({ browser }, use) => {
      // A context of its own (a worker fixture has no page), with what the suite's pages get from the configuration.
      const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
      try {
        await use(await buildJourney(context, browser));
      } finally {
        await context.close();
      }
    },
    // Its own time: the sending, the SES events and the waits of the tracking's machine rules.
    { scope: 'worker', timeout: 180_000 },
  ],
});

async function buildJourney(context: BrowserContext, browser: Browser): Promise<Journey> {
  const page = await context.newPage();
  const request = page.request;
  const api = await signInWithApi(page);
  const tag = uniqueName('Report');
  const people = recipientsOf(Math.random().toString(36).slice(2, 8).padEnd(6, '0'));
  const { ada, ben, formula, cy, dee, zoe } = people;

  // The audience, through the import wizard: six valid contacts and one invalid.
  const audienceName = uniqueName('Report audience');
  const audienceId = await createAudienceThroughDialog(page, audienceName);
  await openImportWizard(page, audienceId);
  const csv = join(mkdtempSync(join(tmpdir(), 'report-journey-')), 'recipients.csv');
  writeFileSync(
    csv,
    [
      'email,firstName',
      `${ada},Ada`,
      `${ben},Ben`,
      `${formula},Formula`,
      `${cy},Cy`,
      `${dee},Dee`,
      `${zoe},Zoë`,
      'not-an-email,Broken',
    ].join('\n'),
  );
  await uploadThroughWizard(page, csv);
  await expectImportAccepted(page, audienceId);
  await expect
    .poll(async () => {
      const { numberOfContacts, numberOfContactsWithErrors, isImporting } = await api.audience(audienceId);
      return { numberOfContacts, numberOfContactsWithErrors, isImporting };
    })
    .toEqual({ numberOfContacts: 7, numberOfContactsWithErrors: 1, isImporting: false });

  // The template and the campaign, as the editors save them.
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
  expect(mails.map((mail) => mail.to).sort()).toEqual([...people.mailed].sort());
  const firstNames = { [ada]: 'Ada', [ben]: 'Ben', [formula]: 'Formula', [cy]: 'Cy', [dee]: 'Dee' };
  const links = new Map<string, MailLinks>();
  for (const to of people.mailed) {
    const mail = mailTo(mails, to);
    expect(mail.subject).toBe(`${tag} news for ${firstNames[to]}`);
    expect(mail.html).toContain(`<h1>Hello ${firstNames[to]}</h1>`);
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
  const forged = snsNotification(sesEvent.delivery(mailOf(ada)));
  const hardBounce = hardBounceOf(people);
  expect((await postToWebhook(request, { ...forged, Message: JSON.stringify(sesEvent.bounce(mailOf(ada), hardBounce)) })).status()).toBe(
    403,
  );
  expect(
    (
      await postToWebhook(
        request,
        snsNotification(sesEvent.delivery(mailOf(ada)), { TopicArn: 'arn:aws:sns:us-east-1:123456789012:other' }),
      )
    ).status(),
  ).toBe(403);
  for (const to of [ada, ben, cy]) await postSesEvent(request, sesEvent.delivery(mailOf(to)));
  await postSesEvent(request, sesEvent.bounce(mailOf(formula), hardBounce));
  await postSesEvent(request, sesEvent.bounce(mailOf(dee), SOFT_BOUNCE));
  const complaint = snsNotification(sesEvent.complaint(mailOf(cy), COMPLAINT));
  expect((await postToWebhook(request, complaint)).status()).toBe(204);
  // SNS delivers at least once: a MessageId seen before changes nothing, whatever it carries.
  const repeated = snsNotification(sesEvent.complaint(mailOf(cy), { type: 'not-spam', at: '2026-11-21T00:00:00.000Z' }), {
    MessageId: complaint.MessageId,
  });
  expect((await postToWebhook(request, repeated)).status()).toBe(204);

  // Ada opens her mail twice and clicks the news twice and the events once; Ben only opens his.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readable - Date.now())));
  await openMail(request, linksFor(ada));
  await openMail(request, linksFor(ada));
  await openMail(request, linksFor(ben));
  expect(await clickLink(request, linksFor(ada).clicks[0]!)).toBe(NEWS);
  expect(await clickLink(request, linksFor(ada).clicks[0]!)).toBe(NEWS);
  // Every link of a mail followed within 5 s is a scanner's burst: Ada reads on before the events.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(await clickLink(request, linksFor(ada).clicks[1]!)).toBe(EVENTS);
  // A link whose token was changed leads nowhere.
  const forgedClick = linksFor(ada).clicks[0]!.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
  expect((await request.get(forgedClick, { maxRedirects: 0 })).status()).toBe(404);

  // Cy, in her own browser (images off: no pixel), clicks the news.
  const cysBrowser = await browser.newContext({ userAgent: BROWSER_AGENT });
  try {
    const mailbox = await cysBrowser.newPage();
    // The browser follows the redirect to the news. (The news site itself is out of this machine's
    // reach, and Playwright cannot route a redirect's target: whether its page loads is not asserted.)
    const click = linksFor(cy).clicks[0]!;
    const toNews = mailbox.waitForRequest((r) => r.url() === NEWS);
    await mailbox.goto(click).catch(() => undefined);
    expect((await toNews).redirectedFrom()?.url()).toBe(click);
  } finally {
    await cysBrowser.close();
  }

  // Ben unsubscribes through the link at the foot of his mail.
  const bensBrowser = await browser.newContext({ reducedMotion: 'reduce' });
  try {
    const unsubscribe = await bensBrowser.newPage();
    await unsubscribe.goto(linksFor(ben).unsubscribe);
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
      return people.all.map((email) => [email, rows[email]?.status, rows[email]?.opened, rows[email]?.clicked, rows[email]?.complaintType]);
    })
    .toEqual([
      [ada, 'SENT_SUCCESS', true, true, null],
      [ben, 'SENT_SUCCESS', true, false, null],
      [formula, 'SENT_WAIT_ACK', false, false, null],
      [cy, 'SENT_SUCCESS', true, true, COMPLAINT.type],
      [dee, 'SENT_WAIT_ACK', false, false, null],
      [zoe, 'FAILED', false, false, null],
    ]);
  return {
    tag,
    people,
    campaign: await readCampaign(api, campaignId),
    audienceId,
    audienceName,
    templateId,
    subject,
    rows: await performanceRows(api, campaignId),
  };
}
