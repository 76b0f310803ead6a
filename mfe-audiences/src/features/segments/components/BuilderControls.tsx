/**
 * react-querybuilder's controls drawn with Fluent UI v9: native selects (Fluent's Select) and inputs, each
 * labelled with the condition it belongs to, so a screen reader says "Field of condition 2" and every control
 * is reached with Tab like any form.
 */
import { Button, Input, Select } from '@fluentui/react-components';
import { AddRegular, DeleteRegular, GroupRegular } from '@fluentui/react-icons';
import { MAX_SEGMENT_RULES } from '@mailroom/api-client/segments';
import type { ChangeEvent } from 'react';
import {
  isOptionGroupArray,
  type ActionProps,
  type CombinatorSelectorProps,
  type ControlElementsProp,
  type FieldSelectorProps,
  type FullField,
  type FullOption,
  type FullOptionList,
  type OperatorSelectorProps,
  type RuleGroupTypeAny,
  type ValueEditorProps,
} from 'react-querybuilder';
import { conditionName, valueChoices, valueKind, type FieldsByName, type SentCampaign } from './segment-fields';

/** What the builder hands every control beside react-querybuilder's own props. */
export interface BuilderContext {
  fields: FieldsByName;
  campaigns: readonly SentCampaign[];
}

function Options({ options }: { options: FullOptionList<FullOption> }) {
  if (isOptionGroupArray(options))
    return (
      <>
        {options.map((group) => (
          <optgroup key={group.label} label={group.label}>
            {group.options.map((o) => (
              <option key={o.name} value={o.name}>
                {o.label}
              </option>
            ))}
          </optgroup>
        ))}
      </>
    );
  return (
    <>
      {(options as FullOption[]).map((o) => (
        <option key={o.name} value={o.name}>
          {o.label}
        </option>
      ))}
    </>
  );
}

const selectChange = (handle: (value: string) => void) => (event: ChangeEvent<HTMLSelectElement>) => handle(event.target.value);

export function FieldSelector({ options, value, handleOnChange, path, disabled, className }: FieldSelectorProps<FullField>) {
  const name = conditionName(path);
  return (
    <Select
      className={className}
      aria-label={`What ${name} compares`}
      value={value}
      disabled={disabled}
      onChange={selectChange(handleOnChange)}
    >
      <Options options={options} />
    </Select>
  );
}

export function OperatorSelector({ options, value, handleOnChange, path, disabled, className }: OperatorSelectorProps) {
  return (
    <Select
      className={className}
      aria-label={`How ${conditionName(path)} compares`}
      value={value}
      disabled={disabled}
      onChange={selectChange(handleOnChange)}
    >
      <Options options={options} />
    </Select>
  );
}

export function CombinatorSelector({ options, value, handleOnChange, path, disabled, className }: CombinatorSelectorProps) {
  const label = path.length === 0 ? 'Match contacts by' : `Match the conditions of group ${path[0]! + 1} by`;
  return (
    <Select className={className} aria-label={label} value={value} disabled={disabled} onChange={selectChange(handleOnChange)}>
      {options.map((o) =>
        'name' in o ? (
          <option key={o.name} value={o.name}>
            {o.name === 'or' ? 'any condition (OR)' : 'all conditions (AND)'}
          </option>
        ) : null,
      )}
    </Select>
  );
}

/** The value of a condition: typed by the field and the operator; the text is converted when the rule is sent. */
export function ValueEditor({ field, operator, value, handleOnChange, path, disabled, className, context }: ValueEditorProps) {
  const { fields, campaigns } = context as BuilderContext;
  const fieldData = fields.get(String(field));
  const kind = valueKind(fieldData, operator);
  const label = `Value of ${conditionName(path)}`;
  const text = value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  const typed = (event: ChangeEvent<HTMLInputElement>) => handleOnChange(event.target.value);
  switch (kind) {
    case 'none':
      return null;
    case 'yesNo':
    case 'choice':
    case 'subscription':
    case 'joined':
    case 'campaign': {
      const choices = valueChoices(kind, fieldData, campaigns);
      if (kind === 'campaign' && choices.length === 0)
        return <span className={className}>No campaign of this audience has been sent yet</span>;
      return (
        <Select className={className} aria-label={label} value={text} disabled={disabled} onChange={selectChange(handleOnChange)}>
          {choices.map(([v, words]) => (
            <option key={v} value={v}>
              {words}
            </option>
          ))}
        </Select>
      );
    }
    case 'number':
      return (
        <Input
          className={className}
          type="number"
          aria-label={label}
          value={text}
          disabled={disabled}
          min={fieldData?.min}
          max={fieldData?.max}
          onChange={typed}
        />
      );
    case 'date':
      return <Input className={className} type="date" aria-label={label} value={text} disabled={disabled} onChange={typed} />;
    case 'list':
      return (
        <Input
          className={className}
          aria-label={`${label} (separate values with commas)`}
          placeholder="a, b, c"
          value={text}
          disabled={disabled}
          onChange={typed}
        />
      );
    default:
      return <Input className={className} aria-label={label} value={text} disabled={disabled} onChange={typed} />;
  }
}

const groupFull = (ruleOrGroup: ActionProps['ruleOrGroup']) =>
  'rules' in ruleOrGroup && (ruleOrGroup as RuleGroupTypeAny).rules.length >= MAX_SEGMENT_RULES;

export function AddConditionAction({ handleOnClick, ruleOrGroup, path, disabled, className }: ActionProps) {
  return (
    <Button
      className={className}
      icon={<AddRegular />}
      disabled={disabled || groupFull(ruleOrGroup)}
      onClick={(e) => handleOnClick(e)}
      aria-label={path.length === 0 ? 'Add condition' : `Add condition to group ${path[0]! + 1}`}
    >
      Condition
    </Button>
  );
}

/** Groups nest one level: a group offers no group inside it. */
export function AddGroupAction({ handleOnClick, ruleOrGroup, level, disabled, className }: ActionProps) {
  if (level > 0) return null;
  return (
    <Button
      className={className}
      icon={<GroupRegular />}
      disabled={disabled || groupFull(ruleOrGroup)}
      onClick={(e) => handleOnClick(e)}
      aria-label="Add group"
    >
      Group
    </Button>
  );
}

export function RemoveConditionAction({ handleOnClick, path, disabled, className }: ActionProps) {
  return (
    <Button
      className={className}
      appearance="subtle"
      icon={<DeleteRegular />}
      disabled={disabled}
      onClick={(e) => handleOnClick(e)}
      aria-label={`Remove ${conditionName(path)}`}
      title={`Remove ${conditionName(path)}`}
    />
  );
}

export function RemoveGroupAction({ handleOnClick, path, disabled, className }: ActionProps) {
  return (
    <Button className={className} appearance="subtle" icon={<DeleteRegular />} disabled={disabled} onClick={(e) => handleOnClick(e)}>
      Remove group {path[0]! + 1}
    </Button>
  );
}

export const fluentControls: ControlElementsProp<FullField, string> = {
  fieldSelector: FieldSelector,
  operatorSelector: OperatorSelector,
  combinatorSelector: CombinatorSelector,
  valueEditor: ValueEditor,
  addRuleAction: AddConditionAction,
  addGroupAction: AddGroupAction,
  removeRuleAction: RemoveConditionAction,
  removeGroupAction: RemoveGroupAction,
};
