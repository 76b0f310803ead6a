import { Field, Input } from '@fluentui/react-components';
import { errorMessage, type TestEmail } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { FormDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useSendTestEmail } from '../api/campaign';
import { parseTestAddresses } from '../utils/testAddresses';

export interface TestEmailDialogProps {
  /** The campaign as it stands in the editor (saved or not): what the test mail carries. */
  message: Omit<TestEmail, 'emails'>;
  onClose: () => void;
}

/** Sends the campaign as it stands to a few comma-separated addresses. */
export function TestEmailDialog({ message, onClose }: TestEmailDialogProps) {
  const { notify } = useRemote();
  const sendTest = useSendTestEmail();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const parsed = parseTestAddresses(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    sendTest.mutate(
      { ...message, emails: parsed.emails },
      {
        onSuccess: () => {
          notify('success', `Test email sent to ${parsed.emails.join(', ')}`);
          onClose();
        },
        onError: (error) => notify('error', errorMessage(error, 'Failed to send test email')),
      },
    );
  };

  return (
    <FormDialog title="Send test email" submitLabel="Send test" busy={sendTest.isPending} onSubmit={submit} onClose={onClose}>
      <Field
        label="Email addresses"
        required
        hint="Separate addresses with commas."
        validationState={problem ? 'error' : 'none'}
        validationMessage={problem ?? undefined}
      >
        <Input
          value={text}
          autoFocus
          maxLength={7000}
          onChange={(_, data) => {
            setText(data.value);
            setProblem(null);
          }}
        />
      </Field>
    </FormDialog>
  );
}
