import { TableBody, TableCell, TableRow } from '@fluentui/react-components';
import type { Contact } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable, TruncatedText } from '@mailroom/ui';
import { ContactStatus } from './ContactStatus';

/** The audience's extra headers as columns; the email column has its own and is not repeated. */
export function contactColumns(headers: readonly string[]): string[] {
  return headers.filter((header) => header.trim().toLowerCase() !== 'email');
}

export function ContactsTable({ headers, contacts }: { headers: readonly string[]; contacts: Contact[] }) {
  const columns = contactColumns(headers);
  return (
    <ScrollingTable aria-label="Contacts" size="small">
      <ColumnHeaders columns={['Status', 'email', ...columns]} />
      <TableBody>
        {contacts.map((contact) => (
          <TableRow key={contact.id}>
            <TableCell>
              <ContactStatus contact={contact} />
            </TableCell>
            <TableCell>
              <TruncatedText text={contact.email} />
            </TableCell>
            {columns.map((column) => (
              <TableCell key={column}>
                <TruncatedText text={contact.data[column] ?? ''} />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
