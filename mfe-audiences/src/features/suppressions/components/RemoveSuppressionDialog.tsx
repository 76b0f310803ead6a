import { errorMessage, type Suppression } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useRemoveSuppression } from '../api/suppressions';

/**
 * Removing an address: the confirmation names why it was suppressed; a complaint asks a second time
 * (mailing someone who complained harms the sender's reputation), and only then is it removed.
 */
export function RemoveSuppressionDialog({ suppression, onClose }: { suppression: Suppression; onClose: () => void }) {
  const { notify } = useRemote();
  const remove = useRemoveSuppression();
  const [step, setStep] = useState<'first' | 'complaint'>('first');
  const reason = SUPPRESSION_REASON_LABELS[suppression.reason];

  const confirm = () => {
    if (suppression.reason === 'COMPLAINT' && step === 'first') {
      setStep('complaint');
      return;
    }
    remove.mutate(
      { id: suppression.id, confirmComplaint: suppression.reason === 'COMPLAINT' },
      {
        onSuccess: () => {
          notify('success', `${suppression.email} can be mailed again`);
          onClose();
        },
        onError: (error) => {
          notify('error', errorMessage(error, 'Failed to remove the address'));
          onClose();
        },
      },
    );
  };

  return step === 'first' ? (
    <ConfirmDialog open title="Remove suppression" confirmLabel="Remove" busy={remove.isPending} onCancel={onClose} onConfirm={confirm}>
      Remove {suppression.email} from the suppressions? It is suppressed because of: {reason}. Later campaigns will mail it again.
    </ConfirmDialog>
  ) : (
    <ConfirmDialog
      open
      title="This address complained"
      confirmLabel="Remove anyway"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={confirm}
    >
      {suppression.email} marked your mail as spam. Mailing it again can harm your sending reputation. Remove it anyway?
    </ConfirmDialog>
  );
}
