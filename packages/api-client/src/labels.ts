/**
 * What the product shows for the contract's values, wherever a person reads them: the report's
 * table on the screen and the API's xlsx export both read these, so the two never say it differently.
 * A NOT_SENT row whose address is suppressed reads 'Suppressed' with the reason: it is never sent to,
 * and no action is offered for it. Type imports only: the API imports this module without the client.
 */
import type { components } from './schema.js';

type SendStatus = components['schemas']['SendStatus'];
type BounceType = components['schemas']['BounceType'];
type SuppressionReason = components['schemas']['SuppressionReason'];
type EmailPerformanceRow = components['schemas']['EmailPerformanceRow'];
type CampaignStatus = components['schemas']['CampaignStatus'];
type MachineReason = components['schemas']['MachineReason'];
type FieldType = components['schemas']['FieldType'];
type WebhookEventType = components['schemas']['WebhookEventType'];

/** The columns of the report's Email Performance table (docs/product.md, Routes and screens), in order. */
export const EMAIL_PERFORMANCE_COLUMNS = [
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
] as const;

/**
 * Every send status with its label (docs/product.md, the screens and their states), in the Send Status filter's order: the spec's four
 * first, then the server's in-between states, which rows can show too. A status the contract adds
 * fails the type check here until it has its label.
 */
export const SEND_STATUS_LABELS: Readonly<Record<SendStatus, string>> = {
  FAILED: 'Failed',
  SENT_WAIT_ACK: 'Sent (waiting Ack)',
  SENT_SUCCESS: 'Sent successfully',
  NOT_SENT: 'NOT_SENT',
  QUEUED: 'Queued',
  SENDING: 'Sending',
  UNKNOWN: 'Unknown',
};

export const SUPPRESSED_LABEL = 'Suppressed';

export const SUPPRESSION_REASON_LABELS: Readonly<Record<SuppressionReason, string>> = {
  UNSUBSCRIBE: 'unsubscribed',
  HARD_BOUNCE: 'hard bounce',
  COMPLAINT: 'complaint',
  SOFT_BOUNCE: 'repeated soft bounces',
  MEMBER: 'added by a member',
  ERASED: 'erased',
};

/** A suppressed address with its reason: 'Suppressed (unsubscribed)' (the report's rows and the audience's contacts). */
export const suppressedLabel = (reason: SuppressionReason): string => `${SUPPRESSED_LABEL} (${SUPPRESSION_REASON_LABELS[reason]})`;

/** A contact that left its audience in the preference centre (issue 25): the audience's contacts and the report's NOT_SENT rows. */
export const LEFT_AUDIENCE_LABEL = 'Unsubscribed from this audience';

/**
 * The Send Status of a row as words: 'Sent successfully', 'Suppressed (unsubscribed)', or for a NOT_SENT contact that
 * left the audience, 'Unsubscribed from this audience' (an organisation-wide suppression says more, and goes first).
 */
export function sendStatusLabel(row: Pick<EmailPerformanceRow, 'status' | 'suppressionReason' | 'leftAudience'>): string {
  if (row.suppressionReason) return suppressedLabel(row.suppressionReason);
  return row.leftAudience ? LEFT_AUDIENCE_LABEL : SEND_STATUS_LABELS[row.status];
}

/** Clicked and Opened. */
export const yesNo = (value: boolean): string => (value ? 'Yes' : 'No');

/** An addition to the spec: 'Yes (machine)' for an open or a click that only machines made (the table's Opened and Clicked). */
export const MACHINE_HIT_LABEL = 'Yes (machine)';

/** Opened or Clicked on the screen, people apart from machines: 'Yes' (a person), 'Yes (machine)' or 'No'. */
export const hitLabel = (any: boolean, human: boolean): string => (human ? 'Yes' : any ? MACHINE_HIT_LABEL : 'No');

/** An addition to the spec: the export's column after the spec's, saying what a person did of the row's opens and clicks. */
export const HUMAN_HITS_COLUMN = 'Opened / Clicked by a person';

/** 'Yes / No': a person opened, no person clicked (the Opened and Clicked columns say whether anyone did). */
export const humanHitsLabel = (row: Pick<EmailPerformanceRow, 'humanOpened' | 'humanClicked'>): string =>
  `${yesNo(row.humanOpened)} / ${yesNo(row.humanClicked)}`;

/**
 * An addition to the spec: the evidence that a machine opened or clicked, as the row's 'Yes (machine)'
 * tooltip and the export word it, in the contract's order (the API sorts the reasons by it).
 */
export const MACHINE_REASON_LABELS: Readonly<Record<MachineReason, string>> = {
  'apple-privacy-proxy': "Apple's privacy proxy fetched the images",
  'bot-user-agent': "a bot's user agent, or none",
  'too-soon': 'clicked less than 10 s after sending',
  'scanner-burst': 'every link followed within seconds',
  'hidden-link': 'the hidden link followed with it',
};

/** The reasons of one verdict, as a phrase: "Apple's privacy proxy fetched the images; a bot's user agent, or none". */
export const machineEvidenceText = (reasons: readonly MachineReason[]): string =>
  reasons.map((reason) => MACHINE_REASON_LABELS[reason]).join('; ');

/** An addition to the spec: the export's column saying why a row's open or click is a machine's. */
export const MACHINE_EVIDENCE_COLUMN = 'Why a machine';

/** 'Clicked: every link followed within seconds. Opened: ...', in the table's order; empty for a row of people only. */
export function machineEvidenceLabel(row: Pick<EmailPerformanceRow, 'openEvidence' | 'clickEvidence'>): string | null {
  const parts = [
    row.clickEvidence.length > 0 ? `Clicked: ${machineEvidenceText(row.clickEvidence)}.` : null,
    row.openEvidence.length > 0 ? `Opened: ${machineEvidenceText(row.openEvidence)}.` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** A row without a bounce reads None. */
export const bounceTypeLabel = (bounceType: BounceType | null): string => bounceType ?? 'None';

type FollowUpRecipients = components['schemas']['FollowUpRecipients'];

/** The follow-up's choices (an addition to the spec): whom of the original's contacts it goes to. */
export const FOLLOW_UP_CHOICES: readonly { value: FollowUpRecipients; label: string }[] = [
  { value: 'NOT_OPENED', label: 'People who did not open it' },
  { value: 'NOT_CLICKED', label: 'People who did not click in it' },
];

/** A follow-up's recipients as the editor names them: 'People who did not open "Autumn news"'. */
export function followUpRecipientsLabel(recipients: FollowUpRecipients, campaignName: string): string {
  return `People who did not ${recipients === 'NOT_OPENED' ? 'open' : 'click in'} "${campaignName}"`;
}

/** Every campaign status as the screens name it (docs/product.md, Campaigns list and Campaign editor). */
export const CAMPAIGN_STATUS_LABELS: Readonly<Record<CampaignStatus, string>> = {
  DRAFT: 'Draft',
  SCHEDULED: 'Scheduled',
  // Send approval (issue 27): a send or schedule waiting for another member's answer.
  AWAITING_APPROVAL: 'Awaiting approval',
  SENDING: 'Sending',
  SENT: 'Sent',
  ERROR: 'Error',
};

/**
 * Whether a campaign may leave its status without this member: a scheduled one starts at its time, a sending
 * one ends SENT or ERROR, one awaiting approval is answered by another member. Every screen showing such a status
 * reads it again every STATUS_REFRESH_MS.
 */
export const statusMayChange = (status: CampaignStatus): boolean =>
  status === 'SCHEDULED' || status === 'SENDING' || status === 'AWAITING_APPROVAL';

/** The pace at which a screen follows a status that may change (the quota bar's while mail goes out). */
export const STATUS_REFRESH_MS = 5000;

/** An addition to the spec: an audience field's type as the screens name it (the fields screen, the contact drawer, the import's mapping). */
export const FIELD_TYPE_LABELS: Readonly<Record<FieldType, string>> = {
  TEXT: 'Text',
  NUMBER: 'Number',
  DATE: 'Date',
  YES_NO: 'Yes / No',
  CHOICE: 'One of a list',
};

type ConsentLedgerEvent = components['schemas']['ConsentLedgerEvent'];
type LawfulBasis = components['schemas']['LawfulBasis'];
type ConsentRecordEntry = components['schemas']['ConsentRecordEntry'];

/**
 * An addition to the spec (issue 25): the consent ledger's events as a person reads them, in the contact's
 * drawer, the audience export's "Latest consent" column (built into its SQL from these, consentSummarySql)
 * and the consent export, so that the three never word an event differently.
 */
export const CONSENT_EVENT_LABELS: Readonly<Record<ConsentLedgerEvent, string>> = {
  SUBSCRIBED: 'Signed up',
  CONFIRMED: 'Confirmed',
  IMPORTED: 'Imported',
  ADDED: 'Added',
  PREFERENCES: 'Changed preferences',
  UNSUBSCRIBED: 'Unsubscribed',
  RESUBSCRIBED: 'Subscribed again',
  SUPPRESSED: 'Suppressed',
  ERASED: 'Erased',
};

/** The import wizard's and the add-contact form's choices of lawful basis, in the order they are offered. */
export const LAWFUL_BASIS_LABELS: Readonly<Record<LawfulBasis, string>> = {
  CONSENT: 'Consent collected elsewhere',
  LEGITIMATE_INTEREST: 'Legitimate interest',
  CONTRACT: 'Contract',
  LEGAL_OBLIGATION: 'Legal obligation',
  VITAL_INTEREST: 'Vital interest',
  PUBLIC_TASK: 'Public task',
};

/** What an entry says when the member did not state a lawful basis (an import through the spec's own call). */
export const LAWFUL_BASIS_NOT_STATED = 'Not stated';

/** The words that join an event to its form or its member: 'Confirmed via form Newsletter', 'Imported by ana@example.org'. */
export const CONSENT_VIA_FORM = ' via form ';
export const CONSENT_BY_MEMBER = ' by ';

/** A suppression's or a removal's reason, as the ledger's detail names it (MANUAL: a member's), in words. */
export function consentReasonLabel(reason: unknown): string | null {
  if (typeof reason !== 'string') return null;
  if (reason === 'MANUAL') return SUPPRESSION_REASON_LABELS.MEMBER;
  return (SUPPRESSION_REASON_LABELS as Record<string, string>)[reason] ?? reason.toLowerCase().replace(/_/g, ' ');
}

/** An entry in a few words: 'Confirmed via form Newsletter', 'Imported by ana@example.org', 'Suppressed (hard bounce)'. */
export function consentSummary(entry: Pick<ConsentRecordEntry, 'event' | 'formName' | 'memberEmail' | 'detail'>): string {
  const reason = consentReasonLabel(entry.detail?.reason);
  const how =
    entry.formName !== null
      ? `${CONSENT_VIA_FORM}${entry.formName}`
      : entry.memberEmail !== null
        ? `${CONSENT_BY_MEMBER}${entry.memberEmail}`
        : '';
  return `${CONSENT_EVENT_LABELS[entry.event]}${how}${reason ? ` (${reason})` : ''}`;
}

/** Outgoing webhooks' events in words (issue 27), in the contract's order: the webhooks screen's checkboxes and list. */
export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'contact.subscribed': 'A contact subscribed',
  'contact.confirmed': 'A contact confirmed',
  'contact.unsubscribed': 'A contact unsubscribed',
  'contact.erased': 'A contact was erased',
  'contact.bounced': 'An email bounced',
  'contact.complained': 'A contact complained (marked as spam)',
  'campaign.sent': 'A campaign was sent',
  'import.finished': 'An import finished',
};
