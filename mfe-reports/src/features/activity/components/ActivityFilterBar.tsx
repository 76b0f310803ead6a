import { useState, type FormEvent } from 'react';
import { Button, Field, Input, Select, makeStyles, tokens } from '@fluentui/react-components';
import { FilterRegular } from '@fluentui/react-icons';
import type { ActivityKind, ActivityObjectType } from '@mailroom/api-client';
import type { ActivityParams } from '../api/keys';
import { KIND_LABELS, OBJECT_LABELS } from './labels';

export type ActivityFilters = Pick<ActivityParams, 'member' | 'kind' | 'objectType' | 'objectId'>;

const useStyles = makeStyles({
  root: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM, maxWidth: '100%' },
  member: { flexGrow: 1, flexBasis: '220px', maxWidth: '320px', minWidth: 0 },
  objectId: { width: '120px', maxWidth: '100%' },
  // Fluent's Input keeps a minimum width of its own, wider than these fields: without this it ran out
  // of its field, over the Filter button beside it and past the margin on a phone.
  input: { minWidth: 0, width: '100%' },
});

export interface ActivityFilterBarProps {
  filters: ActivityFilters;
  onApply: (filters: ActivityFilters) => void;
}

/** Member, action, object type and object id; applied together with Filter (or Enter), cleared with Clear. */
export function ActivityFilterBar({ filters, onApply }: ActivityFilterBarProps) {
  const styles = useStyles();
  const [member, setMember] = useState(filters.member ?? '');
  const [kind, setKind] = useState<ActivityKind | ''>(filters.kind ?? '');
  const [objectType, setObjectType] = useState<ActivityObjectType | ''>(filters.objectType ?? '');
  const [objectId, setObjectId] = useState(filters.objectId ? String(filters.objectId) : '');
  const idValid = objectId.trim() === '' || /^[1-9]\d{0,14}$/.test(objectId.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!idValid) return;
    onApply({
      ...(member.trim() ? { member: member.trim() } : {}),
      ...(kind ? { kind } : {}),
      ...(objectType ? { objectType } : {}),
      ...(objectId.trim() ? { objectId: Number(objectId.trim()) } : {}),
    });
  };
  const clear = () => {
    setMember('');
    setKind('');
    setObjectType('');
    setObjectId('');
    onApply({});
  };

  return (
    <form className={styles.root} role="search" aria-label="Filter activity" onSubmit={submit}>
      <Field label="Member" hint="A part of the address is enough" className={styles.member}>
        <Input className={styles.input} value={member} placeholder="mia or mia@example.org" onChange={(_, data) => setMember(data.value)} />
      </Field>
      <Field label="Action">
        <Select value={kind} onChange={(_, data) => setKind(data.value as ActivityKind | '')}>
          <option value="">All</option>
          {Object.entries(KIND_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Object">
        <Select value={objectType} onChange={(_, data) => setObjectType(data.value as ActivityObjectType | '')}>
          <option value="">All</option>
          {Object.entries(OBJECT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Object id" className={styles.objectId} validationMessage={idValid ? undefined : 'A whole number'}>
        <Input className={styles.input} inputMode="numeric" value={objectId} onChange={(_, data) => setObjectId(data.value)} />
      </Field>
      <Button type="submit" appearance="primary" icon={<FilterRegular />}>
        Filter
      </Button>
      <Button type="button" onClick={clear}>
        Clear
      </Button>
    </form>
  );
}
