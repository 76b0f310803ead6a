import { TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import type { PersonContact } from '@mailroom/api-client';
import { ScrollingTable, TruncatedText, formatDateTime } from '@mailroom/ui';

/** The contact's fields as one line: 'Name: Ann · City: Paris'. */
const fieldsOf = (data: Record<string, string | number | boolean>) =>
  Object.entries(data)
    .map(([name, value]) => `${name}: ${typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value)}`)
    .join(' · ') || '—';

/** Every audience the address is on: the contact as held there (its address as written, its fields) and the import that brought it in. */
export function PersonAudiences({ contacts }: { contacts: PersonContact[] }) {
  return (
    <ScrollingTable aria-label="Audiences" size="small">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Audience</TableHeaderCell>
          <TableHeaderCell>Address as held</TableHeaderCell>
          <TableHeaderCell>Status</TableHeaderCell>
          <TableHeaderCell>Fields</TableHeaderCell>
          <TableHeaderCell>Imported</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {contacts.map((contact) => (
          <TableRow key={contact.contactId}>
            <TableCell>
              <TruncatedText text={contact.audienceName} />
            </TableCell>
            <TableCell>
              <TruncatedText text={contact.email} />
            </TableCell>
            <TableCell>
              <TruncatedText text={contact.errorMessage ?? 'Valid'} />
            </TableCell>
            <TableCell>
              <TruncatedText text={fieldsOf(contact.data)} />
            </TableCell>
            <TableCell>
              {formatDateTime(contact.importedAt)}
              {contact.importedBy
                ? contact.addedHow === 'form'
                  ? ` through the form ${contact.importedBy}`
                  : ` by ${contact.importedBy}`
                : ''}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
