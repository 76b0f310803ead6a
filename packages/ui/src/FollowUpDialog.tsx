import { Field, MessageBar, MessageBarBody, Radio, RadioGroup, Text, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type FollowUpRecipients } from '@mailroom/api-client';
import { FOLLOW_UP_CHOICES } from '@mailroom/api-client/labels';
import { useState } from 'react';
import { FormDialog } from './FormDialog';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

export interface FollowUpDialogProps {
  /** The sent campaign to follow up. */
  campaignName: string;
  /** Makes the follow-up (the remote's mutation); answers the new draft's id. */
  create: (recipients: FollowUpRecipients) => Promise<{ id: number }>;
  /** The draft exists: the remote opens it in the editor. */
  onCreated: (id: number) => void;
  onClose: () => void;
}

/**
 * 'Follow up' (an addition to the spec), shared by the campaign list and the report: the member
 * chooses whom of the campaign's contacts the new draft goes to, those who did not open it or did not
 * click. A failure stays in the dialog with the server's reason, so the choice can be tried again.
 */
export function FollowUpDialog({ campaignName, create, onCreated, onClose }: FollowUpDialogProps) {
  const styles = useStyles();
  const [recipients, setRecipients] = useState<FollowUpRecipients>('NOT_OPENED');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { id } = await create(recipients);
      onCreated(id);
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to create the follow-up'));
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="Follow up"
      submitLabel="Create follow-up"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
      contentClassName={styles.content}
    >
      <Text>
        A new draft of &quot;{campaignName}&quot; for the people it reached who did not act on it. Opens and clicks by machines (privacy
        proxies, link scanners) do not count; suppressed addresses are left out.
      </Text>
      <Field label="Send the follow-up to">
        <RadioGroup value={recipients} onChange={(_, data) => setRecipients(data.value as FollowUpRecipients)}>
          {FOLLOW_UP_CHOICES.map((choice) => (
            <Radio key={choice.value} value={choice.value} label={choice.label} disabled={busy} />
          ))}
        </RadioGroup>
      </Field>
      {failure && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{failure}</MessageBarBody>
        </MessageBar>
      )}
    </FormDialog>
  );
}
