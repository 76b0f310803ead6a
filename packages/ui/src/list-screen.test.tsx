import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ApiError } from '@mailroom/api-client';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ListScreen } from './ListScreen';
import { NameSearchForm } from './NameSearchForm';
import { PagedListSection, type ListParams } from './PagedListSection';
import { QueryStateSwitch, type QueryStateLike } from './QueryStateSwitch';
import { useQueryParams } from './useQueryParams';

const inFluent = (ui: React.ReactElement) => render(<FluentProvider theme={webLightTheme}>{ui}</FluentProvider>);

describe('NameSearchForm', () => {
  it('searches with the typed text on Enter and on the Search button, not while typing', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    inFluent(<NameSearchForm value="" onSearch={onSearch} label="Search templates" />);
    const box = screen.getByRole('searchbox', { name: 'Search templates' });
    await user.type(box, 'news');
    expect(onSearch).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onSearch).toHaveBeenLastCalledWith('news');
    await user.type(box, ' 2025');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenLastCalledWith('news 2025');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('starts from the current name and follows it when it changes from outside', () => {
    const view = inFluent(<NameSearchForm value="donors" onSearch={() => {}} />);
    expect((screen.getByLabelText('Search by name') as HTMLInputElement).value).toBe('donors');
    view.rerender(
      <FluentProvider theme={webLightTheme}>
        <NameSearchForm value="" onSearch={() => {}} />
      </FluentProvider>,
    );
    expect((screen.getByLabelText('Search by name') as HTMLInputElement).value).toBe('');
  });
});

describe('QueryStateSwitch', () => {
  interface Page {
    items: string[];
  }
  const query = (state: Partial<QueryStateLike<Page>>): QueryStateLike<Page> => ({
    isPending: false,
    isError: false,
    error: null,
    data: undefined,
    refetch: vi.fn(),
    ...state,
  });
  const show = (state: QueryStateLike<Page>) =>
    inFluent(
      <QueryStateSwitch
        query={state}
        loadingLabel="Loading templates..."
        errorTitle="Failed to load templates"
        isEmpty={(data) => data.items.length === 0}
        empty={{ title: 'No templates yet', description: 'Create one.' }}
      >
        {(data) => (
          <ul>
            {data.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        )}
      </QueryStateSwitch>,
    );

  it('shows a spinner while loading', () => {
    show(query({ isPending: true }));
    expect(screen.getByText('Loading templates...')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it("shows the server's message with Retry on failure, the title when the server sent none", async () => {
    const user = userEvent.setup();
    const failed = query({ isError: true, error: new ApiError(500, { message: 'Database unavailable' }) });
    const view = show(failed);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Failed to load templates');
    expect(alert.textContent).toContain('Database unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(failed.refetch).toHaveBeenCalledTimes(1);
    view.unmount();

    show(query({ isError: true, error: new ApiError(502, undefined) }));
    const silent = screen.getByRole('alert').textContent!;
    expect(silent).not.toContain('502');
    expect(silent.split('Failed to load templates')).toHaveLength(3);
  });

  it('shows the empty state for data it calls empty, and the content otherwise', () => {
    const view = show(query({ data: { items: [] } }));
    expect(screen.getByRole('status').textContent).toContain('No templates yet');
    view.unmount();
    show(query({ data: { items: ['Welcome', 'Newsletter'] } }));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Welcome', 'Newsletter']);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the content of an empty result when no empty state is given', () => {
    inFluent(
      <QueryStateSwitch query={query({ data: { items: [] } })} loadingLabel="Loading" errorTitle="Failed">
        {(data) => <p>{data.items.length} templates</p>}
      </QueryStateSwitch>,
    );
    expect(screen.getByText('0 templates')).toBeTruthy();
  });
});

describe('PagedListSection', () => {
  interface Audience {
    id: number;
    name: string;
  }
  const page = (items: Audience[], totalItems = items.length): QueryStateLike<{ items: Audience[]; meta: { totalItems: number } }> => ({
    isPending: false,
    isError: false,
    error: null,
    data: { items, meta: { totalItems } },
    refetch: vi.fn(),
  });
  const params = (change: Partial<ListParams> = {}): ListParams => ({ page: 2, limit: 10, name: '', setParams: vi.fn(), ...change });
  const show = (listParams: ListParams, query: ReturnType<typeof page>, pageSizeOptions?: readonly number[]) =>
    inFluent(
      <PagedListSection
        noun="Audiences"
        params={listParams}
        query={query}
        empty={{ hint: 'Create an audience, then import its contacts.' }}
        pageSizeOptions={pageSizeOptions}
      >
        {(audiences) => (
          <ul>
            {audiences.map((audience) => (
              <li key={audience.id}>{audience.name}</li>
            ))}
          </ul>
        )}
      </PagedListSection>,
    );

  it('renders the page through the caller and moves pages, sizes and searches back to page 1 where they must', async () => {
    const user = userEvent.setup();
    const listParams = params();
    show(listParams, page([{ id: 1, name: 'Donors' }], 25), [5, 10, 25, 50]);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Donors']);
    expect(screen.getByRole('group', { name: 'Audiences pagination' }).textContent).toContain('11–20 of 25');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(listParams.setParams).toHaveBeenLastCalledWith({ page: 3 });
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    expect(listParams.setParams).toHaveBeenLastCalledWith({ limit: 25, page: 1 });
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'don{Enter}');
    expect(listParams.setParams).toHaveBeenLastCalledWith({ name: 'don', page: 1 });
  });

  it('offers no page size without sizes to offer', () => {
    show(params(), page([{ id: 1, name: 'Donors' }]));
    expect(screen.getByRole('group', { name: 'Audiences pagination' })).toBeTruthy();
    expect(screen.queryByLabelText('Rows per page')).toBeNull();
  });

  it("says there are none yet with the caller's hint, or that none match the searched name", () => {
    const view = show(params(), page([]));
    expect(screen.getByRole('status').textContent).toBe('No audiences yetCreate an audience, then import its contacts.');
    view.unmount();
    show(params({ name: 'donors' }), page([]));
    expect(screen.getByRole('status').textContent).toBe('No audiences match “donors”Try another name.');
  });

  it('names its spinner and its error after what it lists', () => {
    const view = show(params(), { ...page([]), isPending: true });
    expect(screen.getByText('Loading audiences...')).toBeTruthy();
    view.unmount();
    show(params(), { ...page([]), isError: true, error: new Error('down') });
    expect(screen.getByRole('alert').textContent).toContain('Failed to load audiences');
  });
});

describe('ListScreen', () => {
  it('is a region named by its heading; the create button waits while a create is in flight', async () => {
    const user = userEvent.setup();
    const onCreate = vi.fn();
    const view = inFluent(
      <ListScreen title="Campaigns" createLabel="Create Campaign" onCreate={onCreate}>
        <p>the list</p>
      </ListScreen>,
    );
    const region = screen.getByRole('region', { name: 'Campaigns' });
    expect(region.contains(screen.getByRole('heading', { level: 1, name: 'Campaigns' }))).toBe(true);
    expect(region.textContent).toContain('the list');
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }));
    expect(onCreate).toHaveBeenCalledTimes(1);

    view.rerender(
      <FluentProvider theme={webLightTheme}>
        <ListScreen title="Campaigns" createLabel="Create Campaign" creating onCreate={onCreate}>
          <p>the list</p>
        </ListScreen>
      </FluentProvider>,
    );
    expect((screen.getByRole('button', { name: 'Create Campaign' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('a list past its last page', () => {
  interface Audience {
    id: number;
    name: string;
  }
  /** A list the server pages as the API does: any page answers, one past the end with no items and the whole count. */
  function serverPage(all: Audience[], page: number, limit: number) {
    return { items: all.slice((page - 1) * limit, page * limit), meta: { totalItems: all.length } };
  }
  function List({ all }: { all: Audience[] }) {
    const params = useQueryParams();
    const location = useLocation();
    const query: QueryStateLike<ReturnType<typeof serverPage>> = {
      isPending: false,
      isError: false,
      error: null,
      data: serverPage(all, params.page, params.limit),
      refetch: vi.fn(),
    };
    return (
      <>
        <output data-testid="address">{location.search}</output>
        <PagedListSection noun="Audiences" params={params} query={query} pageSizeOptions={[5, 10]}>
          {(audiences) => (
            <ul>
              {audiences.map((audience) => (
                <li key={audience.id}>{audience.name}</li>
              ))}
            </ul>
          )}
        </PagedListSection>
      </>
    );
  }
  const audiences = (count: number) => Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Audience ${i + 1}` }));
  const showAt = (url: string, all: Audience[]) =>
    inFluent(
      <MemoryRouter initialEntries={['/audiences', url]}>
        <List all={all} />
      </MemoryRouter>,
    );

  it('an old ?page= link shows the last page, with its pager, and the address says so', async () => {
    showAt('/audiences?page=99&limit=5', audiences(12));
    expect((await screen.findAllByRole('listitem')).map((item) => item.textContent)).toEqual(['Audience 11', 'Audience 12']);
    expect(screen.getByRole('group', { name: 'Audiences pagination' }).textContent).toContain('11–12 of 12');
    expect(screen.getByTestId('address').textContent).toBe('?page=3&limit=5');
    expect(screen.queryByText('No audiences yet')).toBeNull();
  });

  it('a last page whose only row is deleted moves to the page before it', async () => {
    const all = audiences(11);
    const view = showAt('/audiences?page=3&limit=5', all);
    expect((await screen.findAllByRole('listitem')).map((item) => item.textContent)).toEqual(['Audience 11']);
    view.rerender(
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter initialEntries={['/audiences', '/audiences?page=3&limit=5']}>
          <List all={all.slice(0, 10)} />
        </MemoryRouter>
      </FluentProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?page=2&limit=5'));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([6, 7, 8, 9, 10].map((n) => `Audience ${n}`));
    expect(screen.getByRole('group', { name: 'Audiences pagination' }).textContent).toContain('6–10 of 10');
  });

  it('shows the empty state only when the list itself is empty, on page 1', async () => {
    showAt('/audiences?page=4', []);
    expect(await screen.findByText('No audiences yet')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Audiences pagination' })).toBeNull();
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?page=1'));
  });

  it('never shows the empty state while it moves from a page past the end', () => {
    const moved = vi.fn();
    const past = { items: [] as Audience[], meta: { totalItems: 12 } };
    inFluent(
      <PagedListSection
        noun="Audiences"
        params={{ page: 9, limit: 5, name: '', setParams: moved }}
        query={{ isPending: false, isError: false, error: null, data: past, refetch: vi.fn() }}
      >
        {() => <p>table</p>}
      </PagedListSection>,
    );
    expect(screen.getByText('Loading audiences...')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(moved).toHaveBeenCalledWith({ page: 3 }, { replace: true });
  });
});
