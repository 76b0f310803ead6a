import { Caption1, Field, Radio, RadioGroup } from '@fluentui/react-components';
import type { ImportMethod } from '../api/importContacts';

export interface ImportMethodStepProps {
  method: ImportMethod | null;
  disabled: boolean;
  onChange: (method: ImportMethod) => void;
}

/** Step 0: a file, or contacts pasted from a spreadsheet. */
export function ImportMethodStep({ method, disabled, onChange }: ImportMethodStepProps) {
  return (
    <Field label="Import method">
      <RadioGroup value={method ?? ''} disabled={disabled} onChange={(_, data) => onChange(data.value as ImportMethod)}>
        <Radio
          value="csv"
          label={
            <>
              Upload file
              <br />
              <Caption1>A CSV or tab-delimited TXT file</Caption1>
            </>
          }
        />
        <Radio
          value="text"
          label={
            <>
              Copy and Paste
              <br />
              <Caption1>Contacts pasted from a spreadsheet</Caption1>
            </>
          }
        />
      </RadioGroup>
    </Field>
  );
}
