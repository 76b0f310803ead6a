import { Button, TableBody, TableCell, TableRow } from '@fluentui/react-components';
import { EyeRegular } from '@fluentui/react-icons/svg/eye';
import type { Contact, ContactList } from '@mailroom/api-client';
import { ColumnHeaders, PagedTableFooter, QueryStateSwitch, ScrollingTable, TruncatedText } from '@mailroom/ui';
import type { UseQueryResult } from '@tanstack/react-query';

/** Preview contacts table page sizes (docs/product.md, Limits and constants); it starts at 10. */
export const PREVIEW_PAGE_SIZES = [5, 10, 25, 50] as const;

export interface PreviewContactsTableProps {
  contacts: UseQueryResult<ContactList>;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  shownId: number | null;
  onShow: (contact: Contact) => void;
}

/** The audience's valid contacts; each one's button renders the email as that contact gets it. */
export function PreviewContactsTable({
  contacts,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
  shownId,
  onShow,
}: PreviewContactsTableProps) {
  return (
    <QueryStateSwitch
      query={contacts}
      loadingLabel="Loading contacts..."
      errorTitle="Failed to load contacts"
      isEmpty={(data) => data.items.length === 0}
      empty={{ title: 'This audience has no valid contacts' }}
    >
      {(data) => (
        <div>
          <ScrollingTable aria-label="Contacts" size="small">
            <ColumnHeaders columns={['Email', 'Preview']} />
            <TableBody>
              {data.items.map((contact) => {
                const shown = contact.id === shownId;
                return (
                  <TableRow key={contact.id} aria-current={shown ? 'true' : undefined}>
                    <TableCell>
                      <TruncatedText text={contact.email} />
                    </TableCell>
                    <TableCell>
                      {/* The visible text stays in the name (WCAG 2.5.3, label in name); pressed tells the one shown. */}
                      <Button
                        size="small"
                        appearance={shown ? 'primary' : 'subtle'}
                        icon={<EyeRegular />}
                        aria-label={`Preview for ${contact.email}`}
                        aria-pressed={shown}
                        onClick={() => onShow(contact)}
                      >
                        Preview
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </ScrollingTable>
          <PagedTableFooter
            label="Contacts"
            page={page}
            pageSize={pageSize}
            totalItems={data.meta.totalItems}
            pageSizeOptions={PREVIEW_PAGE_SIZES}
            onPageChange={onPageChange}
            onPageSizeChange={(size) => onPageSizeChange(size === 'all' ? pageSize : size)}
          />
        </div>
      )}
    </QueryStateSwitch>
  );
}
