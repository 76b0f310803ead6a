import type { ActivityEntry, SendStatus, SuppressionReason } from '@mailroom/api-client';
import type { FieldType } from '@mailroom/api-client/fields';
import { FIELD_TYPE_LABELS, SEND_STATUS_LABELS, SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { counted, formatInMemberZone } from '@mailroom/ui';

/**
 * An entry's details as a sentence, for every kind: counts in words, ids named by what they are, times
 * in the member's time zone (the zone named), and the contract's codes (NOT_OPENED, MEMBER) as the
 * screens elsewhere say them. A fact an older entry lacks is left out of its sentence, never shown raw.
 */

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** A member's change to one contact: named by its id, with the fields an edit changed (never an address or a value). */
function contactSentence(kind: 'contact-add' | 'contact-edit' | 'contact-delete', details: Record<string, unknown>): string {
  const id = num(details.contactId);
  const contact = id === undefined ? 'a contact' : `contact #${id}`;
  const fields = Array.isArray(details.fields) ? details.fields.filter((field): field is string => typeof field === 'string') : [];
  const consent = flag(details.freshConsent) ? ', with the person’s fresh consent' : '';
  if (kind === 'contact-delete') return `Deleted ${contact}.`;
  if (kind === 'contact-add') return `Added ${contact} by hand${consent}.`;
  return fields.length > 0 ? `Changed ${list(fields)} of ${contact}${consent}.` : `Saved ${contact} unchanged.`;
}

/** 'a, b and c'. */
function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A member's change to one segment of the audience (issue 26), named as it was then. */
function segmentSentence(kind: 'segment-create' | 'segment-change' | 'segment-delete', details: Record<string, unknown>): string {
  const name = text(details.name);
  const segment = name === undefined ? 'a segment' : `the segment “${name}”`;
  if (kind === 'segment-create') return `Created ${segment}.`;
  if (kind === 'segment-delete') return `Deleted ${segment}.`;
  const from = text(details.from);
  const changed = Array.isArray(details.changed) ? details.changed.filter((c): c is string => typeof c === 'string') : [];
  const parts = [...(from !== undefined ? [`renamed it from “${from}”`] : []), ...(changed.includes('rule') ? ['changed its rule'] : [])];
  return parts.length === 0 ? `Changed ${segment}.` : `Changed ${segment}: ${list(parts)}.`;
}

/** A member's change to one sign-up form of the audience (issue 25), named as it was then. */
function formSentence(kind: 'form-create' | 'form-change' | 'form-delete', details: Record<string, unknown>): string {
  const name = text(details.name);
  const form = name === undefined ? 'a sign-up form' : `the sign-up form “${name}”`;
  if (kind === 'form-create') return `Created ${form}.`;
  if (kind === 'form-delete') return `Deleted ${form}.`;
  const from = text(details.from);
  const version = num(details.consentVersion);
  const changed = Array.isArray(details.changed) ? details.changed.filter((c): c is string => typeof c === 'string') : [];
  const parts = [
    ...(from !== undefined ? [`renamed it from “${from}”`] : []),
    ...(changed.includes('consentWording')
      ? [version === undefined ? 'changed its consent wording' : `changed its consent wording (now version ${version})`]
      : []),
  ];
  return parts.length === 0 ? `Changed ${form}.` : `Changed ${form}: ${list(parts)}.`;
}

/** The fields a campaign's save changed, as the editor names them. */
const CAMPAIGN_FIELDS: Record<string, string> = {
  audienceId: 'the audience',
  templateId: 'the template',
  fromName: 'the sender name',
  fromEmail: 'the sender address',
  subject: 'the subject',
  previewText: 'the preview text',
  segmentId: 'the segment',
};

/** A field's type in a sentence: 'yes / no', 'one of a list'. */
const typeLabel = (type: string): string => (FIELD_TYPE_LABELS[type as FieldType] ?? type).toLowerCase();

/** What a field change may have changed besides its label and type. */
const FIELD_FLAGS: Record<string, string> = {
  required: 'whether it is required',
  editableByPerson: 'whether the person may edit it',
  options: 'its options',
};

/** A report export's filters, in words: 'not opened by a person, bounce HARD, search “ann”'. */
function reportFilters(details: Record<string, unknown>): string[] {
  const words: string[] = [];
  const status = text(details.sendStatus);
  if (status) words.push(`send status ${SEND_STATUS_LABELS[status as SendStatus] ?? status}`);
  const bounce = text(details.bounceStatus);
  if (bounce) words.push(`bounce ${bounce}`);
  const hits: [string, string][] = [
    ['opened', 'opened'],
    ['clicked', 'clicked'],
    ['humanOpened', 'opened by a person'],
    ['humanClicked', 'clicked by a person'],
  ];
  for (const [key, words_] of hits) {
    const value = flag(details[key]);
    if (value !== undefined) words.push(value ? words_ : `not ${words_}`);
  }
  const search = text(details.search) ?? text(details.email);
  if (search) words.push(`search “${search}”`);
  const reason = text(details.reason);
  if (reason) words.push(`reason ${SUPPRESSION_REASON_LABELS[reason as SuppressionReason] ?? reason}`);
  return words;
}

function exportSentence(details: Record<string, unknown>): string {
  const what = text(details.what);
  const filters = reportFilters(details);
  const subject =
    what === 'contacts'
      ? 'the contacts as CSV'
      : what === 'email performance'
        ? 'the email performance workbook'
        : what === 'suppressions'
          ? 'the suppression list as CSV'
          : what === 'person'
            ? 'everything held about the person as JSON'
            : what === 'consent'
              ? 'the consent record as CSV'
              : 'a download';
  return `Downloaded ${subject}${filters.length > 0 ? `, filtered to: ${list(filters)}` : ''}.`;
}

const queued = (details: Record<string, unknown>, what: string) => {
  const jobs = num(details.jobs);
  return jobs === undefined ? `Queued ${what} again.` : `Queued ${counted(jobs, what.replace(/s$/, ''), what)} again.`;
};

/** The details of `entry` as one sentence. */
export function activitySentence(entry: Pick<ActivityEntry, 'kind' | 'objectType' | 'details'>): string {
  const { details } = entry;
  const jobs = num(details.jobs);
  switch (entry.kind) {
    case 'create': {
      const copyOf = num(details.copyOf);
      return copyOf === undefined ? 'Created.' : `Created as a copy of ${entry.objectType} #${copyOf}.`;
    }
    case 'rename': {
      const from = text(details.from);
      return from === undefined ? 'Renamed.' : `Renamed from “${from}”.`;
    }
    case 'delete':
      return 'Deleted.';
    case 'edit': {
      const fields = Array.isArray(details.fields) ? details.fields.filter((f): f is string => typeof f === 'string') : [];
      if (fields.length === 0) return 'Saved the content.';
      return `Changed ${list(fields.map((field) => CAMPAIGN_FIELDS[field] ?? field))}.`;
    }
    case 'import': {
      const source = text(details.source);
      return source === 'CSV'
        ? 'Queued an import of a CSV file.'
        : source === 'TEXT'
          ? 'Queued an import of pasted text.'
          : 'Queued an import.';
    }
    case 'import-finished': {
      const contacts = num(details.contacts);
      const errors = num(details.contactsWithErrors) ?? 0;
      if (contacts === undefined) return 'The import finished.';
      return `Imported ${counted(contacts, 'contact')}${errors > 0 ? `, ${counted(errors, 'of them', 'of them')} with errors` : ''}.`;
    }
    case 'import-failed': {
      const message = text(details.message);
      return message === undefined ? 'The import failed.' : `The import failed: ${message.replace(/\.?$/, '.')}`;
    }
    case 'export':
      return exportSentence(details);
    case 'send': {
      const scheduledAt = text(details.scheduledAt);
      const what = jobs === undefined ? 'Queued the emails' : `Queued ${counted(jobs, 'email')}`;
      return scheduledAt === undefined ? `${what}.` : `${what} at the scheduled time, ${formatInMemberZone(scheduledAt)}.`;
    }
    case 'schedule': {
      const at = text(details.at);
      return at === undefined ? 'Scheduled.' : `To be sent on ${formatInMemberZone(at)}.`;
    }
    case 'unschedule':
      return 'Cancelled the schedule: the campaign is a draft again.';
    case 'stop':
      return 'Stopped sending: continue sends to the contacts not sent to yet.';
    case 'continue':
      return jobs === undefined ? 'Continued sending.' : `Continued sending: ${counted(jobs, 'email')} queued.`;
    case 'retry-all-failed':
      return queued(details, 'failed emails');
    case 'retry-job': {
      const jobId = num(details.jobId);
      return jobId === undefined ? 'Queued a failed email again.' : `Queued the failed email #${jobId} again.`;
    }
    case 'resend-unconfirmed':
      return queued(details, 'unconfirmed emails');
    case 'send-to-not-sent':
      return jobs === undefined ? 'Queued the emails to NOT_SENT contacts.' : `Queued ${counted(jobs, 'email')} to NOT_SENT contacts.`;
    case 'send-to-contact': {
      const contactId = num(details.contactId);
      return contactId === undefined ? 'Queued an email to a contact.' : `Queued an email to contact #${contactId}.`;
    }
    case 'test-send': {
      const recipients = num(details.recipients);
      const subject = text(details.subject);
      const to = recipients === undefined ? '' : ` to ${counted(recipients, 'address', 'addresses')}`;
      return `Sent a test email${to}${subject === undefined ? '' : `, subject “${subject}”`}.`;
    }
    case 'follow-up': {
      const of = num(details.of);
      const who =
        details.recipients === 'NOT_OPENED'
          ? ' who did not open it'
          : details.recipients === 'NOT_CLICKED'
            ? ' who did not click in it'
            : '';
      return of === undefined ? 'Created a follow-up.' : `A follow-up of campaign #${of}, to its recipients${who}.`;
    }
    case 'suppression-add': {
      const added = num(details.added);
      return added === undefined ? 'Added addresses.' : `Added ${counted(added, 'address', 'addresses')}.`;
    }
    case 'suppression-remove': {
      const reason = text(details.reason);
      const label = reason && SUPPRESSION_REASON_LABELS[reason as SuppressionReason];
      return label ? `Removed the address; it was suppressed for: ${label}.` : 'Removed the address.';
    }
    case 'field-add': {
      const label = text(details.label);
      const key = text(details.key);
      const type = text(details.type);
      const typeWords = type && FIELD_TYPE_LABELS[type as FieldType];
      return label === undefined
        ? 'Added a field.'
        : `Added the field “${label}”${key ? ` ({{${key}}})` : ''}${typeWords ? `, ${typeWords.toLowerCase()}` : ''}.`;
    }
    case 'field-change': {
      const key = text(details.key);
      const field = key ? `the field {{${key}}}` : 'a field';
      const from = text(details.from);
      const label = text(details.label);
      const fromType = text(details.fromType);
      const type = text(details.type);
      const parts: string[] = [];
      if (from !== undefined && label !== undefined) parts.push(`renamed it from “${from}” to “${label}”`);
      if (fromType && type) parts.push(`changed its type from ${typeLabel(fromType)} to ${typeLabel(type)}`);
      const changed = Array.isArray(details.changed) ? details.changed.filter((c): c is string => typeof c === 'string') : [];
      const flags = changed.filter((c) => c === 'required' || c === 'editableByPerson' || c === 'options');
      if (flags.length > 0) parts.push(`changed ${list(flags.map((c) => FIELD_FLAGS[c] ?? c))}`);
      return parts.length === 0 ? `Changed ${field}.` : `Changed ${field}: ${list(parts)}.`;
    }
    case 'field-remove': {
      const label = text(details.label);
      const key = text(details.key);
      const templates = num(details.templates);
      const what = label === undefined ? 'a field' : `the field “${label}”${key ? ` ({{${key}}})` : ''}`;
      return `Removed ${what}${templates ? `, used by ${counted(templates, 'template')}` : ''}; its values were cleared from the contacts.`;
    }
    case 'unsubscribe':
      return 'A recipient unsubscribed from this campaign’s email; the address is suppressed.';
    case 'erase': {
      const contacts = num(details.contacts);
      const mails = num(details.mails);
      if (contacts === undefined || mails === undefined) return 'Erased the person: only a hash of the address is kept.';
      return `Erased the person: ${counted(contacts, 'contact')} deleted, ${counted(mails, 'email')} kept for the reports under a hash of the address.`;
    }
    case 'contact-add':
    case 'contact-edit':
    case 'contact-delete':
      return contactSentence(entry.kind, details);
    case 'segment-create':
    case 'segment-change':
    case 'segment-delete':
      return segmentSentence(entry.kind, details);
    case 'form-create':
    case 'form-change':
    case 'form-delete':
      return formSentence(entry.kind, details);
    case 'ab-test-winner': {
      const variant = num(details.variant);
      return variant === undefined
        ? 'Picked the winner of the A/B test and sent it to the rest.'
        : `Picked variant ${String.fromCharCode(65 + variant)} as the winner of the A/B test and sent it to the rest.`;
    }
    // Send approval (issue 27).
    case 'request-approval': {
      const at = text(details.at);
      return at === undefined ? 'Asked for approval to send.' : `Asked for approval to send on ${formatInMemberZone(at)}.`;
    }
    case 'approve': {
      const by = text(details.requestedBy);
      return by === undefined ? 'Approved the request.' : `Approved the request of ${by}.`;
    }
    case 'decline': {
      const reason = text(details.declineReason);
      return reason === undefined ? 'Declined the request.' : `Declined the request: “${reason}”.`;
    }
    case 'withdraw-approval':
      return details.by === 'edit' ? 'The campaign was edited: its approval request was withdrawn.' : 'Withdrew the approval request.';
    case 'api-key-create': {
      const scopes = Array.isArray(details.scopes) ? details.scopes.filter((s): s is string => typeof s === 'string') : [];
      return scopes.length === 0 ? 'Created the API key.' : `Created the API key, allowed what ${list(scopes)} may do.`;
    }
    case 'api-key-revoke':
      return 'Revoked the API key: it is refused from now on.';
    case 'webhook-create':
    case 'webhook-change': {
      const events = Array.isArray(details.events) ? details.events.filter((e): e is string => typeof e === 'string') : [];
      const verb = entry.kind === 'webhook-create' ? 'Added the webhook endpoint' : 'Changed the webhook endpoint';
      const off = details.enabled === false ? ' It is turned off.' : '';
      return events.length === 0 ? `${verb}.${off}` : `${verb}, for ${list(events)}.${off}`;
    }
    case 'webhook-delete':
      return 'Deleted the webhook endpoint: nothing more is delivered to it.';
    case 'webhook-rotate-secret':
      return "Replaced the webhook endpoint's signing secret: the old one no longer verifies.";
  }
}
