import { MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type Person } from '@mailroom/api-client';
import { SUPPRESSION_REASON_LABELS } from '@mailroom/api-client/labels';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useErasePerson } from '../api/people';
import { count } from '../../../components/words';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
  text: { margin: 0 },
});

/**
 * Erasure (GDPR article 17) asks first, naming what will go and what stays: the contacts and their
 * fields go; the mails, opens and clicks stay in the reports without the address; a hash of it stays on
 * the suppression list. A refusal (a mail to the address being sent right now) is said in the dialog,
 * which stays open so the member can try again.
 */
export function EraseDialog({ person, onClose }: { person: Person; onClose: () => void }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const erase = useErasePerson();
  const [problem, setProblem] = useState<string>();
  const audiences = [...new Set(person.audiences.map((contact) => contact.audienceName))];
  const hits = person.opens.people + person.opens.machines + person.clicks.people + person.clicks.machines;

  const confirm = () =>
    erase.mutate(person.email, {
      onSuccess: () => {
        notify('success', `${person.email} was erased`);
        onClose();
      },
      onError: (error) => setProblem(errorMessage(error, 'Failed to erase the address')),
    });

  return (
    <ConfirmDialog open title={`Erase ${person.email}?`} confirmLabel="Erase" busy={erase.isPending} onCancel={onClose} onConfirm={confirm}>
      <div className={styles.body}>
        <ul className={styles.list}>
          <li>
            {person.audiences.length === 0
              ? 'No audience holds the address.'
              : `${count(person.audiences.length, 'contact')} in ${audiences.join(', ')}, with every field, will be deleted.`}
          </li>
          {person.totalMails > 0 && (
            <li>
              {count(person.totalMails, 'mail')} and {count(hits, 'open or click', 'opens and clicks')} stay in the reports, so their
              figures do not change, but the address on them is replaced by a one-way hash, and the client addresses and devices the opens
              and clicks came from are deleted.
            </li>
          )}
          <li>
            {person.suppression
              ? `Its suppression (${SUPPRESSION_REASON_LABELS[person.suppression.reason]}) is replaced by the hash, with the reason erased`
              : 'The hash goes on the suppression list with the reason erased'}
            : a later import of the address is flagged, and it is never mailed without fresh consent.
          </li>
          <li>Activity entries that name the address will name the hash instead.</li>
        </ul>
        <p className={styles.text}>This cannot be undone.</p>
        {problem && (
          <MessageBar intent="error" layout="multiline">
            <MessageBarBody>{problem}</MessageBarBody>
          </MessageBar>
        )}
      </div>
    </ConfirmDialog>
  );
}
