import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { useDebouncedValue } from './useDebouncedValue';
import { useQueryParams } from './useQueryParams';

describe('useDebouncedValue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('publishes a value only after it has been stable for the delay', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 500), {
      initialProps: { value: 'a' },
    });
    expect(result.current).toBe('a');
    rerender({ value: 'ab' });
    act(() => {
      vi.advanceTimersByTime(300);
    });
    rerender({ value: 'abc' });
    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(result.current).toBe('a');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current).toBe('abc');
  });

  it('defaults to 500 ms', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value), { initialProps: { value: 1 } });
    rerender({ value: 2 });
    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(result.current).toBe(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current).toBe(2);
  });
});

describe('useQueryParams', () => {
  function Probe() {
    const { page, limit, name, setParams } = useQueryParams();
    const location = useLocation();
    return (
      <div>
        <output data-testid="values">{`${page}|${limit}|${name}`}</output>
        <output data-testid="search">{location.search}</output>
        <button onClick={() => setParams({ name: '  news  ', page: 1 })}>filter</button>
        <button onClick={() => setParams({ name: ' ' })}>clear</button>
      </div>
    );
  }
  const at =
    (url: string) =>
    ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;

  it('defaults page 1 and limit 10, and ignores malformed values', () => {
    render(<Probe />, { wrapper: at('/audiences?page=abc&limit=-3') });
    expect(screen.getByTestId('values').textContent).toBe('1|10|');
  });

  it('reads the parameters and merges changes, trimming and dropping blank names', async () => {
    const user = userEvent.setup();
    render(<Probe />, { wrapper: at('/audiences?page=3&limit=25') });
    expect(screen.getByTestId('values').textContent).toBe('3|25|');
    await user.click(screen.getByRole('button', { name: 'filter' }));
    expect(screen.getByTestId('values').textContent).toBe('1|25|news');
    expect(screen.getByTestId('search').textContent).toBe('?page=1&limit=25&name=news');
    await user.click(screen.getByRole('button', { name: 'clear' }));
    expect(screen.getByTestId('search').textContent).toBe('?page=1&limit=25');
  });
});

describe('useQueryParams bounds', () => {
  function Probe({ maxLimit }: { maxLimit?: number }) {
    const { page, limit } = useQueryParams(maxLimit ? { maxLimit } : {});
    const location = useLocation();
    return <output data-testid="state">{`${page}|${limit}|${location.search}`}</output>;
  }
  const show = (url: string, maxLimit?: number) =>
    render(
      <MemoryRouter initialEntries={[url]}>
        <Probe maxLimit={maxLimit} />
      </MemoryRouter>,
    );

  it('cuts a page size above what the API takes down to it, in the address too', async () => {
    show('/audiences?limit=5000&page=2');
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('2|1000|?limit=1000&page=2'));
  });

  it("takes a list's own bound (templates: 100)", async () => {
    show('/templates?limit=101', 100);
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('1|100|?limit=100&page=1'));
  });

  it('gives the default for a size below 1 or not a number, and corrects the address', async () => {
    show('/campaigns?limit=0');
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('1|10|?limit=10&page=1'));
    cleanup();
    show('/campaigns?limit=ten');
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('1|10|?limit=10&page=1'));
  });

  it('leaves an address without page or size as it is', () => {
    show('/campaigns?name=news');
    expect(screen.getByTestId('state').textContent).toBe('1|10|?name=news');
  });
});
