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
      title={at ? 'Schedule campaign' : 'Send campaign'}
      confirmLabel={at ? 'Schedule' : 'Send now'}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {at
          ? `This campaign will be sent to ${who} on ${formatInMemberZone(at)}. Schedule it?`
          : `This campaign will be sent to ${who}. Send it now?`}
      </p>
      {note && <p>{note}</p>}
      {droppedNote && <p>{droppedNote}</p>}
    </ConfirmDialog>
  );
}
