import { Button, Field, Input, Select, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { PersonAddRegular, PeopleRegular, SearchRegular } from '@fluentui/react-icons';
import type { Audience } from '@mailroom/api-client';
import {
  PagedTableFooter,
  RoleGate,
  QueryStateSwitch,
  isEmptyList,
  useDebouncedValue,
  usePageInRange,
  type EmptyStateProps,
  type PageSize,
} from '@mailroom/ui';
import { useRef, useState } from 'react';
import { AddContactDialog } from './contact/AddContactDialog';
import { ContactDrawer } from './contact/ContactDrawer';
import { MAX_PAGE_SIZE, useContacts } from '../api/audiences';
import type { ContactListParams } from '../api/keys';
import { ContactsTable } from './ContactsTable';

/** Contact table page sizes (docs/product.md, Limits and constants); 'all' asks for numberOfContacts rows. */
export const CONTACT_PAGE_SIZES: readonly PageSize[] = [5, 10, 25, 'all'];
export const SEARCH_DEBOUNCE_MS = 500;

export type StatusFilter = 'all' | 'valid' | 'errors';

/** All: no filter; Valid: hasError=false; Errors: hasError=true. */
export function hasErrorFor(status: StatusFilter): boolean | undefined {
  return status === 'all' ? undefined : status === 'errors';
}

/** How many rows 'All' asks for: the audience's contacts, within the API's page-size bounds. */
export function allPageSize(numberOfContacts: number): number {
  return Math.min(Math.max(numberOfContacts, 1), MAX_PAGE_SIZE);
}

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  filters: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  search: { minWidth: '280px' },
});

/**
 * What the contacts area says when it shows none. An audience takes one import, so while it runs there are no
 * contacts yet, and the banner above says it runs: the area tells when they will appear, not how to import.
 */
function emptyState(importing: boolean, filtered: boolean): EmptyStateProps {
  if (importing) return { icon: <PeopleRegular />, title: 'Contacts will appear here when the import finishes' };
  if (filtered) return { icon: <PeopleRegular />, title: 'No contacts match the filters' };
  return {
    icon: <PeopleRegular />,
    title: 'No contacts yet',
    description: 'Import contacts from the Options menu, or add one with Add contact.',
  };
}

export function ContactsSection({ audience }: { audience: Audience }) {
  const styles = useStyles();
  const [emailText, setEmailText] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<PageSize>(10);

  // A new debounced search goes back to page 1 in the same render, so no request is made for the old page.
  const debouncedEmail = useDebouncedValue(emailText, SEARCH_DEBOUNCE_MS).trim();
  const [appliedEmail, setAppliedEmail] = useState(debouncedEmail);
  if (appliedEmail !== debouncedEmail) {
    setAppliedEmail(debouncedEmail);
    setPage(1);
  }

  const limit = pageSize === 'all' ? allPageSize(audience.numberOfContacts) : pageSize;
  const hasError = hasErrorFor(status);
  const params: ContactListParams = {
    page,
    limit,
    ...(appliedEmail ? { email: appliedEmail } : {}),
    ...(hasError === undefined ? {} : { hasError }),
  };
  const contacts = usePageInRange(useContacts(audience.id, params), { page, pageSize, allPageSize: limit, onPageChange: setPage });
  const filtered = appliedEmail !== '' || status !== 'all';
  // The open drawer's contact, and what opened it: focus goes back there when it closes.
  const [openContact, setOpenContact] = useState<number | undefined>(undefined);
  const [adding, setAdding] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const closeDrawer = () => {
    setOpenContact(undefined);
    const back = opener.current;
    // After the drawer has gone (and its own focus restore), when the row is still on the page.
    setTimeout(() => back?.isConnected && back.focus(), 0);
  };

  return (
    <section className={styles.root} aria-labelledby="contacts-title">
      <Title2 as="h2" id="contacts-title">
        Contacts
      </Title2>
      <div className={styles.filters}>
        <Field label="Search by email">
          <Input
            className={styles.search}
            type="search"
            value={emailText}
            contentBefore={<SearchRegular />}
            onChange={(_, data) => setEmailText(data.value)}
          />
        </Field>
        <Field label="Status">
          <Select
            value={status}
            onChange={(_, data) => {
              setStatus(data.value as StatusFilter);
              setPage(1);
            }}
          >
            <option value="all">All</option>
            <option value="valid">Valid</option>
            <option value="errors">Errors</option>
          </Select>
        </Field>
        <RoleGate needs="editor" action="add contacts">
          {(lock) => (
            <Button icon={<PersonAddRegular />} disabled={audience.isImporting} onClick={() => setAdding(true)} {...lock}>
              Add contact
            </Button>
          )}
        </RoleGate>
      </div>

      <QueryStateSwitch
        query={contacts}
        loadingLabel="Loading contacts..."
        errorTitle="Failed to load contacts"
        isEmpty={isEmptyList}
        empty={emptyState(audience.isImporting, filtered)}
      >
        {(data) => (
          <div>
            <ContactsTable
              headers={audience.headers}
              contacts={data.items}
              onOpen={(contact, element) => {
                opener.current = element;
                setOpenContact(contact.id);
              }}
            />
            <PagedTableFooter
              label="Contacts"
              page={page}
              pageSize={pageSize}
              allPageSize={limit}
              totalItems={data.meta.totalItems}
              pageSizeOptions={CONTACT_PAGE_SIZES}
              onPageChange={setPage}
              onPageSizeChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
            />
          </div>
        )}
      </QueryStateSwitch>
      {openContact !== undefined && <ContactDrawer audienceId={audience.id} contactId={openContact} onClose={closeDrawer} />}
      {adding && <AddContactDialog audience={audience} onClose={() => setAdding(false)} />}
    </section>
  );
}
