import { Field, Textarea } from '@fluentui/react-components';
import { FormDialog } from '@mailroom/ui';
import { useState } from 'react';

/** The contract's bound on a decline's reason. */
const REASON_MAX = 1000;

/** Send approval (issue 27): the reason a request is declined, for the requester's mail and the activity log. */
export function DeclineDialog({ busy, onDecline, onClose }: { busy: boolean; onDecline: (reason: string) => void; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const blank = reason.trim() === '';
  return (
    <FormDialog
      title="Decline request"
      submitLabel="Decline"
      busy={busy}
      onSubmit={() => {
        setTried(true);
        if (!blank) onDecline(reason.trim());
      }}
      onClose={onClose}
    >
      <Field
        label="Reason"
        required
        hint="The requester receives it by email; the campaign becomes a draft again."
        validationState={tried && blank ? 'error' : 'none'}
        validationMessage={tried && blank ? 'Say why the request is declined' : undefined}
      >
        <Textarea value={reason} maxLength={REASON_MAX} resize="vertical" onChange={(_, data) => setReason(data.value)} />
      </Field>
    </FormDialog>
  );
}
