import type { Audience, SuppressedContacts } from '@mailroom/api-client';
import { ConfirmDialog, counted, formatInMemberZone, plural } from '@mailroom/ui';
import { suppressedNote } from '../utils/presend';

export function InvalidContactsDialog({
  audience,
  onProceed,
  onCancel,
}: {
  audience: Audience;
  onProceed: () => void;
  onCancel: () => void;
}) {
  const invalid = audience.numberOfContactsWithErrors;
  return (
    <ConfirmDialog open title="Invalid contacts" confirmLabel="Proceed with Valid Contacts" onConfirm={onProceed} onCancel={onCancel}>
      The audience “{audience.name}” has {counted(invalid, 'invalid contact')}. {plural(invalid, 'It', 'They')} will be skipped: only the
      valid contacts receive this campaign.
    </ConfirmDialog>
  );
}

export interface ConfirmSendDialogProps {
  audienceName: string;
  /** numberOfContacts minus numberOfContactsWithErrors (docs/product.md, Campaign editor); null when the audience could not be read. */
  recipients: number | null;
  /** How many of those are suppressed (skipped by the send); null when they could not be counted. */
  suppressed: SuppressedContacts | null;
  /** A follow-up: whom it goes to ('People who did not open "Autumn news"'), said instead of the audience. */
  followUpLabel?: string | undefined;
  /** A follow-up: the recipients its send leaves out, as the original reached them since it was made. */
  droppedNote?: string | null | undefined;
  /** Scheduling (an addition to the spec): the campaign is sent then instead of now. */
  at?: Date | undefined;
  /**
   * Send approval (issue 27): 'request' asks another member to approve the send (or schedule); 'approve' is that
   * member's answer. Without it, the spec's Send (or Schedule).
   */
  approval?: 'request' | 'approve' | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmSendDialog({
  audienceName,
  recipients,
  suppressed,
  followUpLabel,
  droppedNote,
  at,
  approval,
  busy,
  onConfirm,
  onCancel,
}: ConfirmSendDialogProps) {
  const note = suppressedNote(suppressed, recipients === null ? 'audience' : 'them');
  const who =
    recipients === null
      ? `the valid contacts of “${audienceName}”`
      : followUpLabel !== undefined
        ? `${counted(recipients, 'contact')}: ${followUpLabel}`
        : `${counted(recipients, 'contact')} of “${audienceName}”`;
  return (
    <ConfirmDialog
      open
      title={
        approval === 'request'
          ? 'Request approval'
          : approval === 'approve'
            ? 'Approve campaign'
            : at
              ? 'Schedule campaign'
              : 'Send campaign'
      }
      confirmLabel={
        approval === 'request'
          ? 'Request approval'
          : approval === 'approve'
            ? at
              ? 'Approve and schedule'
              : 'Approve and send'
            : at
              ? 'Schedule'
              : 'Send now'
      }
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {approval === 'request'
          ? `Once another member approves it, this campaign will be sent to ${who}${at ? ` on ${formatInMemberZone(at)}` : ''}. It cannot be edited while it waits. Request approval?`
          : at
            ? `This campaign will be sent to ${who} on ${formatInMemberZone(at)}. ${approval === 'approve' ? 'Approve and schedule it?' : 'Schedule it?'}`
            : `This campaign will be sent to ${who}. ${approval === 'approve' ? 'Approve and send it now?' : 'Send it now?'}`}
      </p>
      {note && <p>{note}</p>}
      {droppedNote && <p>{droppedNote}</p>}
    </ConfirmDialog>
  );
}
