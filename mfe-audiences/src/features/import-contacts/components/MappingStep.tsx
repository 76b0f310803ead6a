import { Caption1, Checkbox, Field, Input, Select, Subtitle2, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { FIELD_TYPES, guessFieldType, suggestFieldKey, typeDescription, type FieldType } from '@mailroom/api-client/fields';
import type { ColumnChoice, FilePreview, MappedField, MappingChoices } from '../mapping';

/** The type's name in the menu. */
export const TYPE_NAMES: Record<FieldType, string> = {
  TEXT: 'Text',
  NUMBER: 'Number',
  DATE: 'Date',
  YES_NO: 'Yes/no',
  CHOICE: 'One of a list',
};

const NEW = '+new';
const NONE = '+none';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  columns: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, listStyleType: 'none', margin: 0, padding: 0 },
  column: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    minWidth: 0,
  },
  samples: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, margin: 0, padding: 0, listStyleType: 'none' },
  sample: {
    maxWidth: '14em',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    padding: `0 ${tokens.spacingHorizontalXS}`,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusSmall,
  },
  controls: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-start' },
  control: { flex: '1 1 12em', minWidth: 0 },
});

export interface MappingStepProps {
  preview: FilePreview;
  fields: readonly MappedField[];
  choices: MappingChoices;
  /** Each column's problem, and under '' the address column's. */
  problems: Record<string, string>;
  disabled: boolean;
  onChange: (choices: MappingChoices) => void;
}

/** Inside the Import step, once a file is chosen or text pasted: where each column of the file goes. */
export function MappingStep({ preview, fields, choices, problems, disabled, onChange }: MappingStepProps) {
  const styles = useStyles();
  const setColumn = (column: string, choice: ColumnChoice) => onChange({ ...choices, columns: { ...choices.columns, [column]: choice } });
  const samplesOf = (column: string) => preview.samples[preview.columns.indexOf(column)] ?? [];

  return (
    <section className={styles.root} aria-labelledby="mapping-title">
      <div>
        <Subtitle2 as="h2" id="mapping-title">
          Map the columns
        </Subtitle2>
        <Caption1 as="p">Each column of the file goes to a field of the audience, to a new field, or is not imported.</Caption1>
      </div>
      <Field
        label="Column with the email address"
        required
        validationState={problems[''] ? 'error' : 'none'}
        validationMessage={problems['']}
      >
        <Select
          value={choices.emailColumn}
          disabled={disabled}
          onChange={(_, data) => {
            const columns = { ...choices.columns };
            // The column that held the address before becomes a column to map; it starts as not imported.
            if (choices.emailColumn) columns[choices.emailColumn] = { to: 'none' };
            onChange({ emailColumn: data.value, columns });
          }}
        >
          {choices.emailColumn === '' && <option value="">Choose a column</option>}
          {preview.columns.map((column) => (
            <option key={column} value={column}>
              {column}
            </option>
          ))}
        </Select>
      </Field>
      <ul className={styles.columns} aria-label="Columns of the file">
        {preview.columns
          .filter((column) => column !== choices.emailColumn)
          .map((column, index) => (
            <ColumnMapping
              key={column}
              id={`mapping-column-${index}`}
              column={column}
              samples={samplesOf(column)}
              fields={fields}
              choice={choices.columns[column] ?? { to: 'none' }}
              problem={problems[column]}
              disabled={disabled}
              onChange={(choice) => setColumn(column, choice)}
              styles={styles}
            />
          ))}
      </ul>
    </section>
  );
}

interface ColumnMappingProps {
  id: string;
  column: string;
  samples: string[];
  fields: readonly MappedField[];
  choice: ColumnChoice;
  problem: string | undefined;
  disabled: boolean;
  onChange: (choice: ColumnChoice) => void;
  styles: ReturnType<typeof useStyles>;
}

function ColumnMapping({ id, column, samples, fields, choice, problem, disabled, onChange, styles }: ColumnMappingProps) {
  const target = choice.to === 'none' ? NONE : choice.to === 'new' ? NEW : choice.key;
  const shown = samples.filter((sample) => sample !== '');
  return (
    <li className={styles.column} aria-labelledby={`${id}-name`}>
      <Text weight="semibold" id={`${id}-name`}>
        {column}
      </Text>
      {shown.length === 0 ? (
        <Caption1>No values in the first rows</Caption1>
      ) : (
        <ul className={styles.samples} aria-label={`First values of ${column}`}>
          {shown.map((sample, at) => (
            <li key={at} className={styles.sample} title={sample}>
              <Caption1>{sample}</Caption1>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.controls}>
        <Field
          className={styles.control}
          label={`${column} goes to`}
          validationState={problem ? 'error' : 'none'}
          validationMessage={problem}
        >
          <Select
            value={target}
            disabled={disabled}
            onChange={(_, data) => {
              if (data.value === NONE) onChange({ to: 'none' });
              else if (data.value === NEW) {
                const key = suggestFieldKey(
                  column,
                  fields.map((field) => field.key),
                );
                onChange({ to: 'new', key, label: column, type: guessFieldType(samples), options: '', required: false });
              } else onChange({ to: 'field', key: data.value });
            }}
          >
            <option value={NEW}>A new field</option>
            {fields.map((field) => (
              <option key={field.key} value={field.key}>
                {field.label} ({typeDescription(field.type)})
              </option>
            ))}
            <option value={NONE}>Not imported</option>
          </Select>
        </Field>
        {choice.to === 'new' && (
          <>
            <Field className={styles.control} label={`Label of the new field for ${column}`} required>
              <Input value={choice.label} disabled={disabled} onChange={(_, data) => onChange({ ...choice, label: data.value })} />
            </Field>
            <Field className={styles.control} label={`Key of the new field for ${column}`} required hint="Its merge tag">
              <Input value={choice.key} disabled={disabled} onChange={(_, data) => onChange({ ...choice, key: data.value })} />
            </Field>
            <Field className={styles.control} label={`Type of the new field for ${column}`}>
              <Select
                value={choice.type}
                disabled={disabled}
                onChange={(_, data) => onChange({ ...choice, type: data.value as FieldType })}
              >
                {FIELD_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {TYPE_NAMES[type]}
                  </option>
                ))}
              </Select>
            </Field>
            {choice.type === 'CHOICE' && (
              <Field className={styles.control} label={`Options of the new field for ${column}`} hint="Separated by commas">
                <Textarea value={choice.options} disabled={disabled} onChange={(_, data) => onChange({ ...choice, options: data.value })} />
              </Field>
            )}
            <Checkbox
              label="Required"
              checked={choice.required}
              disabled={disabled}
              onChange={(_, data) => onChange({ ...choice, required: data.checked === true })}
            />
          </>
        )}
      </div>
    </li>
  );
}
