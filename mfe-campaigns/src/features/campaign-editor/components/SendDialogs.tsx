import type { Audience, SuppressedContacts } from '@mailroom/api-client';
import { ConfirmDialog } from '@mailroom/ui';
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
      The audience “{audience.name}” has {invalid} invalid contact{invalid === 1 ? '' : 's'}. {invalid === 1 ? 'It' : 'They'} will be
      skipped: only the valid contacts receive this campaign.
    </ConfirmDialog>
  );
}

export interface ConfirmSendDialogProps {
  audienceName: string;
  /** numberOfContacts minus numberOfContactsWithErrors (SPEC: Campaign editor); null when the audience could not be read. */
  recipients: number | null;
  /** How many of those are suppressed (skipped by the send); null when they could not be counted. */
  suppressed: SuppressedContacts | null;
  /** A follow-up: whom it goes to ('People who did not open "Autumn news"'), said instead of the audience. */
  followUpLabel?: string | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmSendDialog({
  audienceName,
  recipients,
  suppressed,
  followUpLabel,
  busy,
  onConfirm,
  onCancel,
}: ConfirmSendDialogProps) {
  const note = suppressedNote(suppressed, recipients === null ? 'audience' : 'them');
  const contacts = `${recipients} contact${recipients === 1 ? '' : 's'}`;
  return (
    <ConfirmDialog open title="Send campaign" confirmLabel="Send now" busy={busy} onConfirm={onConfirm} onCancel={onCancel}>
      <p>
        {followUpLabel !== undefined
          ? `This campaign will be sent to ${contacts}: ${followUpLabel}. Send it now?`
          : recipients === null
            ? `This campaign will be sent to the valid contacts of “${audienceName}”. Send it now?`
            : `This campaign will be sent to ${contacts} of “${audienceName}”. Send it now?`}
      </p>
      {note && <p>{note}</p>}
    </ConfirmDialog>
  );
}
