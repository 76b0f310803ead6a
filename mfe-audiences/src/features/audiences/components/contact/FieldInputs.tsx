import { Dropdown, Field, Input, Option, Switch, makeStyles, tokens } from '@fluentui/react-components';
import type { AudienceField, FieldValues } from '@mailroom/api-client';
import { checkFieldValue } from '@mailroom/api-client/fields';

/** What a form holds for each field: the text typed (a switch's yes/no as a boolean). */
export type FormValues = Record<string, string | boolean>;

const useStyles = makeStyles({
  fields: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/** The form's values of a contact's data: numbers as text, a date as YYYY-MM-DD, yes/no as a boolean. */
export function formValuesOf(fields: AudienceField[], data: FieldValues): FormValues {
  return Object.fromEntries(
    fields.map((field) => {
      const value = data[field.key];
      if (field.type === 'YES_NO') return [field.key, value === true];
      return [field.key, value === undefined ? '' : String(value)];
    }),
  );
}

/** Why a field's value is refused (the same rules as the API's: @mailroom/api-client/fields), or undefined. */
export function fieldError(field: AudienceField, value: string | boolean | undefined): string | undefined {
  const checked = checkFieldValue(field, value);
  return checked.ok ? undefined : checked.error;
}

/**
 * The values a save sends: only the fields changed from `initial` (a cleared one as null), so a value
 * the member did not touch is left as it is.
 */
export function changedValues(fields: AudienceField[], initial: FormValues, values: FormValues) {
  const changes: Record<string, string | boolean | null> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (value === undefined || value === initial[field.key]) continue;
    changes[field.key] = value === '' ? null : value;
  }
  return changes;
}

/** One input a field, by its type: text, number, date, a switch for yes/no, a dropdown for a choice. */
export function FieldInputs({
  fields,
  values,
  errors,
  onChange,
}: {
  fields: AudienceField[];
  values: FormValues;
  /** A refusal per key (the client's check, or the server's naming the field). */
  errors: Record<string, string | undefined>;
  onChange: (key: string, value: string | boolean) => void;
}) {
  const styles = useStyles();
  return (
    <div className={styles.fields}>
      {fields.map((field) => {
        const value = values[field.key];
        const error = errors[field.key];
        const common = {
          label: field.label,
          required: field.required,
          validationMessage: error,
          validationState: error ? ('error' as const) : ('none' as const),
        };
        switch (field.type) {
          case 'YES_NO':
            return (
              <Field key={field.key} {...common}>
                <Switch
                  checked={value === true}
                  label={value === true ? 'Yes' : 'No'}
                  onChange={(_, data) => onChange(field.key, data.checked)}
                />
              </Field>
            );
          case 'CHOICE':
            return (
              <Field key={field.key} {...common}>
                <Dropdown
                  value={typeof value === 'string' ? value : ''}
                  selectedOptions={typeof value === 'string' && value !== '' ? [value] : []}
                  placeholder="None"
                  onOptionSelect={(_, data) => onChange(field.key, data.optionValue ?? '')}
                >
                  {!field.required && <Option value="">None</Option>}
                  {(field.options ?? []).map((option) => (
                    <Option key={option} value={option}>
                      {option}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            );
          default:
            return (
              <Field key={field.key} {...common}>
                <Input
                  type={field.type === 'DATE' ? 'date' : 'text'}
                  inputMode={field.type === 'NUMBER' ? 'decimal' : undefined}
                  value={typeof value === 'string' ? value : ''}
                  onChange={(_, data) => onChange(field.key, data.value)}
                />
              </Field>
            );
        }
      })}
    </div>
  );
}
