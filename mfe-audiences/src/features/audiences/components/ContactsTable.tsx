import { Link, TableBody, TableCell, TableRow, makeStyles } from '@fluentui/react-components';
import type { Contact } from '@mailroom/api-client';
import { ColumnHeaders, ScrollingTable, TruncatedText } from '@mailroom/ui';
import { ContactStatus } from './ContactStatus';

const useStyles = makeStyles({
  opener: { display: 'block', maxWidth: '30ch', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', textAlign: 'start' },
});

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
  const styles = useStyles();
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
                // The address itself names the button (a name other than its visible text fails WCAG 2.5.3), whole
                // and cut by CSS, with nothing focusable inside it.
                <Link as="button" className={styles.opener} title={contact.email} onClick={(event) => onOpen(contact, event.currentTarget)}>
                  {contact.email}
                </Link>
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
