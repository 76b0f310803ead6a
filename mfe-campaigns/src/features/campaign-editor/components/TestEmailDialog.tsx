import { Field, Input, Select } from '@fluentui/react-components';
import { errorMessage, type AbTest, type TestEmail } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { FormDialog } from '@mailroom/ui';
import { useState } from 'react';
import { useAbTest } from '../api/abTest';
import { useSendTestEmail } from '../api/campaign';
import { parseTestAddresses } from '../utils/testAddresses';
import { variantLetter } from './AbTestSection';

export interface TestEmailDialogProps {
  open: boolean;
  campaignId: number;
  /** The campaign as it stands in the editor (saved or not): what the test mail carries; null while it cannot be sent. */
  message: Omit<TestEmail, 'emails'> | null;
  onClose: () => void;
}

/** What a variant changes, in a few words: 'Variant B: sender name “The team”, template Bold'. */
export function variantChoiceLabel(variant: AbTest['variants'][number], position: number): string {
  const changes = [
    variant.subject === null ? null : `subject “${variant.subject}”`,
    variant.previewText === null ? null : `preview text “${variant.previewText}”`,
    variant.fromName === null ? null : `sender name “${variant.fromName}”`,
    variant.templateId === null ? null : `template ${variant.templateName ?? `#${variant.templateId}`}`,
  ].filter((change) => change !== null);
  return `Variant ${variantLetter(position)}: ${changes.join(', ')}`;
}

/**
 * Sends the campaign as it stands to a few comma-separated addresses. When the campaign has an A/B test
 * (issue 28), the member picks the variant the test mail is: the API puts that variant, as saved, over
 * the campaign's subject, preview text, sender name and template.
 *
 * It stays mounted and is driven by `open`: unmounting an open Fluent dialog leaves the page aria-hidden.
 */
export function TestEmailDialog({ open, campaignId, message, onClose }: TestEmailDialogProps) {
  const { notify } = useRemote();
  const sendTest = useSendTestEmail();
  const abTest = useAbTest(campaignId);
  const variants = abTest.data?.variants ?? [];
  const [text, setText] = useState('');
  const [variant, setVariant] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  // Each opening starts afresh, as a newly mounted dialog would (reset while rendering, React's way for
  // state that follows a prop).
  const [shownOpen, setShownOpen] = useState(open);
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) {
      setText('');
      setVariant(0);
      setProblem(null);
    }
  }

  const submit = () => {
    if (!message) return;
    const parsed = parseTestAddresses(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    // A variant the test no longer has (removed meanwhile) sends the campaign as it stands.
    const chosen = variant < variants.length ? { campaignId, variant } : {};
    sendTest.mutate(
      { ...message, ...chosen, emails: parsed.emails },
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
    <FormDialog open={open} title="Send test email" submitLabel="Send test" busy={sendTest.isPending} onSubmit={submit} onClose={onClose}>
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
      {variants.length > 0 && (
        <Field label="Variant" hint="The A/B test's variant as saved: what it leaves blank is the campaign's own.">
          <Select value={String(variant)} onChange={(_, data) => setVariant(Number(data.value))}>
            {variants.map((v, n) => (
              <option key={n} value={String(n)}>
                {variantChoiceLabel(v, n)}
              </option>
            ))}
          </Select>
        </Field>
      )}
    </FormDialog>
  );
}
