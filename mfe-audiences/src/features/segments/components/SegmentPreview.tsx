import { TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import type { AudienceField, Contact } from '@mailroom/api-client';
import { ScrollingTable, TruncatedText } from '@mailroom/ui';
import { displayValue } from '../../../components/words';

/** Ten matching contacts: the address and the audience's first fields, enough to see the rule picks the right people. */
export function SegmentPreview({ contacts, fields }: { contacts: Contact[]; fields: readonly AudienceField[] }) {
  const shown = fields.slice(0, 3);
  return (
    <ScrollingTable aria-label="Matching contacts">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Email</TableHeaderCell>
          {shown.map((f) => (
            <TableHeaderCell key={f.key}>{f.label}</TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {contacts.map((c) => (
          <TableRow key={c.id}>
            <TableCell>
              <TruncatedText text={c.email} />
            </TableCell>
            {shown.map((f) => (
              <TableCell key={f.key}>
                <TruncatedText text={displayValue(c.data[f.key])} />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
