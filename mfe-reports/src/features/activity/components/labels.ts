import type { ActivityKind, ActivityObjectType } from '@mailroom/api-client';

/** What each kind of entry says on screen, in the filter's order. */
export const KIND_LABELS: Record<ActivityKind, string> = {
  create: 'Created',
  rename: 'Renamed',
  delete: 'Deleted',
  import: 'Import queued',
  'import-finished': 'Import finished',
  'import-failed': 'Import failed',
  export: 'Exported',
  send: 'Sent',
  schedule: 'Scheduled',
  unschedule: 'Schedule cancelled',
  stop: 'Stopped sending',
  continue: 'Continued sending',
  'retry-all-failed': 'Retried all failed',
  'retry-job': 'Retried an email',
  'resend-unconfirmed': 'Resent unconfirmed',
  'send-to-not-sent': 'Sent to NOT_SENT',
  'send-to-contact': 'Sent to a contact',
  'test-send': 'Sent a test email',
  'follow-up': 'Created a follow-up',
  'suppression-add': 'Suppressed addresses',
  'suppression-remove': 'Removed a suppression',
  edit: 'Edited',
  unsubscribe: 'Unsubscribed',
  'field-add': 'Added a field',
  'field-change': 'Changed a field',
  'field-remove': 'Removed a field',
  erase: 'Erased a person',
  'contact-add': 'Added a contact',
  'contact-edit': 'Edited a contact',
  'contact-delete': 'Deleted a contact',
};

export const OBJECT_LABELS: Record<ActivityObjectType, string> = {
  audience: 'Audience',
  template: 'Template',
  campaign: 'Campaign',
  suppression: 'Suppression list',
  person: 'Person',
};
