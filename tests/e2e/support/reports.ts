/**
 * Helpers for the campaign report journey (mfe-reports): campaigns made and sent through the API
 * with the member's token, the local SES inbox read as the recipients' mailboxes (aws-ses-v2-local's
 * `/store`), the tracking links found in each recipient's mail, and SES events posted to the webhook
 * as SNS posts them, signed with the test certificate that the suite's stack trusts
 * (global-setup.ts sets EMBEDDED_SNS_CERTIFICATE_FILE and SNS_TOPIC_ARNS).
 */
import { createSign, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type APIResponse, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import type { AudienceJson, MemberApi } from './audiences';
import { seedTemplate } from './campaigns';
import { baseURL, PORTS, readState, SNS_EVENTS } from './stack';

// ------------------------------------------------------------------ campaigns

export interface CampaignJson {
  id: number;
  name: string;
  status: 'DRAFT' | 'SENDING' | 'SENT' | 'ERROR';
  audienceId: number | null;
  audienceName: string | null;
  subject: string | null;
  deliveryDate: string | null;
  contactCount: number;
  jobsSent: number;
  jobsFailed: number;
  errorMessage: string | null;
}

export interface CampaignDraft {
  name: string;
  templateId: number;
  audienceId: number;
  audienceName: string;
  subject: string;
  fromName: string;
  previewText?: string;
}

/** Creates a campaign and saves it as the editor's Send does (the first authorized sender); returns its id. */
export async function createCampaign(api: MemberApi, draft: CampaignDraft): Promise<number> {
  const created = await api.post('/api/campaigns', { name: draft.name, templateId: draft.templateId });
  expect(created.status(), 'POST /api/campaigns').toBe(201);
  const { id } = (await created.json()) as { id: number };
  const senders = (await (await api.get('/api/campaigns/authorized-sent-emails')).json()) as string[];
  expect(senders.length, 'authorized senders').toBeGreaterThan(0);
  const saved = await api.put(`/api/campaigns/${id}`, { previewText: null, ...draft, fromEmail: senders[0] });
  expect(saved.status(), `PUT /api/campaigns/${id}`).toBe(200);
  return id;
}

export async function readCampaign(api: MemberApi, id: number): Promise<CampaignJson> {
  const response = await api.get(`/api/campaigns/${id}`);
  expect(response.status(), `GET /api/campaigns/${id}`).toBe(200);
  return (await response.json()) as CampaignJson;
}

/** A campaign named `subject` on a template of its own (the newsletter), sent to `audience` from 'News'; waits until it is sent. */
export async function sendNewsletter(api: MemberApi, audience: Pick<AudienceJson, 'id' | 'name'>, subject: string): Promise<CampaignJson> {
  const templateId = await seedTemplate(api, subject);
  const draft = { name: subject, templateId, audienceId: audience.id, audienceName: audience.name, subject, fromName: 'News' };
  return sendCampaign(api, await createCampaign(api, draft));
}

/** Sends a saved campaign (202) and waits until its sending is over. */
export async function sendCampaign(api: MemberApi, id: number): Promise<CampaignJson> {
  const sent = await api.post(`/api/campaigns/${id}/send`);
  expect(sent.status(), `POST /api/campaigns/${id}/send`).toBe(202);
  return waitUntilSent(api, id);
}

/** Waits until the campaign is SENT (nothing left queued or sending) and answers it. */
export async function waitUntilSent(api: MemberApi, id: number): Promise<CampaignJson> {
  await expect.poll(async () => (await readCampaign(api, id)).status, { timeout: 30_000, message: `campaign ${id} sent` }).toBe('SENT');
  return readCampaign(api, id);
}

// ------------------------------------------------------------------ the local SES inbox

/** The local SES server: its inbox viewer and `/store` (every mail it took, kept in the stack's memory). */
export const sesInboxUrl = `http://127.0.0.1:${PORTS.ses}`;

export interface InboxMail {
  messageId: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

interface StoredMail {
  messageId: string;
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  headers?: { name: string; value: string }[];
}

/** The mails the local SES took whose subject starts with `subjectPrefix` (the suite's other mail left out). */
export async function inbox(request: APIRequestContext, subjectPrefix: string): Promise<InboxMail[]> {
  const response = await request.get(`${sesInboxUrl}/store`);
  expect(response.ok(), 'GET /store of the local SES').toBeTruthy();
  const { emails } = (await response.json()) as { emails: StoredMail[] };
  return emails
    .filter((mail) => mail.subject.startsWith(subjectPrefix))
    .map((mail) => ({
      messageId: mail.messageId,
      to: mail.destination.to.join(', '),
      subject: mail.subject,
      html: mail.body.html ?? '',
      text: mail.body.text ?? '',
      headers: Object.fromEntries((mail.headers ?? []).map(({ name, value }) => [name, value])),
    }));
}

/** The one mail of `to` among `mails`. */
export function mailTo(mails: InboxMail[], to: string): InboxMail {
  const found = mails.filter((mail) => mail.to === to);
  expect(found, `mails to ${to}`).toHaveLength(1);
  return found[0]!;
}

export interface MailLinks {
  /** The open pixel's address. */
  open: string;
  /** The click addresses, in the order of the links in the mail. */
  clicks: string[];
  unsubscribe: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tracking addresses in a recipient's html (signed tokens under the product's public address). */
export function linksOf(mail: InboxMail): MailLinks {
  // The hidden link only scanners follow (README: people and machines) is no link a person clicks.
  const html = mail.html.replace(/<a\b[^>]*\bdata-hidden-link\b[^>]*>/g, '');
  const under = (path: string, attribute: 'href' | 'src') =>
    [...html.matchAll(new RegExp(`${attribute}="(${escapeRegExp(baseURL)}${path}[A-Za-z0-9._~-]+)"`, 'g'))].map((match) => match[1]!);
  const opens = under('/t/o/', 'src');
  const unsubscribes = under('/unsubscribe/', 'href');
  expect(opens, `the open pixel in the mail to ${mail.to}`).toHaveLength(1);
  expect(unsubscribes, `the unsubscribe link in the mail to ${mail.to}`).toHaveLength(1);
  return { open: opens[0]!, clicks: under('/t/c/', 'href'), unsubscribe: unsubscribes[0]! };
}

/**
 * A person's mail client and browser, as the tracking's classification sees them (README: people and
 * machines): an agent no bot list names. Playwright's own agents (HeadlessChrome) are a bot's.
 */
export const MAIL_CLIENT_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0';
export const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A mail client showing images: fetches the open pixel. */
export async function openMail(request: APIRequestContext, links: MailLinks): Promise<void> {
  const response = await request.get(links.open, { headers: { 'user-agent': MAIL_CLIENT_AGENT } });
  expect(response.status(), 'the open pixel').toBe(200);
  expect(response.headers()['content-type']).toBe('image/gif');
}

/** A click on a link of a mail: the redirect to the link's own address (not followed). */
export async function clickLink(request: APIRequestContext, click: string): Promise<string> {
  const response = await request.get(click, { maxRedirects: 0, headers: { 'user-agent': MAIL_CLIENT_AGENT } });
  expect(response.status(), `the click ${click}`).toBe(302);
  return response.headers()['location'] ?? '';
}

// ------------------------------------------------------------------ SES events through SNS

export interface SnsNotification {
  Type: 'Notification';
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: '1' | '2';
  Signature: string;
  SigningCertURL: string;
}

/** An SNS certificate address: https, an SNS host of a region, SNS's path (the webhook fetches nothing else). */
const SIGNING_CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-mailroome2e.pem';

/**
 * SNS's canonical string of a notification (AWS's "Verifying the signatures of Amazon SNS messages"):
 * `name\nvalue\n` for Message, MessageId, Subject (only when present), Timestamp, TopicArn and Type.
 * Written here from AWS's description, not taken from the product, so the product's verifier is
 * checked against it.
 */
function canonicalNotification(message: Omit<SnsNotification, 'Signature'>): string {
  return (['Message', 'MessageId', 'Timestamp', 'TopicArn', 'Type'] as const).map((key) => `${key}\n${message[key]}\n`).join('');
}

/** An SES event as SNS delivers it to a subscribed endpoint: signed (SignatureVersion 2) for the suite's topic. */
export function snsNotification(event: object, fields: Partial<Pick<SnsNotification, 'TopicArn' | 'MessageId'>> = {}): SnsNotification {
  const unsigned = {
    Type: 'Notification' as const,
    MessageId: randomUUID(),
    TopicArn: SNS_EVENTS.topicArn,
    Message: JSON.stringify(event),
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2' as const,
    SigningCertURL: SIGNING_CERT_URL,
    ...fields,
  };
  const signer = createSign('RSA-SHA256');
  signer.update(canonicalNotification(unsigned), 'utf8');
  return { ...unsigned, Signature: signer.sign(readFileSync(SNS_EVENTS.signingKeyFile, 'utf8'), 'base64') };
}

/** Posts a message to the webhook as SNS does (JSON as text/plain, with its message-type header). */
export function postToWebhook(request: APIRequestContext, message: SnsNotification): Promise<APIResponse> {
  return request.post('/webhooks/ses', {
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': message.Type },
    data: JSON.stringify(message),
  });
}

/** Signs and posts an SES event; the webhook answers 204 when it took it. */
export async function postSesEvent(request: APIRequestContext, event: object): Promise<void> {
  const response = await postToWebhook(request, snsNotification(event));
  expect(response.status(), `the webhook took ${JSON.stringify(event).slice(0, 80)}`).toBe(204);
}

/** SES event publishing's records (eventType), for one mail of the local inbox. */
export const sesEvent = {
  delivery: (mail: InboxMail) => ({
    eventType: 'Delivery',
    mail: { messageId: mail.messageId, destination: [mail.to] },
    delivery: { recipients: [mail.to], smtpResponse: '250 2.0.0 OK', timestamp: new Date().toISOString() },
  }),
  bounce: (
    mail: InboxMail,
    bounce: { bounceType: 'Permanent' | 'Transient'; bounceSubType: string; at: string; diagnosticCode?: string },
  ) => ({
    eventType: 'Bounce',
    mail: { messageId: mail.messageId, destination: [mail.to] },
    bounce: {
      bounceType: bounce.bounceType,
      bounceSubType: bounce.bounceSubType,
      timestamp: bounce.at,
      bouncedRecipients: [{ emailAddress: mail.to, ...(bounce.diagnosticCode ? { diagnosticCode: bounce.diagnosticCode } : {}) }],
    },
  }),
  complaint: (mail: InboxMail, complaint: { type: string; at: string }) => ({
    eventType: 'Complaint',
    mail: { messageId: mail.messageId, destination: [mail.to] },
    complaint: { complaintFeedbackType: complaint.type, timestamp: complaint.at, complainedRecipients: [{ emailAddress: mail.to }] },
  }),
};

// ------------------------------------------------------------------ the report screen

export const reportPath = (id: number, tab?: 'overview' | 'email-performance' | 'click-performance') =>
  `/campaigns/reports/${id}${tab ? `?tab=${tab}` : ''}`;

export const emailPerformanceTable = (page: Page) => page.getByRole('table', { name: 'Email performance' });

/** The addresses in the email performance table's rows, top to bottom ([] for 'No data available'). */
export async function tableEmails(page: Page): Promise<string[]> {
  const rows = emailPerformanceTable(page).locator('tbody tr');
  const first = await rows.locator('td:first-child').allInnerTexts();
  return first.map((text) => text.trim()).filter((text) => text !== 'No data available');
}

/** The table row of `email` (its first cell reads exactly that, or its cut form with the whole in a label). */
export const performanceRow = (page: Page, email: string) =>
  emailPerformanceTable(page)
    .locator('tbody tr')
    .filter({ has: page.locator('td:first-child').getByText(email.length > 30 ? `${email.slice(0, 29)}…` : email, { exact: true }) });

/**
 * Presses Tab (at most `limit` times) until `target` has the focus; answers the accessible names of what
 * the focus passed on the way, so a test can say what the keyboard reaches and in which order.
 */
export async function tabTo(page: Page, target: Locator, limit = 40): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return passed;
    passed.push(
      await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return element?.getAttribute('aria-label') ?? element?.innerText?.trim() ?? element?.tagName ?? '';
      }),
    );
  }
  throw new Error(`the keyboard did not reach the target in ${limit} presses of Tab; it passed: ${passed.join(' | ')}`);
}

// ------------------------------------------------------------------ read-backs the screens do not show

/**
 * How many times the sender has handed a job to SES (campaign_jobs.attempts), read from the suite's
 * database: the one fact that tells a retried mail SES refused again from one never retried.
 */
export async function jobAttempts(jobId: number): Promise<number> {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ attempts: number }>('SELECT attempts FROM campaign_jobs WHERE id = $1', [jobId]);
    expect(rows, `job ${jobId}`).toHaveLength(1);
    return rows[0]!.attempts;
  } finally {
    await client.end();
  }
}
