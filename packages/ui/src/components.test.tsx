import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Table, TableBody, TableCell, TableRow } from '@fluentui/react-components';
import { MemoryRouter } from 'react-router-dom';
import { PagedTableFooter, pageSizeChoices, totalPagesOf } from './PagedTableFooter';
import { DeleteMenuItem, RenameMenuItem, RowActions } from './RowActions';
import { ScrollingTable } from './ScrollingTable';
import { ColumnHeaders, LastEdited, NameWithDetails } from './TableCells';
import { TruncatedText } from './TruncatedText';

const inFluent = (ui: React.ReactElement) => render(<FluentProvider theme={webLightTheme}>{ui}</FluentProvider>);

describe('PagedTableFooter', () => {
  it('counts pages, with one page for All', () => {
    expect(totalPagesOf(0, 10)).toBe(1);
    expect(totalPagesOf(57, 10)).toBe(6);
    expect(totalPagesOf(57, 'all')).toBe(1);
    expect(totalPagesOf(2500, 'all', 1000)).toBe(3);
  });

  it('offers the current page size too when the URL asked for one that is not offered', () => {
    expect(pageSizeChoices([5, 10, 25, 50], 10)).toEqual([5, 10, 25, 50]);
    expect(pageSizeChoices([5, 10, 25, 50], 7)).toEqual([5, 7, 10, 25, 50]);
    expect(pageSizeChoices([5, 10, 25, 'all'], 100)).toEqual([5, 10, 25, 100, 'all']);
    expect(pageSizeChoices([5, 10], 'all')).toEqual([5, 10, 'all']);
  });

  it('shows the range and moves to the first, previous, next and last pages', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    inFluent(<PagedTableFooter page={3} pageSize={10} totalItems={57} onPageChange={onPageChange} label="Contacts" />);
    expect(screen.getByText('21–30 of 57')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(onPageChange.mock.calls.map(([page]) => page)).toEqual([1, 2, 4, 6]);
  });

  it('disables the controls at the ends and offers All', async () => {
    const user = userEvent.setup();
    const onPageSizeChange = vi.fn();
    inFluent(
      <PagedTableFooter
        page={1}
        pageSize={5}
        totalItems={3}
        pageSizeOptions={[5, 10, 25, 'all']}
        onPageChange={() => {}}
        onPageSizeChange={onPageSizeChange}
      />,
    );
    for (const name of ['First page', 'Previous page', 'Next page', 'Last page']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
    await user.selectOptions(screen.getByLabelText('Rows per page'), 'All');
    expect(onPageSizeChange).toHaveBeenCalledWith('all');
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    expect(onPageSizeChange).toHaveBeenLastCalledWith(25);
  });
});

describe('TruncatedText', () => {
  it('renders short text as is and cuts long text at 30 characters with the full text kept', () => {
    const long = 'An audience name that is much longer than thirty characters';
    inFluent(
      <>
        <TruncatedText text="Short name" />
        <TruncatedText text={long} />
      </>,
    );
    expect(screen.getByText('Short name')).toBeTruthy();
    const cut = screen.getByText(`${long.slice(0, 29)}…`);
    expect(cut.getAttribute('aria-label')).toBe(long);
    expect(cut.tabIndex).toBe(0);
  });
});

describe('ScrollingTable', () => {
  it('puts the table in a named region the keyboard can reach and scroll', async () => {
    const user = userEvent.setup();
    inFluent(
      <ScrollingTable aria-label="Contacts">
        <TableBody>
          <TableRow>
            <TableCell>ann@example.org</TableCell>
          </TableRow>
        </TableBody>
      </ScrollingTable>,
    );
    const region = screen.getByRole('region', { name: 'Contacts table' });
    expect(region.contains(screen.getByRole('table', { name: 'Contacts' }))).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(region);
  });
});

describe('table cells', () => {
  it('heads a table with its columns, repeated names included', () => {
    inFluent(
      <Table aria-label="Contacts">
        <ColumnHeaders columns={['Status', 'email', { header: 'Status', className: 'wide' }]} />
      </Table>,
    );
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Status', 'email', 'Status']);
    expect(headers[2]!.className).toContain('wide');
  });

  it("shows a name as a link with 'Last edited' under it, by whom only when known", () => {
    inFluent(
      <MemoryRouter>
        <NameWithDetails name="Spring news" to="/templates/edit/4">
          <LastEdited item={{ updatedAt: '2024-03-04T15:20:09', updatedByEmail: 'mia@example.org' }} format="YYYY-MM-DD HH:mm A" />
          <LastEdited item={{ updatedAt: '2024-03-04T15:20:09', updatedByEmail: null }} />
        </NameWithDetails>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Spring news' }).getAttribute('href')).toBe('/templates/edit/4');
    expect(screen.getByText('Last edited: on 2024-03-04 15:20 PM by mia@example.org')).toBeTruthy();
    expect(screen.getByText('Last edited: on 2024-03-04 15:20:09 PM')).toBeTruthy();
  });

  it("puts a row's other actions in a menu named after the row, which waits while one runs", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn();
    const view = inFluent(
      <RowActions itemName="Donors" primary={<button>View</button>}>
        <RenameMenuItem onClick={onRename} />
        <DeleteMenuItem disabled onClick={() => {}} />
      </RowActions>,
    );
    await user.click(screen.getByRole('button', { name: 'More actions for Donors' }));
    expect(screen.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    expect(onRename).toHaveBeenCalledTimes(1);

    view.rerender(
      <FluentProvider theme={webLightTheme}>
        <RowActions itemName="Donors" primary={<button>View</button>} busy disabled>
          <RenameMenuItem onClick={onRename} />
        </RowActions>
      </FluentProvider>,
    );
    expect((screen.getByRole('button', { name: 'More actions for Donors' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
