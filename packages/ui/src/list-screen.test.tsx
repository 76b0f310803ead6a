import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ApiError } from '@mailroom/api-client';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NameSearchForm } from './NameSearchForm';
import { QueryStateSwitch, type QueryStateLike } from './QueryStateSwitch';

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
