import { Checkbox, Field, Input, MessageBar, MessageBarBody, Select, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type AudienceField, type AudienceFieldChange, type AudienceFieldInput } from '@mailroom/api-client';
import {
  FIELD_TYPES,
  fieldKeyError,
  MAX_LABEL_LENGTH,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  suggestFieldKey,
  type FieldType,
} from '@mailroom/api-client/fields';
import { FIELD_TYPE_LABELS } from '@mailroom/api-client/labels';
import { FormDialog } from '@mailroom/ui';
import { useState } from 'react';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/** The options as typed, one a line: trimmed, blanks left out. */
const optionLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** What is wrong with the options of a choice, as the API would say it, or undefined. */
function optionsProblem(options: string[]): string | undefined {
  if (options.length === 0) return 'A choice field needs at least one option.';
  if (options.length > MAX_OPTIONS) return `A choice field has at most ${MAX_OPTIONS} options.`;
  if (options.some((option) => option.length > MAX_OPTION_LENGTH)) return `An option is at most ${MAX_OPTION_LENGTH} characters.`;
  const seen = new Set<string>();
  for (const option of options) {
    if (seen.has(option.toLowerCase())) return `The option '${option}' is listed twice.`;
    seen.add(option.toLowerCase());
  }
  return undefined;
}

export interface FieldDialogProps {
  /** The field to change; absent to add one. */
  field?: AudienceField;
  /** The audience's keys: a new key must differ from each, whatever its case. */
  takenKeys: string[];
  busy: boolean;
  /** The server's refusal, shown in the dialog. */
  error: unknown;
  onAdd: (input: AudienceFieldInput) => void;
  onChange: (key: string, change: AudienceFieldChange) => void;
  onClose: () => void;
}

/**
 * Add a field (its key suggested from the label until the member types one) or change one: rename (the key stays,
 * so templates keep working), its type (the server converts every value or refuses, saying how many do not fit),
 * a choice's options (one a line), and whether it is required or editable by the person.
 */
export function FieldDialog({ field, takenKeys, busy, error, onAdd, onChange, onClose }: FieldDialogProps) {
  const styles = useStyles();
  const [label, setLabel] = useState(field?.label ?? '');
  const [key, setKey] = useState(field?.key ?? '');
  const [keyTyped, setKeyTyped] = useState(field !== undefined);
  const [type, setType] = useState<FieldType>(field?.type ?? 'TEXT');
  const [options, setOptions] = useState((field?.options ?? []).join('\n'));
  const [required, setRequired] = useState(field?.required ?? false);
  const [editableByPerson, setEditableByPerson] = useState(field?.editableByPerson ?? false);
  const [touched, setTouched] = useState(false);

  const shownKey = keyTyped ? key : suggestFieldKey(label, takenKeys);
  const labelProblem =
    label.trim() === ''
      ? 'A field needs a label.'
      : label.trim().length > MAX_LABEL_LENGTH
        ? `A label is at most ${MAX_LABEL_LENGTH} characters.`
        : undefined;
  const keyProblem = field ? undefined : (fieldKeyError(shownKey, takenKeys) ?? undefined);
  const optionList = optionLines(options);
  const optionProblem = type === 'CHOICE' ? optionsProblem(optionList) : undefined;
  const problems = [labelProblem, keyProblem, optionProblem].filter(Boolean);

  const submit = () => {
    setTouched(true);
    if (problems.length > 0) return;
    const chosen = type === 'CHOICE' ? optionList : null;
    if (field) onChange(field.key, { label: label.trim(), type, options: chosen, required, editableByPerson });
    else onAdd({ key: shownKey, label: label.trim(), type, options: chosen, required, editableByPerson });
  };
  const state = (problem: string | undefined) => (touched && problem ? ('error' as const) : ('none' as const));

  return (
    <FormDialog
      title={field ? `Change ${field.label}` : 'Add field'}
      submitLabel={field ? 'Save' : 'Add'}
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      contentClassName={styles.content}
    >
      {error ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{errorMessage(error, field ? 'Failed to change the field' : 'Failed to add the field')}</MessageBarBody>
        </MessageBar>
      ) : null}
      <Field label="Label" required validationState={state(labelProblem)} validationMessage={touched ? labelProblem : undefined}>
        <Input value={label} maxLength={MAX_LABEL_LENGTH * 2} onChange={(_, data) => setLabel(data.value)} />
      </Field>
      <Field
        label="Key (the merge tag)"
        required={!field}
        validationState={state(keyProblem)}
        validationMessage={
          touched && keyProblem
            ? keyProblem
            : field
              ? `Templates use it as {{${field.key}}}; it stays when the label changes.`
              : `Templates will use it as {{${shownKey || 'key'}}}.`
        }
      >
        <Input
          value={shownKey}
          readOnly={field !== undefined}
          onChange={(_, data) => {
            setKeyTyped(true);
            setKey(data.value);
          }}
        />
      </Field>
      <Field label="Type" hint={field ? 'Every stored value is converted; if one does not fit, nothing changes.' : undefined}>
        <Select value={type} onChange={(_, data) => setType(data.value as FieldType)}>
          {FIELD_TYPES.map((value) => (
            <option key={value} value={value}>
              {FIELD_TYPE_LABELS[value]}
            </option>
          ))}
        </Select>
      </Field>
      {type === 'CHOICE' && (
        <Field
          label="Options, one a line"
          required
          validationState={state(optionProblem)}
          validationMessage={touched ? optionProblem : undefined}
        >
          <Textarea value={options} resize="vertical" rows={4} onChange={(_, data) => setOptions(data.value)} />
        </Field>
      )}
      <Checkbox checked={required} onChange={(_, data) => setRequired(data.checked === true)} label="Required" />
      <Checkbox
        checked={editableByPerson}
        onChange={(_, data) => setEditableByPerson(data.checked === true)}
        label="The person may edit it in the preference centre"
      />
    </FormDialog>
  );
}
