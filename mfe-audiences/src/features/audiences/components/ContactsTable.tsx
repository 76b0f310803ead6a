import { TableBody, TableCell, TableRow } from '@fluentui/react-components';
import type { Contact } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable, TruncatedText } from '@mailroom/ui';
import { ContactStatus } from './ContactStatus';

/** The audience's extra headers as columns; the email column has its own and is not repeated. */
export function contactColumns(headers: readonly string[]): string[] {
  return headers.filter((header) => header.trim().toLowerCase() !== 'email');
}

/** A typed value as the table shows it: yes/no as words, numbers and 'YYYY-MM-DD' dates as stored. */
export function displayValue(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
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
                <TruncatedText text={displayValue(contact.data[column])} />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </ScrollingTable>
  );
}
