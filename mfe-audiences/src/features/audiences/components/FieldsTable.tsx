import { TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { DeleteRegular, EditRegular } from '@fluentui/react-icons';
import type { AudienceField } from '@mailroom/api-client';
import { FIELD_TYPE_LABELS } from '@mailroom/api-client/labels';
import { CellItems, IconButton, RoleGate, ScrollingTable, TruncatedText } from '@mailroom/ui';

/** 'Gold, Silver, Bronze' after the type of a choice, cut by the cell. */
const typeOf = (field: AudienceField) =>
  field.type === 'CHOICE' && field.options ? `${FIELD_TYPE_LABELS.CHOICE}: ${field.options.join(', ')}` : FIELD_TYPE_LABELS[field.type];

/** One row per field: Label, Key (the merge tag), Type, Required, Editable by the person, and its actions. */
export function FieldsTable({
  fields,
  onChange,
  onRemove,
}: {
  fields: AudienceField[];
  onChange: (field: AudienceField) => void;
  onRemove: (field: AudienceField) => void;
}) {
  return (
    <ScrollingTable aria-label="Fields" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Label</TableHeaderCell>
          <TableHeaderCell>Key</TableHeaderCell>
          <TableHeaderCell>Type</TableHeaderCell>
          <TableHeaderCell>Required</TableHeaderCell>
          <TableHeaderCell>Editable by the person</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {fields.map((field) => (
          <TableRow key={field.key}>
            <TableCell>
              <TruncatedText text={field.label} />
            </TableCell>
            <TableCell>
              <code>{`{{${field.key}}}`}</code>
            </TableCell>
            <TableCell>
              <TruncatedText text={typeOf(field)} />
            </TableCell>
            <TableCell>{field.required ? 'Yes' : 'No'}</TableCell>
            <TableCell>{field.editableByPerson ? 'Yes' : 'No'}</TableCell>
            <TableCell>
              <CellItems>
                {/* Below editor the row's icons are left out: an icon's tooltip is its name, so it has no room to say who can. */}
                <RoleGate needs="editor" action="change fields" hide>
                  {() => <IconButton label={`Change ${field.label}`} icon={<EditRegular />} onClick={() => onChange(field)} />}
                </RoleGate>
                <RoleGate needs="editor" action="remove fields" hide>
                  {() => <IconButton label={`Remove ${field.label}`} icon={<DeleteRegular />} onClick={() => onRemove(field)} />}
                </RoleGate>
              </CellItems>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
