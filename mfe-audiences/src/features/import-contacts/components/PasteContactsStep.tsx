import { Field, Textarea } from '@fluentui/react-components';
import { useState } from 'react';

export const PASTE_PLACEHOLDER = [
  'Email\tUsername\tFull Name',
  'jane@example.org\tjane\tJane Doe',
  'john@example.org\tjohn\tJohn Smith',
].join('\n');

export interface PasteContactsStepProps {
  text: string;
  disabled: boolean;
  onChange: (text: string) => void;
}

/** Step 1 for pasting: rows copied from a spreadsheet (tab-separated, the first row names the columns). */
export function PasteContactsStep({ text, disabled, onChange }: PasteContactsStepProps) {
  const [touched, setTouched] = useState(false);
  const empty = touched && text.trim() === '';
  return (
    <Field
      label="Contacts"
      required
      hint="Paste rows from a spreadsheet. The first row names the columns and must include Email."
      validationState={empty ? 'error' : 'none'}
      validationMessage={empty ? 'Empty content' : undefined}
    >
      <Textarea
        value={text}
        rows={12}
        resize="vertical"
        placeholder={PASTE_PLACEHOLDER}
        disabled={disabled}
        onChange={(_, data) => onChange(data.value)}
        onBlur={() => setTouched(true)}
      />
    </Field>
  );
}
