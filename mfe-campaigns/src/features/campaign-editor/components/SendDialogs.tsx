import type { Audience } from '@mailroom/api-client';
import { ConfirmDialog } from '@mailroom/ui';

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
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmSendDialog({ audienceName, recipients, busy, onConfirm, onCancel }: ConfirmSendDialogProps) {
  return (
    <ConfirmDialog open title="Send campaign" confirmLabel="Send now" busy={busy} onConfirm={onConfirm} onCancel={onCancel}>
      {recipients === null
        ? `This campaign will be sent to the valid contacts of “${audienceName}”. Send it now?`
        : `This campaign will be sent to ${recipients} contact${recipients === 1 ? '' : 's'} of “${audienceName}”. Send it now?`}
    </ConfirmDialog>
  );
}
