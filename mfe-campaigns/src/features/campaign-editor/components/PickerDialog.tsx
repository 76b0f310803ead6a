import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  TableBody,
  TableCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkRegular } from '@fluentui/react-icons/svg/checkmark';
import type { PageMeta } from '@mailroom/api-client';
import { ColumnHeaders, PagedListSection, ScrollingTable, type ListParams } from '@mailroom/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { PickerParams } from '../api/keys';

/** Pickers start at page 1 with 10 per page (docs/product.md, Limits and constants). */
export const PICKER_PAGE_SIZE = 10;

export interface PickerColumn<T> {
  header: string;
  cell: (item: T) => ReactNode;
}

export interface PickerDialogProps<T extends { id: number; name: string }> {
  /** E.g. 'Choose an audience'. */
  title: string;
  /** What is listed, plural and capitalised, e.g. 'Audiences'. */
  itemsLabel: string;
  /** The page query for the dialog's search and page (a hook, called on every render). */
  usePage: (params: PickerParams) => UseQueryResult<{ items: T[]; meta: PageMeta }>;
  /** Columns after the name. */
  columns?: PickerColumn<T>[];
  selectedId: number | null;
  onSelect: (item: T) => void;
  onClose: () => void;
}

const useStyles = makeStyles({
  surface: { width: 'min(720px, calc(100vw - 32px))', maxWidth: '100%' },
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

/** A modal list to choose one item from, with a name search and paging (page 1, 10 per page). */
export function PickerDialog<T extends { id: number; name: string }>({
  title,
  itemsLabel,
  usePage,
  columns = [],
  selectedId,
  onSelect,
  onClose,
}: PickerDialogProps<T>) {
  const styles = useStyles();
  const [params, setParams] = useState<PickerParams>({ page: 1, limit: PICKER_PAGE_SIZE, name: '' });
  const page = usePage(params);
  // The dialog keeps its search and page itself: the screen's URL belongs to the campaign being edited.
  const listParams: ListParams = {
    ...params,
    setParams: (change) => setParams((current) => ({ ...current, ...change, name: (change.name ?? current.name).trim() })),
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent className={styles.content}>
            <PagedListSection noun={itemsLabel} searchLabel={`Search ${itemsLabel.toLowerCase()} by name`} params={listParams} query={page}>
              {(items) => (
                <ScrollingTable aria-label={itemsLabel} size="small">
                  <ColumnHeaders columns={['Name', ...columns.map((column) => column.header), 'Action']} />
                  <TableBody>
                    {items.map((item) => {
                      const selected = item.id === selectedId;
                      return (
                        <TableRow key={item.id} aria-selected={selected}>
                          <TableCell>{item.name}</TableCell>
                          {columns.map((column) => (
                            <TableCell key={column.header}>{column.cell(item)}</TableCell>
                          ))}
                          <TableCell>
                            <Button
                              size="small"
                              appearance={selected ? 'primary' : 'secondary'}
                              icon={selected ? <CheckmarkRegular /> : undefined}
                              aria-label={`Select ${item.name}`}
                              onClick={() => onSelect(item)}
                            >
                              {selected ? 'Selected' : 'Select'}
                            </Button>
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </ScrollingTable>
              )}
            </PagedListSection>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose}>
              Cancel
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
