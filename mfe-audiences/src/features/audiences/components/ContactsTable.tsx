import { Link, TableBody, TableCell, TableRow, Tooltip } from '@fluentui/react-components';
import type { Contact } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable, TruncatedText, truncate } from '@mailroom/ui';
import { ContactStatus } from './ContactStatus';
import { displayValue } from '../../../components/words';

/** The audience's extra headers as columns; the email column has its own and is not repeated. */
export function contactColumns(headers: readonly string[]): string[] {
  return headers.filter((header) => header.trim().toLowerCase() !== 'email');
}

/** The rows; a contact's address is a button that opens its drawer (Enter or Space from the keyboard). */
export function ContactsTable({
  headers,
  contacts,
  onOpen,
}: {
  headers: readonly string[];
  contacts: Contact[];
  onOpen?: (contact: Contact, opener: HTMLElement) => void;
}) {
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
              {onOpen ? (
                // The address as shown names the button (a name other than its visible text fails WCAG 2.5.3), cut
                // as every long value is, the whole address in its tooltip; nothing focusable inside it.
                <Tooltip content={contact.email} relationship="description">
                  <Link as="button" onClick={(event) => onOpen(contact, event.currentTarget)}>
                    {truncate(contact.email)}
                  </Link>
                </Tooltip>
              ) : (
                <TruncatedText text={contact.email} />
              )}
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
