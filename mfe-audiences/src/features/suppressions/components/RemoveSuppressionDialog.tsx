import { Checkbox, Field, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type Suppression } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useRemoveSuppression, type RemovalConfirmation } from '../api/suppressions';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  text: { margin: 0 },
});

/** The reasons whose removal asks a second time, and which confirmation the API then takes. */
const SECOND_STEP: Partial<Record<Suppression['reason'], Exclude<RemovalConfirmation, undefined>>> = {
  COMPLAINT: 'complaint',
  UNSUBSCRIBE: 'unsubscribe',
};

/**
 * Removing an address: the confirmation names why it was suppressed. A complaint asks a second time
 * (mailing someone who complained harms the sender's reputation); so does an unsubscribe, where the
 * person asked not to be mailed: the member confirms they have since asked to be mailed again, the
 * one ground on which mailing them is lawful. Only then is it removed.
 */
export function RemoveSuppressionDialog({ suppression, onClose }: { suppression: Suppression; onClose: () => void }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const remove = useRemoveSuppression();
  const second = SECOND_STEP[suppression.reason];
  const [step, setStep] = useState<'first' | 'second'>('first');
  const [askedAgain, setAskedAgain] = useState(false);
  const [problem, setProblem] = useState<string>();
  const reason = SUPPRESSION_REASON_LABELS[suppression.reason];

  const confirm = () => {
    if (second && step === 'first') {
      setStep('second');
      return;
    }
    if (second === 'unsubscribe' && !askedAgain) {
      setProblem('Confirm that the person asked to receive your emails again, or cancel.');
      return;
    }
    remove.mutate(
      { id: suppression.id, confirmed: second },
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

  if (step === 'first')
    return (
      <ConfirmDialog open title="Remove suppression" confirmLabel="Remove" busy={remove.isPending} onCancel={onClose} onConfirm={confirm}>
        Remove {suppression.email} from the suppressions? It is suppressed because of: {reason}. Later campaigns will mail it again.
      </ConfirmDialog>
    );
  if (second === 'complaint')
    return (
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
  return (
    <ConfirmDialog
      open
      title="This person unsubscribed"
      confirmLabel="Remove anyway"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <div className={styles.body}>
        <p className={styles.text}>
          {suppression.email} asked not to receive your emails. Mailing them again is lawful only if they have since asked to receive them
          again, for example by subscribing again.
        </p>
        <Field validationMessage={problem} validationState={problem ? 'error' : 'none'}>
          <Checkbox
            checked={askedAgain}
            onChange={(_, data) => {
              setAskedAgain(data.checked === true);
              setProblem(undefined);
            }}
            label={`${suppression.email} has asked to receive our emails again`}
          />
        </Field>
      </div>
    </ConfirmDialog>
  );
}
