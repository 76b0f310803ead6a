import { Field, Radio, RadioGroup } from '@fluentui/react-components';
import type { LawfulBasis } from '@mailroom/api-client';
import { LAWFUL_BASIS_LABELS } from '@mailroom/api-client/labels';

const BASES = Object.keys(LAWFUL_BASIS_LABELS) as LawfulBasis[];

export interface LawfulBasisFieldProps {
  value: LawfulBasis | null;
  onChange: (basis: LawfulBasis) => void;
  disabled?: boolean;
  /** Shown under the choices (the wizard asks for a choice before it imports). */
  validationMessage?: string | undefined;
}

/**
 * Why the organisation may mail the people a member imports or adds (GDPR art. 6(1)), recorded in the
 * consent ledger with them: the import wizard's and the add-contact form's one choice, worded alike.
 */
export function LawfulBasisField({ value, onChange, disabled = false, validationMessage }: LawfulBasisFieldProps) {
  return (
    <Field label="Lawful basis" required validationMessage={validationMessage} hint="Why your organisation may email them.">
      <RadioGroup value={value ?? ''} disabled={disabled} onChange={(_, data) => onChange(data.value as LawfulBasis)}>
        {BASES.map((basis) => (
          <Radio key={basis} value={basis} label={LAWFUL_BASIS_LABELS[basis]} />
        ))}
      </RadioGroup>
    </Field>
  );
}
